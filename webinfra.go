package webinfra

import (
	"context"

	"github.com/webinfra/webinfra/extract/contacts"
	"github.com/webinfra/webinfra/extract/content"
	"github.com/webinfra/webinfra/extract/structured"
	"github.com/webinfra/webinfra/extract/tables"
	"github.com/webinfra/webinfra/fetch"
	"github.com/webinfra/webinfra/fetch/crawl"
	"github.com/webinfra/webinfra/intel"
)

// Options configure a Client; nil means defaults.
type Options struct {
	// Fetch configures the fetch engine (SSRF guard, limits, timeouts).
	Fetch *fetch.Options
	// Intel names the intelligence sources (DNS resolvers, RDAP and
	// whois, the certificate transparency log, GeoIP databases); nil:
	// defaults, without GeoIP.
	Intel *IntelConfig
}

// Client is the facade. It is safe for concurrent use.
type Client struct {
	fetcher *fetch.Fetcher
	// The intelligence capabilities (intel.go): DNSLookup,
	// DNSIntelligence, VerifyEmail, Whois, CertificateHistory,
	// Subdomains, TLS, Headers, Sitemap, GeoIP, GeoIPBulk, ASN, PageInfo,
	// Company; Close releases their GeoIP databases.
	*intel.Client
}

// Request and result types of the facade's operations.
type (
	ScrapeRequest = fetch.ScrapeRequest
	ScrapeResult  = fetch.ScrapeResult
	FetchRequest  = fetch.Request
	FetchResponse = fetch.Response
	CrawlRequest  = crawl.Request
	CrawlResult   = crawl.Result

	LlmReadyRequest  = fetch.LlmReadyRequest
	LlmReadyResult   = fetch.LlmReadyResult
	ArticleInput     = content.Input
	Article          = content.Result
	StructuredInput  = structured.Input
	StructuredResult = structured.Result
	ContactsInput    = contacts.Input
	ContactsResult   = contacts.Result
	TablesInput      = tables.Input
	TablesResult     = tables.Result
)

// New builds a Client.
func New(opts *Options) (*Client, error) {
	var fo *fetch.Options
	var io *intel.Config
	if opts != nil {
		fo, io = opts.Fetch, opts.Intel
	}
	f, err := fetch.New(fo)
	if err != nil {
		return nil, err
	}
	sources, err := intel.New(f, io)
	if err != nil {
		return nil, err
	}
	return &Client{fetcher: f, Client: sources}, nil
}

// Scrape fetches one page and returns it with its markdown.
func (c *Client) Scrape(ctx context.Context, req ScrapeRequest) (*ScrapeResult, error) {
	return c.fetcher.Scrape(ctx, req)
}

// Fetch gets one URL and returns the raw response (UTF-8 body, redirects,
// headers), whatever its HTTP status.
func (c *Client) Fetch(ctx context.Context, req FetchRequest) (*FetchResponse, error) {
	return c.fetcher.Fetch(ctx, req)
}

// Crawl crawls from req.Seeds (same-site, robots.txt obeyed by default)
// and returns every page it fetched.
func (c *Client) Crawl(ctx context.Context, req CrawlRequest) (*CrawlResult, error) {
	return crawl.Crawl(ctx, c.fetcher, req, nil)
}

// LlmReady fetches a page and returns its article in chunks for
// embedding, each with byte offsets into the page as fetched.
func (c *Client) LlmReady(ctx context.Context, req LlmReadyRequest) (*LlmReadyResult, error) {
	return c.fetcher.LlmReady(ctx, req)
}

// The extraction methods below are pure functions over HTML you supply
// (see the extract packages); fetch the page with Scrape (format
// raw_html) first when you have only its URL.

// Article returns the main content of a page: text, markdown, title,
// byline, dates and language.
func (c *Client) Article(ctx context.Context, in ArticleInput) (*Article, error) {
	return content.Extract(ctx, in, nil)
}

// Structured returns a page's structured data: JSON-LD, Microdata, RDFa
// Lite, OpenGraph, Twitter cards, meta tags and links.
func (c *Client) Structured(ctx context.Context, in StructuredInput) (*StructuredResult, error) {
	return structured.Extract(ctx, in, nil)
}

// Contacts returns the e-mails, phone numbers and social profiles in text
// or HTML.
func (c *Client) Contacts(ctx context.Context, in ContactsInput) (*ContactsResult, error) {
	return contacts.Extract(ctx, in, nil)
}

// Tables returns every table of an HTML document, spans expanded.
func (c *Client) Tables(ctx context.Context, in TablesInput) (*TablesResult, error) {
	return tables.Extract(ctx, in, nil)
}
