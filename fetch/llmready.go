package fetch

import (
	"context"
	"crypto/sha256"
	"encoding/hex"

	"github.com/webinfra/webinfra/extract/chunk"
	"github.com/webinfra/webinfra/extract/content"
	"github.com/webinfra/webinfra/extract/llmready"
)

// LlmReadyRequest asks for a page's article in chunks for embedding. The
// same struct is the JSON body of POST /v1/scrape/llm-ready.
type LlmReadyRequest struct {
	URL                 string `json:"url" minLength:"1" maxLength:"8192" example:"https://example.com/article" doc:"The page to fetch (through the cascade, as /v1/scrape)."`
	ChunkSize           int    `json:"chunk_size,omitempty" doc:"Most tokens in a chunk (estimated for OpenAI's cl100k_base): 0 (the default, 512) or 32 to 8192."`
	ChunkOverlap        int    `json:"chunk_overlap,omitempty" doc:"Tokens each chunk repeats from the end of the previous one: 0 (the default, 64 or a quarter of chunk_size, whichever is less), -1 (none), or 1 to half of chunk_size."`
	Mode                string `json:"mode,omitempty" enum:"accurate,fast" doc:"Article extraction: accurate (default) or fast."`
	Tier                Tier   `json:"tier,omitempty" enum:"direct,render,residential" doc:"Pin one fetch tier; omitted, the cascade chooses."`
	TimeoutMS           int    `json:"timeout_ms,omitempty" minimum:"0" maximum:"120000" doc:"Fetch timeout in milliseconds; 0 = the server default."`
	WaitFor             string `json:"wait_for,omitempty" maxLength:"1024" doc:"A CSS selector the page must contain (see /v1/scrape)."`
	UseResidentialProxy bool   `json:"use_residential_proxy,omitempty" doc:"Let the cascade escalate to the residential proxy tier (costs a surcharge)."`
	RespectRobots       bool   `json:"respect_robots,omitempty" doc:"Refuse a URL the site's robots.txt disallows."`
	MaxAgeMS            int64  `json:"max_age_ms,omitempty" minimum:"0" doc:"Accept a cached copy of the page up to this old; 0 = always fetch."`
	IncludeSource       bool   `json:"include_source,omitempty" doc:"Also return the page's bytes that the offsets index, as source."`

	CacheScope string `json:"-"` // partitions the scrape cache (see ScrapeRequest.CacheScope)
	MaxChunks  int    `json:"-"` // caps the chunks of the answer (chunk.Options.MaxChunks)
}

// TargetURL names the page for the usage log.
func (r *LlmReadyRequest) TargetURL() string { return r.URL }

// UsesResidentialProxy prices the surcharge, as for the scrape behind it.
func (r *LlmReadyRequest) UsesResidentialProxy() bool {
	sr := r.scrapeRequest()
	return sr.UsesResidentialProxy()
}

// scrapeRequest is the scrape behind an llm-ready request: the page as
// fetched (raw_html).
func (r *LlmReadyRequest) scrapeRequest() ScrapeRequest {
	return ScrapeRequest{URL: r.URL, Formats: []string{FormatRawHTML}, Tier: r.Tier, TimeoutMS: r.TimeoutMS,
		WaitFor: r.WaitFor, UseResidentialProxy: r.UseResidentialProxy, RespectRobots: r.RespectRobots, MaxAgeMS: r.MaxAgeMS,
		CacheScope: r.CacheScope}
}

// LlmReadyResult is a page's article in chunks (see extract/llmready),
// with how the page was fetched. Its shape is the same whichever tier
// fetched the page.
type LlmReadyResult struct {
	URL          string `json:"url"`
	FinalURL     string `json:"final_url"`
	StatusCode   int    `json:"status_code"`
	TierUsed     Tier   `json:"tier_used" enum:"direct,render,residential"`
	CascadePath  []Tier `json:"cascade_path"`
	ProxyUsed    string `json:"proxy_used" enum:"none,residential" doc:"A diagnostic label: residential when the page came through the residential proxy tier, else none."`
	SourceBytes  int    `json:"source_bytes" doc:"Length of the page's bytes the offsets index: the body as fetched, converted to UTF-8."`
	SourceSHA256 string `json:"source_sha256" doc:"SHA-256 (hex) of those bytes."`
	Source       string `json:"source,omitempty" doc:"Those bytes, with include_source."`
	llmready.Result
}

// LlmReady fetches req.URL as Scrape does (raw_html), extracts its
// article and splits it into chunks whose byte offsets index the page's
// body as fetched, converted to UTF-8 (returned as source with
// include_source). Errors are Scrape's and extract/llmready's, with input
// fields named as in the JSON body.
func (f *Fetcher) LlmReady(ctx context.Context, in LlmReadyRequest) (*LlmReadyResult, error) {
	opts := chunk.Options{ChunkSize: in.ChunkSize, ChunkOverlap: in.ChunkOverlap, MaxChunks: in.MaxChunks}
	if err := opts.Validate(); err != nil {
		return nil, err // before anything is fetched
	}
	res, err := f.Scrape(ctx, in.scrapeRequest())
	if err != nil {
		return nil, err
	}
	page := []byte(res.RawHTML)
	release, err := admitPage(ctx, len(page))
	if err != nil {
		return nil, err
	}
	defer release()
	built, err := llmready.Build(ctx, page, res.FinalURL, &llmready.Options{Mode: content.Mode(in.Mode), Chunk: opts})
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(page)
	out := &LlmReadyResult{URL: res.URL, FinalURL: res.FinalURL, StatusCode: res.StatusCode, TierUsed: res.TierUsed,
		CascadePath: res.CascadePath, ProxyUsed: "none", SourceBytes: len(page), SourceSHA256: hex.EncodeToString(sum[:]), Result: *built}
	if res.TierUsed == TierResidential {
		out.ProxyUsed = "residential"
	}
	if in.IncludeSource {
		out.Source = res.RawHTML
	}
	return out, nil
}
