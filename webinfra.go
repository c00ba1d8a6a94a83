package webinfra

import (
	"context"

	"github.com/webinfra/webinfra/fetch"
	"github.com/webinfra/webinfra/fetch/crawl"
)

// Options configure a Client; nil means defaults.
type Options struct {
	// Fetch configures the fetch engine (SSRF guard, limits, timeouts).
	Fetch *fetch.Options
}

// Client is the facade. It is safe for concurrent use.
type Client struct {
	fetcher *fetch.Fetcher
}

// Request and result types of the facade's operations.
type (
	ScrapeRequest = fetch.ScrapeRequest
	ScrapeResult  = fetch.ScrapeResult
	FetchRequest  = fetch.Request
	FetchResponse = fetch.Response
	CrawlRequest  = crawl.Request
	CrawlResult   = crawl.Result
)

// New builds a Client.
func New(opts *Options) (*Client, error) {
	var fo *fetch.Options
	if opts != nil {
		fo = opts.Fetch
	}
	f, err := fetch.New(fo)
	if err != nil {
		return nil, err
	}
	return &Client{fetcher: f}, nil
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
