package server_test

import (
	"strings"
	"testing"
)

func TestOpenAPIDocument(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	var doc struct {
		OpenAPI string `json:"openapi"`
		Info    struct {
			Version string `json:"version"`
		} `json:"info"`
		Paths map[string]map[string]struct {
			Tags        []string `json:"tags"`
			CreditsCost *int64   `json:"x-credits-cost"`
		} `json:"paths"`
	}
	e.want(e.call("GET", "/openapi.json", "", nil), 200).json(t, &doc)
	if !strings.HasPrefix(doc.OpenAPI, "3.1") || doc.Info.Version != "1.0.0" {
		t.Fatalf("openapi %q version %q", doc.OpenAPI, doc.Info.Version)
	}
	// Every path of SPEC §4.
	for _, p := range strings.Fields(`/v1/scrape /v1/scrape/batch /v1/scrape/llm-ready /v1/scrape/async
		/v1/scrape/batch/async /v1/scrape/smart /v1/jobs/{job_id} /v1/crawl /v1/editor/runs
		/v1/editor/runs/{job_id}/screenshots/{filename} /v1/me /v1/me/webhook-secret/rotate /v1/me/webhooks/test
		/v1/me/password /v1/me/delete /v1/me/export /v1/me/jobs /v1/me/credits /v1/me/usage /v1/me/usage/summary
		/v1/me/requests/{request_id} /v1/me/cost-estimate /v1/me/forwarders /v1/me/forwarders/{forwarder_id}
		/v1/me/forwarders/{forwarder_id}/test /v1/keys /v1/keys/{key_id} /v1/keys/{key_id}/rotate
		/v1/extract/clean /v1/extract/structured /v1/extract/contacts /v1/extract/tables
		/v1/aeo/freshness-signal /v1/aeo/snippet-format-detect /v1/aeo/heading-hierarchy-score
		/v1/aeo/ai-bot-allowlist /v1/aeo/llms-txt-audit /v1/aeo/schema-coverage /v1/aeo/citation-readiness
		/v1/aeo/llm-fetch-simulator /v1/aeo/page-audit /v1/aeo/competitor-diff /v1/seo/redirect-chain-map
		/v1/seo/broken-links-audit /v1/seo/anchor-text-audit /v1/seo/schema-validate /v1/seo/mixed-content
		/v1/seo/keyword-extract /v1/seo/meta-audit /v1/seo/readability /v1/seo/snippet-candidates
		/v1/intel/cert-transparency-history /v1/intel/subdomain-enumerate /v1/intel/ssl /v1/intel/whois
		/v1/intel/page /v1/intel/sitemap /v1/intel/robots /v1/intel/geoip /v1/intel/asn /v1/intel/geoip/bulk
		/v1/intel/headers /v1/dns/lookup /v1/dns/intelligence /v1/verify/email /v1/enrich/company
		/v1/convert/ocr /v1/captcha/solve /v1/captcha/auto /v1/auth/signup /v1/auth/login`) {
		ops, ok := doc.Paths[p]
		if !ok {
			t.Errorf("path %s missing from the OpenAPI document", p)
		}
		for m, op := range ops {
			if op.CreditsCost == nil || len(op.Tags) != 1 {
				t.Errorf("%s %s: x-credits-cost %v tags %v", m, p, op.CreditsCost, op.Tags)
			}
		}
	}
	if c := *doc.Paths["/v1/aeo/page-audit"]["post"].CreditsCost; c != 3 {
		t.Errorf("page-audit x-credits-cost %d", c)
	}
	docs := e.want(e.call("GET", "/docs", "", nil), 200)
	if !strings.Contains(string(docs.body), "<html") {
		t.Fatal("/docs is not a page")
	}
}
