package server

import (
	"github.com/webinfra/webinfra/aeo/fetchsim"
	"github.com/webinfra/webinfra/aeo/llmstxt"
	"github.com/webinfra/webinfra/billing"
	"github.com/webinfra/webinfra/seo/linkcheck"
	"github.com/webinfra/webinfra/seo/redirects"
)

// Tags of SPEC §1.
const (
	tagScraping     = "Scraping"
	tagJobs         = "Jobs"
	tagAutomation   = "Automation"
	tagAccount      = "Account"
	tagExtraction   = "Extraction"
	tagAEO          = "AEO"
	tagSEO          = "SEO"
	tagIntelligence = "Intelligence"
	tagConversion   = "Conversion"
	tagCaptcha      = "Captcha"
	tagOther        = "Other"
)

// Prices of SPEC §8: one credit by default, three for the multi-probe
// audits, one per item for bulk calls, five for the automation runner.
var (
	free     = billing.Price{}
	standard = billing.Price{Credits: 1}
	premium  = billing.Price{Credits: 3}
	perItem  = billing.Price{Credits: 1, PerItem: true}
	heavy    = billing.Price{Credits: 5}
)

// jobIDPath names a job.
type jobIDPath struct {
	JobID string `path:"job_id" maxLength:"64"`
}

// orgIDPath names an organization.
type orgIDPath struct {
	OrgID int64 `path:"org_id" minimum:"1"`
}

func post(id, path, tag, summary string, price billing.Price) Operation {
	return Operation{ID: id, Method: "POST", Path: path, Tag: tag, Summary: summary, Price: price}
}

func get(id, path, tag, summary string) Operation {
	return Operation{ID: id, Method: "GET", Path: path, Tag: tag, Summary: summary}
}

func method(m string, o Operation) Operation { o.Method = m; return o }

func public(o Operation) Operation { o.Public = true; return o }

func unlimited(o Operation) Operation { o.Unlimited = true; return o }

func carriesPage(o Operation) Operation { o.CarriesPage = true; return o }

func outbound(o Operation) Operation { o.Outbound = true; return o }

// tool offers a free operation as an MCP tool under name.
func tool(name string, o Operation) Operation { o.Tool = name; return o }

