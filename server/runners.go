package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"sync"

	"github.com/webinfra/webinfra/fetch"
	"github.com/webinfra/webinfra/fetch/crawl"
	"github.com/webinfra/webinfra/jobs"
	"github.com/webinfra/webinfra/store/secretbox"
)

// A batch fetches at most batchParallelism URLs at once, and at most
// perHostParallelism of them from one host (politeness).
const (
	batchParallelism   = 8
	perHostParallelism = 2
)

// JobRunners are the job kinds this server's asynchronous endpoints submit,
// each running the same code as its synchronous endpoint. Pass them to
// jobs.Options.Runners; secrets must be the server's Options.Secrets (it
// opens what the server sealed into job inputs).
func JobRunners(f *fetch.Fetcher, secrets *secretbox.Box) map[string]jobs.Runner {
	return map[string]jobs.Runner{
		kindScrape: decodeInput(func(ctx context.Context, job scrapeJob) (jobs.Outcome, error) {
			req := job.ScrapeRequest
			if len(job.Secrets) > 0 {
				plain, err := secrets.Open(job.Secrets)
				if err != nil {
					return jobs.Outcome{}, fmt.Errorf("the job's request headers cannot be read: %w", err)
				}
				if err := json.Unmarshal(plain, &req.Headers); err != nil {
					return jobs.Outcome{}, fmt.Errorf("the job's request headers: %w", err)
				}
			}
			req.CacheScope = job.Scope
			if req.CacheScope == "" {
				req.MaxAgeMS = 0 // a job queued without a scope reads no one's cache
			}
			res, err := f.Scrape(ctx, req)
			if err != nil {
				return jobs.Outcome{}, err
			}
			return jobs.Outcome{Result: res}, nil
		}),
		kindCrawl: decodeInput(func(ctx context.Context, req crawl.Request) (jobs.Outcome, error) {
			res, err := crawl.Crawl(ctx, f, req, nil)
			if err != nil {
				return jobs.Outcome{}, err
			}
			return jobs.Outcome{Result: res, Refund: int64(max(req.CreditItems()-res.Crawled, 0))}, nil
		}),
		kindEditorRun: editorRunner(f),
		kindBatchScrape: decodeInput(func(ctx context.Context, req BatchScrapeRequest) (jobs.Outcome, error) {
			res := batchScrape(ctx, f, req)
			out := jobs.Outcome{Result: res, Refund: int64(res.Failed)}
			if res.Succeeded == 0 {
				out.Failed, out.Error = true, fmt.Sprintf("all %d URLs failed", len(req.URLs))
			}
			return out, nil
		}),
	}
}

// decodeInput makes a Runner of run: the job's input is decoded into the
// request type its submission encoded.
func decodeInput[T any](run func(ctx context.Context, req T) (jobs.Outcome, error)) jobs.Runner {
	return func(ctx context.Context, input json.RawMessage) (jobs.Outcome, error) {
		var req T
		if err := json.Unmarshal(input, &req); err != nil {
			return jobs.Outcome{}, fmt.Errorf("job input: %w", err)
		}
		return run(ctx, req)
	}
}

// BatchItem is one URL's outcome in a batch.
type BatchItem struct {
	URL      string              `json:"url"`
	OK       bool                `json:"ok"`
	Markdown string              `json:"markdown,omitempty"`
	HTML     string              `json:"html,omitempty"`
	Page     *fetch.ScrapeResult `json:"page,omitempty" doc:"The full scrape result (format full)."`
	Error    string              `json:"error,omitempty"`
}

// BatchResult is the result of a batch scrape: one item per URL, in order.
type BatchResult struct {
	Results   []BatchItem `json:"results"`
	Succeeded int         `json:"succeeded"`
	Failed    int         `json:"failed"`
}

// batchScrape fetches every URL of the batch, in parallel but politely:
// one host never sees more than perHostParallelism requests at once.
func batchScrape(ctx context.Context, f *fetch.Fetcher, req BatchScrapeRequest) BatchResult {
	out := BatchResult{Results: make([]BatchItem, len(req.URLs))}
	sem := make(chan struct{}, batchParallelism)
	var mu sync.Mutex
	hosts := map[string]chan struct{}{}
	hostSlot := func(raw string) chan struct{} {
		host := raw
		if u, err := url.Parse(raw); err == nil {
			host = u.Host
		}
		mu.Lock()
		defer mu.Unlock()
		if hosts[host] == nil {
			hosts[host] = make(chan struct{}, perHostParallelism)
		}
		return hosts[host]
	}
	var wg sync.WaitGroup
	for i, u := range req.URLs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			slot := hostSlot(u)
			slot <- struct{}{}
			sem <- struct{}{}
			defer func() { <-sem; <-slot }()
			out.Results[i] = scrapeItem(ctx, f, u, req.Format, req.Timeout)
		}()
	}
	wg.Wait()
	for _, r := range out.Results {
		if r.OK {
			out.Succeeded++
		} else {
			out.Failed++
		}
	}
	return out
}

func scrapeItem(ctx context.Context, f *fetch.Fetcher, url, format string, timeoutMS int) BatchItem {
	res, err := f.Scrape(ctx, fetch.ScrapeRequest{URL: url, TimeoutMS: timeoutMS})
	if err != nil {
		return BatchItem{URL: url, Error: err.Error()}
	}
	item := BatchItem{URL: url, OK: true}
	switch format {
	case "html":
		item.HTML = res.HTML
	case "full":
		item.Page = res
	default:
		item.Markdown = res.Markdown
	}
	return item
}