// operations is the catalog: every endpoint of SPEC §4, declared once.
func (s *Server) operations() []Operation {
	return []Operation{
		// Health and accounts.
		unlimited(public(paramOp(get("health", "/healthz", tagOther, "Liveness check (no key, no charge)"), s.health))),
		answer(409, "an account with this e-mail already exists",
			public(jsonOp(post("signup", "/v1/auth/signup", tagAccount, "Create an account: 1,000 free credits and a developer key", free), s.signup))),
		answer(401, "the e-mail or password is wrong", answer(429, "too many failed logins for this e-mail",
			public(jsonOp(post("login", "/v1/auth/login", tagAccount, "Log in: a dashboard session key", free), s.login)))),

		// Scraping and jobs.
		outbound(jsonOp(post("scrape", "/v1/scrape", tagScraping, "Fetch one URL: status, final URL, headers, HTML, markdown", standard), s.scrape)),
		jsonOp(post("scrape-batch", "/v1/scrape/batch", tagScraping, "Fetch several URLs (one credit per URL that succeeds)", perItem), s.batchScrapeSync),
		outbound(jsonOp(post("scrape-llm-ready", "/v1/scrape/llm-ready", tagScraping, "Fetch a URL and return its article in chunks for embedding, each with byte offsets into the page", standard), s.llmReady)),
		outbound(jsonOp(post("scrape-async", "/v1/scrape/async", tagJobs, "Scrape asynchronously: returns {status, job_id}; optional signed webhook", standard), s.scrapeAsync)),
		outbound(jsonOp(post("scrape-batch-async", "/v1/scrape/batch/async", tagJobs, "Batch scrape asynchronously (one credit per URL, refunded for URLs that fail)", perItem), s.batchScrapeAsync)),
		outbound(jsonOp(post("scrape-smart", "/v1/scrape/smart", tagScraping, "Smart scrape: the cascade picks the tier; main-content markdown and metadata in one call", standard), s.smartScrape)),
		tool("get_job", paramOp(get("job", "/v1/jobs/{job_id}", tagJobs, "Job status and result"), s.getJob)),
		outbound(jsonOp(post("crawl", "/v1/crawl", tagJobs, "Crawl a site as a job: one credit per page of max_pages, refunded for pages not crawled; webhook_url supported", perItem), s.crawlAsync)),

		// Automation.
		outbound(jsonOp(post("editor-run", "/v1/editor/runs", tagAutomation, "Run a headless UI test (navigate, click, type, press, wait_for, assert_text, assert_visible, screenshot) in a fresh isolated browser context, as a job: returns {status, job_id}", heavy), s.editorRun)),
		screenshotOp(get("editor-run-screenshot", "/v1/editor/runs/{job_id}/screenshots/{filename}", tagAutomation, "A PNG screenshot of one of the caller's runs (404 for anyone else's)"), s.editorScreenshot),

		// Account.
		paramOp(get("me", "/v1/me", tagAccount, "The caller's account, usage and webhook secret"), s.me),
		fullScope(paramOp(post("webhook-secret-rotate", "/v1/me/webhook-secret/rotate", tagAccount, "Replace the webhook secret", free), s.rotateWebhookSecret)),
		outbound(fullScope(jsonOp(post("webhook-test", "/v1/me/webhooks/test", tagAccount, "Send one signed test payload to a webhook URL", free), s.webhookTest))),
		paramOp(get("webhook-deliveries", "/v1/me/webhooks/deliveries", tagAccount, "Webhook deliveries; dead=true gives the dead-letter list"), s.listDeliveries),
		paramOp(get("webhook-delivery", "/v1/me/webhooks/deliveries/{delivery_id}", tagAccount, "One webhook delivery with its log of tries"), s.getDelivery),
		fullScope(paramOp(post("webhook-delivery-replay", "/v1/me/webhooks/deliveries/{delivery_id}/replay", tagAccount, "Re-send a delivery, re-signed, same event id", free), s.replayDelivery)),
		answer(403, "current_password does not match", fullScope(jsonOp(post("password-change", "/v1/me/password", tagAccount, "Change the password; other browser sessions end", free), s.changePassword))),
		answer(403, "the password or the confirmation e-mail does not match", answer(409, "the caller owns a team organization that still has other members",
			fullScope(jsonOp(post("account-delete", "/v1/me/delete", tagAccount, "Erase the account permanently: keys, usage log, ledger, jobs, deliveries, forwarders, the orgs it owns alone", free), s.deleteAccount)))),
		fullScope(exportOp(get("account-export", "/v1/me/export", tagAccount, "Download the account as one JSON document: profile, ledger, usage (capped), key metadata, forwarders (masked), org memberships"), s.exportAccount)),
		paramOp(get("jobs", "/v1/me/jobs", tagJobs, "The caller's job history"), s.listJobs),
		paramOp(get("credits", "/v1/me/credits", tagAccount, "Credit balance and ledger"), s.credits),
		usageOp(get("usage", "/v1/me/usage", tagAccount, "The request log, as JSON or streamed CSV"), s.usageLog),
		paramOp(get("usage-summary", "/v1/me/usage/summary", tagAccount, "Daily usage buckets for a chart"), s.usageSummary),
		paramOp(get("request", "/v1/me/requests/{request_id}", tagAccount, "The billing record of one request id"), s.requestRecord),
		unlimited(jsonOp(post("cost-estimate", "/v1/me/cost-estimate", tagAccount, "The cost of the next call to an endpoint (nothing runs or is charged)", free), s.costEstimate)),
		paramOp(get("forwarders", "/v1/me/forwarders", tagAccount, "Telemetry forwarders (credentials masked)"), s.listForwarders),
		answer(409, "the account has the most forwarders allowed",
			outbound(fullScope(jsonOp(post("forwarder-create", "/v1/me/forwarders", tagAccount, "Add an OTLP/HTTP destination: a span per call of this account goes there from now on", free), s.createForwarder)))),
		fullScope(paramOp(method("DELETE", get("forwarder-delete", "/v1/me/forwarders/{forwarder_id}", tagAccount, "Remove a forwarder: no new span goes there; spans already buffered still flush")), s.deleteForwarder)),
		answer(429, "the account's forwarder tests of the hour are spent", outbound(fullScope(paramOp(post("forwarder-test", "/v1/me/forwarders/{forwarder_id}/test", tagAccount, "Send one test span now and record whether the destination accepted it", free), s.testForwarder)))),
		paramOp(get("keys", "/v1/keys", tagAccount, "List keys (prefixes only)"), s.listKeys),
		answer(403, "the caller is not a member of org_id", fullScope(jsonOp(post("key-create", "/v1/keys", tagAccount, "Mint a developer key (shown once)", free), s.createKey))),
		fullScope(paramOp(method("PATCH", get("key-update", "/v1/keys/{key_id}", tagAccount, "Change a key's label, project tag or daily cap")), s.updateKey)),
		fullScope(paramOp(method("DELETE", get("key-revoke", "/v1/keys/{key_id}", tagAccount, "Revoke a key")), s.revokeKey)),
		answer(409, "the key is revoked", fullScope(paramOp(post("key-rotate", "/v1/keys/{key_id}/rotate", tagAccount, "Replace a key, inheriting its settings, and revoke the old one", free), s.rotateKey))),
		answer(409, "the caller already owns the most organizations allowed",
			fullScope(jsonOp(post("org-create", "/v1/orgs", tagAccount, "Create a team organization (the caller owns it)", free), s.createOrg))),
		paramOp(get("orgs", "/v1/orgs", tagAccount, "The caller's team organizations, with the caller's role"), s.listOrgs),
		paramOp(get("org", "/v1/orgs/{org_id}", tagAccount, "An organization of the caller's: members, roles and credit balance"), s.getOrg),
		answer(403, "only the owner and admins add members", answer(409, "already a member, or the organization is full",
			fullScope(paramOp(post("org-member-add", "/v1/orgs/{org_id}/members", tagAccount, "Add an existing account as admin or member", free), s.addOrgMember)))),
		answer(403, "only the owner changes roles", answer(409, "the owner's role changes only by transfer",
			fullScope(paramOp(method("PATCH", get("org-member-role", "/v1/orgs/{org_id}/members/{account_id}", tagAccount, "Change a member's role (admin or member)")), s.setOrgRole)))),
		answer(403, "an admin removes members only; a member removes only themself", answer(409, "the owner cannot leave; transfer first",
			fullScope(paramOp(method("DELETE", get("org-member-remove", "/v1/orgs/{org_id}/members/{account_id}", tagAccount, "Remove a member, or leave (your own account id); that member's org keys are revoked")), s.removeOrgMember)))),
		answer(403, "only the owner transfers",
			fullScope(paramOp(post("org-transfer", "/v1/orgs/{org_id}/transfer", tagAccount, "Transfer ownership to another member; the old owner becomes an admin", free), s.transferOrg))),
		answer(402, "the caller's balance, less credits held by calls in flight, is short",
			fullScope(paramOp(post("org-credits-add", "/v1/orgs/{org_id}/credits", tagAccount, "Move credits from the caller's balance to the organization's, which its keys spend", free), s.fundOrg))),
		answer(403, "only the owner and admins see the ledger",
			paramOp(get("org-credits", "/v1/orgs/{org_id}/credits", tagAccount, "The organization's balance and ledger"), s.orgCredits)),
		answer(403, "only the owner and admins see the log",
			usageOp(get("org-usage", "/v1/orgs/{org_id}/usage", tagAccount, "The organization's request log (its keys' calls), as JSON or streamed CSV"), s.orgUsage)),

		// Extraction.
		outbound(carriesPage(jsonOp(post("extract-clean", "/v1/extract/clean", tagExtraction, "The article: text, markdown, title, byline, dates, language (html, or a url fetched)", standard), s.extractClean))),
		outbound(carriesPage(jsonOp(post("extract-structured", "/v1/extract/structured", tagExtraction, "Structured data: JSON-LD, Microdata, RDFa Lite, OpenGraph, Twitter cards, meta tags, feeds and links, each source apart", standard), s.extractStructured))),
		carriesPage(jsonOp(post("extract-contacts", "/v1/extract/contacts", tagExtraction, "E-mails, phone numbers (E.164) and social profiles from supplied text or HTML (nothing fetched)", standard), s.extractContacts)),
		carriesPage(jsonOp(post("extract-tables", "/v1/extract/tables", tagExtraction, "Every table of an HTML document as JSON: headers, rows, spans expanded (nothing fetched)", standard), s.extractTables)),

		// AEO audits.
		outbound(carriesPage(jsonOp(post("aeo-freshness-signal", "/v1/aeo/freshness-signal", tagAEO, "0-100 freshness score from JSON-LD dateModified, article:modified_time, Last-Modified, visible Updated text and the copyright year; the most recent dated signal and inconsistencies", standard), htmlAudit[FreshnessSignalRequest](s, s.aeoFreshness)))),
		outbound(carriesPage(jsonOp(post("aeo-snippet-format-detect", "/v1/aeo/snippet-format-detect", tagAEO, "Classify the page's answer blocks as paragraph, list, table or definition: counts, examples and the best-fit format", standard), pageAudit[SnippetFormatDetectRequest](s, s.aeoSnippetFormat)))),
		outbound(carriesPage(jsonOp(post("aeo-heading-hierarchy-score", "/v1/aeo/heading-hierarchy-score", tagAEO, "H1-H6 audit: the outline, missing or several H1, skipped levels, empty, long and duplicate headings, question-style headings; a 0-100 score", standard), pageAudit[HeadingHierarchyRequest](s, s.aeoHeadingHierarchy)))),
		outbound(jsonOp(post("aeo-ai-bot-allowlist", "/v1/aeo/ai-bot-allowlist", tagAEO, "Which of 14 named AI crawlers the site's robots.txt allows for a page, each with the deciding rule", standard), s.aeoAIBotAllowlist)),
		outbound(jsonOp(post("aeo-llms-txt-audit", "/v1/aeo/llms-txt-audit", tagAEO, "Audit a site's /llms.txt: structure per the llms.txt proposal, section coverage, link rot on up to 50 links; a 0-100 score", standard), networkAudit(s, llmstxtInput, llmstxt.Audit))),
		outbound(carriesPage(jsonOp(post("aeo-schema-coverage", "/v1/aeo/schema-coverage", tagAEO, "Coverage of 12 AEO-critical schema types (JSON-LD, Microdata, RDFa) and OpenGraph, weighed by page type; missing types with a recommendation each", standard), htmlAudit[AeoSchemaCoverageRequest](s, s.aeoSchemaCoverage)))),
		outbound(carriesPage(jsonOp(post("aeo-citation-readiness", "/v1/aeo/citation-readiness", tagAEO, "Mechanical citation-readiness score: numbers, named entities, authoritative outbound links, author byline, last-updated date, content length, quotes", standard), htmlAudit[AeoCitationReadinessRequest](s, s.aeoCitationReadiness)))),
		outbound(jsonOp(post("aeo-llm-fetch-simulator", "/v1/aeo/llm-fetch-simulator", tagAEO, "Fetch a page as 11 named AI crawlers and a browser: status, length, text preview each; blocking, cloaking and JS-only content detected", standard), networkAudit(s, fetchsimInput, fetchsim.Simulate))),
		outbound(jsonOp(post("aeo-page-audit", "/v1/aeo/page-audit", tagAEO, "Nine AEO probes of a page in parallel: one 0-100 score, five category scores, top issues, ranked recommendations", premium), s.aeoPageAudit)),
		outbound(jsonOp(post("aeo-competitor-diff", "/v1/aeo/competitor-diff", tagAEO, "Page audit of 2-5 URLs: ranked, and where the first page wins or loses by category", premium), s.aeoCompetitorDiff)),

		// SEO audits.
		outbound(jsonOp(post("seo-redirect-chain-map", "/v1/seo/redirect-chain-map", tagSEO, "Every redirect hop to the final answer; long chains, loops, HTTPS-to-HTTP downgrades, 302/307 where 301 fits, meta refresh", standard), networkAudit(s, redirectsInput, redirects.Map))),
		outbound(jsonOp(post("seo-broken-links-audit", "/v1/seo/broken-links-audit", tagSEO, "Probe every link of a page (HEAD, GET fallback, parallel, polite per host, capped): status and final URL each, broken ones flagged", standard), networkAudit(s, linkcheckInput, linkcheck.Audit))),
		outbound(carriesPage(jsonOp(post("seo-anchor-text-audit", "/v1/seo/anchor-text-audit", tagSEO, "Every link's anchor: generic, empty and title-only anchors, the same anchor 3 or more times to one URL, nofollow, internal and external counts", standard), pageAudit[AnchorTextAuditRequest](s, s.seoAnchorText)))),
		outbound(carriesPage(jsonOp(post("seo-schema-validate", "/v1/seo/schema-validate", tagSEO, "JSON-LD against the required and recommended fields of 20+ rich-result types: each problem with its JSON path, the eligible types", standard), htmlAudit[SchemaValidateRequest](s, s.seoSchemaValidate)))),
		outbound(carriesPage(jsonOp(post("seo-mixed-content", "/v1/seo/mixed-content", tagSEO, "http:// subresources on an HTTPS page (img, script, link, iframe, audio, video, source, embed, object, fonts, forms), blockable or upgradeable", standard), pageAudit[MixedContentRequest](s, s.seoMixedContent)))),
		outbound(carriesPage(jsonOp(post("seo-keyword-extract", "/v1/seo/keyword-extract", tagSEO, "Keywords and phrases by co-occurrence ranking (RAKE), from text, html or a fetched url; no LLM", standard), s.seoKeywordExtract))),
		outbound(carriesPage(jsonOp(post("seo-meta-audit", "/v1/seo/meta-audit", tagSEO, "Meta fields (title, description, canonical, robots, viewport, lang, charset, Open Graph, Twitter, hreflang, favicon) graded 0-100 and A-F with the reason", standard), pageAudit[SeoMetaAuditRequest](s, s.seoMetaAudit)))),
		outbound(carriesPage(jsonOp(post("seo-readability", "/v1/seo/readability", tagSEO, "Flesch, Flesch-Kincaid, Gunning fog, SMOG, ARI, Coleman-Liau and reading time, as textstat computes them, from text, html or a fetched url", standard), s.seoReadability))),
		outbound(carriesPage(jsonOp(post("seo-snippet-candidates", "/v1/seo/snippet-candidates", tagSEO, "Candidate featured-snippet paragraphs, lists and tables, each with its heading and a 0-100 score, best first", standard), pageAudit[SeoSnippetCandidatesRequest](s, s.seoSnippetCandidates)))),

		// Intelligence, enrichment, conversion, captcha.
		outbound(jsonOp(post("intel-cert-transparency-history", "/v1/intel/cert-transparency-history", tagIntelligence, "Every certificate logged for a domain (and its subdomains) in certificate transparency: deduplicated by issuer and serial, newest first, with issuer, validity and names", standard), bodyCall(ctHistoryInput, s.intel.CertificateHistory))),
		outbound(jsonOp(post("intel-subdomain-enumerate", "/v1/intel/subdomain-enumerate", tagIntelligence, "Subdomain names from the certificates logged for a domain: deduplicated, wildcards marked; not resolved, so stale names are possible", standard), bodyCall(ctSubdomainsInput, s.intel.Subdomains))),
		outbound(jsonOp(post("intel-ssl", "/v1/intel/ssl", tagIntelligence, "A TLS handshake with the domain inspected: chain, expiry, names, protocol, cipher, OCSP stapling, HSTS and the problems found", standard), bodyCall(tlsInput, s.intel.TLS))),
		outbound(jsonOp(post("intel-whois", "/v1/intel/whois", tagIntelligence, "A domain's registration: registrar, dates, status, name servers and the raw record, from RDAP where the registry has it, whois otherwise", standard), bodyCall(whoisInput, s.intel.Whois))),
		outbound(jsonOp(post("intel-page", "/v1/intel/page", tagIntelligence, "What a page says about itself and the software behind it: title, language, generator, technologies, server headers, link counts, structured-data types", standard), bodyCall(pageInput, s.intel.PageInfo))),
		outbound(jsonOp(post("intel-sitemap", "/v1/intel/sitemap", tagIntelligence, "A site's sitemaps read whole (indexes followed, gzip, size and URL caps): URL count, lastmod statistics and problems", standard), bodyCall(sitemapInput, s.intel.Sitemap))),
		outbound(jsonOp(post("intel-robots", "/v1/intel/robots", tagIntelligence, "robots.txt read as RFC 9309 and Google read it: groups, sitemaps, crawl-delays, warnings; whether a user agent may fetch a url, with the deciding rule", standard), s.intelRobots)),
		jsonOp(post("intel-geoip", "/v1/intel/geoip", tagIntelligence, "Country, region, city, coordinates, timezone and network of a public IP, from the server's MaxMind-format databases; no fetch", standard), bodyCall(geoIPInput, withoutContext(s.intel.GeoIP))),
		jsonOp(post("intel-asn", "/v1/intel/asn", tagIntelligence, "An autonomous system's operator and every prefix routed from it, from the server's ASN database", standard), bodyCall(asnInput, withoutContext(s.intel.ASN))),
		jsonOp(post("intel-geoip-bulk", "/v1/intel/geoip/bulk", tagIntelligence, "GeoIP of up to 100 IPs, each answered on its own (one credit per IP answered)", perItem), s.geoIPBulk),
		outbound(jsonOp(post("intel-headers", "/v1/intel/headers", tagIntelligence, "A page's response headers inspected: each security header graded with its reason, cookies' flags, information disclosure, an overall grade", standard), bodyCall(headersInput, s.intel.Headers))),
		outbound(jsonOp(post("dns-lookup", "/v1/dns/lookup", tagIntelligence, "One DNS question of any record type: answers with their TTLs, the response code and the DNSSEC AD flag, from a resolver chosen by name", standard), bodyCall(dnsLookupInput, s.intel.DNSLookup))),
		outbound(jsonOp(post("dns-intelligence", "/v1/dns/intelligence", tagIntelligence, "A domain's mail and delegation set-up from DNS: MX, SPF with its lookup count, DMARC, common DKIM selectors, CAA, name servers, dangling-CNAME hints", standard), bodyCall(dnsIntelInput, s.intel.DNSIntelligence))),
		outbound(jsonOp(post("verify-email", "/v1/verify/email", tagIntelligence, "An e-mail address checked: syntax, the domain's mail servers, disposable domains, role accounts (and the mail server itself when the operator allows the SMTP probe)", standard), bodyCall(emailInput, s.intel.VerifyEmail))),
		outbound(jsonOp(post("enrich-company", "/v1/enrich/company", tagIntelligence, "A company profile from one page: organization data, logo, social tags and profile links, contacts; best on a homepage or about page", standard), bodyCall(companyInput, s.intel.Company))),
		outbound(carriesPage(jsonOp(post("convert-ocr", "/v1/convert/ocr", tagConversion, "OCR of a PNG, JPEG, WebP, BMP or TIFF image (base64, or a url fetched): the text, and with boxes words and lines with bounding boxes and confidence", standard), bodyCall(ocrInput, s.ocr.OCR)))),
		carriesPage(jsonOp(post("captcha-solve", "/v1/captcha/solve", tagCaptcha, "Solve a captcha: an image (text), reCAPTCHA v2/v3, hCaptcha or Turnstile, through the operator's 2Captcha- or CapSolver-compatible provider or local OCR", standard), bodyCall(captchaSolveInput, s.captcha.Solve))), // an image of up to 1 MiB, base64
		outbound(jsonOp(post("captcha-auto", "/v1/captcha/auto", tagCaptcha, "Fetch a page, detect its captcha widget and sitekey (reCAPTCHA, hCaptcha, Turnstile) and solve it", standard), bodyCall(captchaAutoInput, s.captcha.Auto))),
	}
}
