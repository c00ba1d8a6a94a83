package server

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/webinfra/webinfra/billing"
	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/fetch"
	"github.com/webinfra/webinfra/fetch/crawl"
	"github.com/webinfra/webinfra/jobs"
	"github.com/webinfra/webinfra/store"
)

// Job kinds, each the asynchronous form of a synchronous endpoint.
const (
	kindScrape      = "scrape"
	kindBatchScrape = "batch_scrape"
	kindCrawl       = "crawl"
)

// AsyncScrapeRequest is POST /v1/scrape/async: a scrape, plus where to
// deliver the result.
type AsyncScrapeRequest struct {
	fetch.ScrapeRequest
	WebhookURL string `json:"webhook_url,omitempty" maxLength:"2048" doc:"HTTPS URL to POST {job_id, result} to, signed with your webhook_secret. Without it, poll GET /v1/jobs/{job_id}."`
}

// BatchScrapeRequest is the body of batch scrapes.
type BatchScrapeRequest struct {
	URLs    []string `json:"urls" minItems:"1" doc:"The pages to fetch; at most the server's batch limit (100 by default)."`
	Format  string   `json:"format,omitempty" enum:"markdown,html,full" default:"markdown" doc:"What each result carries: markdown, html, or the full scrape result."`
	Timeout int      `json:"timeout_ms,omitempty" minimum:"0" maximum:"120000" doc:"Per-URL timeout in milliseconds; 0 = the server default."`
}

// CreditItems prices a batch per URL.
func (r *BatchScrapeRequest) CreditItems() int { return len(r.URLs) }

// AsyncBatchScrapeRequest is POST /v1/scrape/batch/async.
type AsyncBatchScrapeRequest struct {
	BatchScrapeRequest
	WebhookURL string `json:"webhook_url,omitempty" maxLength:"2048" doc:"HTTPS URL to POST {job_id, result} to, signed with your webhook_secret."`
}

// AsyncCrawlRequest is POST /v1/crawl: a crawl, run as a job.
type AsyncCrawlRequest struct {
	crawl.Request
	WebhookURL string `json:"webhook_url,omitempty" maxLength:"2048" doc:"HTTPS URL to POST {job_id, result} to, signed with your webhook_secret."`
}

// JobAccepted answers an asynchronous submission.
type JobAccepted struct {
	Status store.JobStatus `json:"status" example:"queued"`
	JobID  string          `json:"job_id" example:"job_4f1c2a9b7e3d5c6a8b9e0f1a"`
}

// scrapeJob is the stored input of an asynchronous scrape: the request
// without its headers, the headers sealed (they may carry the target
// site's Authorization or Cookie), and the cache scope of the account that
// submitted it (ScrapeRequest's own field is not serialized). The queue
// drops the sealed headers when the job ends (jobs.SecretsField).
type scrapeJob struct {
	fetch.ScrapeRequest
	Scope   string `json:"cache_scope,omitempty"`
	Secrets []byte `json:"secrets,omitempty"` // sealed JSON of the headers
}

func (s *Server) scrapeAsync(ctx context.Context, in *AsyncScrapeRequest) (*JobAccepted, error) {
	job := scrapeJob{ScrapeRequest: in.ScrapeRequest, Scope: cacheScope(ctx)}
	if len(job.Headers) > 0 {
		plain, _ := json.Marshal(job.Headers)
		job.Secrets, job.Headers = s.opts.Secrets.Seal(plain), nil
	}
	return s.submit(ctx, kindScrape, job, in.WebhookURL)
}

func (s *Server) batchScrapeAsync(ctx context.Context, in *AsyncBatchScrapeRequest) (*JobAccepted, error) {
	if err := s.checkBatch(&in.BatchScrapeRequest); err != nil {
		return nil, err
	}
	return s.submit(ctx, kindBatchScrape, in.BatchScrapeRequest, in.WebhookURL)
}

// crawlAsync charges max_pages up front; the pages not crawled are
// refunded when the job finishes.
func (s *Server) crawlAsync(ctx context.Context, in *AsyncCrawlRequest) (*JobAccepted, error) {
	plan := callFrom(ctx).principal.plan
	if err := s.checkCrawl(&in.Request, plan); err != nil {
		return nil, err
	}
	if in.Request.RatePerHost == 0 {
		// The crawl's own default (10/s) may be above the plan's cap; the
		// job's stored input carries the rate the runner will use.
		in.Request.RatePerHost = min(crawl.DefaultRatePerHost, plan.CrawlRatePerHostCap())
	}
	if err := in.Request.Validate(); err != nil {
		return nil, bodyField(err)
	}
	return s.submit(ctx, kindCrawl, in.Request, in.WebhookURL)
}

// checkCrawl applies this server's bounds, tighter than the crawl
// package's own: the include and exclude patterns together and the bytes
// of each (config limits crawl_max_patterns, crawl_max_pattern_bytes:
// compiling 50 patterns of 1,000 bytes once cost 2.5 s and 470 MB), and
// the plan's cap on rate_per_host (max_crawl_rate_per_host).
func (s *Server) checkCrawl(r *crawl.Request, plan billing.Plan) error {
	lim := s.opts.Billing.Limits
	if n := len(r.Include) + len(r.Exclude); n > lim.CrawlMaxPatterns {
		return errs.Invalid("body.include", "include and exclude hold %d patterns together; this server allows %d (limits.crawl_max_patterns)", n, lim.CrawlMaxPatterns)
	}
	for _, list := range []struct {
		field    string
		patterns []string
	}{{"include", r.Include}, {"exclude", r.Exclude}} {
		for i, p := range list.patterns {
			if len(p) > lim.CrawlMaxPatternBytes {
				return errs.Invalid(fmt.Sprintf("body.%s[%d]", list.field, i), "is %d bytes; this server allows %d per pattern (limits.crawl_max_pattern_bytes)", len(p), lim.CrawlMaxPatternBytes)
			}
		}
	}
	if limit := plan.CrawlRatePerHostCap(); r.RatePerHost > limit {
		return errs.Invalid("body.rate_per_host", "is %g requests a second; the %s plan allows at most %g (max_crawl_rate_per_host)", r.RatePerHost, plan.Name, limit)
	}
	return nil
}

func (s *Server) checkBatch(b *BatchScrapeRequest) error {
	if len(b.URLs) > s.opts.MaxBatchURLs {
		return errs.Invalid("body.urls", "holds %d URLs; the limit is %d per batch", len(b.URLs), s.opts.MaxBatchURLs)
	}
	if b.Format == "" {
		b.Format = "markdown"
	}
	return nil
}

// submit hands a job to the queue. The call's sticker cost is what the
// job is charged; the job is stored now and starts only once the pipeline
// has settled that charge, so it never runs (nor refunds) uncharged.
func (s *Server) submit(ctx context.Context, kind string, input any, webhookURL string) (*JobAccepted, error) {
	q, err := s.queue()
	if err != nil {
		return nil, err
	}
	c := callFrom(ctx)
	raw, err := json.Marshal(input)
	if err != nil {
		return nil, errs.Wrap(errs.KindInternal, err, "encode job input")
	}
	var payer int64
	if c.principal.payer != c.principal.account.ID {
		payer = c.principal.payer
	}
	job, err := q.Create(ctx, jobs.Submission{AccountID: c.principal.account.ID, KeyID: c.principal.key.ID, PayerID: payer,
		Kind: kind, Input: raw, WebhookURL: webhookURL, Credits: max(c.cost, 0)})
	if err != nil {
		return nil, bodyField(err)
	}
	c.onAccepted = func(ctx context.Context, ok bool) error {
		if !ok {
			q.Abandon(ctx, job.ID)
			return nil
		}
		return q.Enqueue(ctx, job)
	}
	return &JobAccepted{Status: job.Status, JobID: job.ID}, nil
}

// JobView is a job as GET /v1/jobs/{job_id} shows it. Result has the shape
// of the matching synchronous endpoint; a job with a webhook also carries a
// _webhook field there with its delivery's state (delivered, pending, or
// dead with the last answer).
type JobView struct {
	JobID      string          `json:"job_id"`
	Kind       string          `json:"kind"`
	Status     store.JobStatus `json:"status" enum:"queued,running,completed,failed"`
	Result     any             `json:"result"`
	Error      string          `json:"error,omitempty"`
	Attempts   int             `json:"attempts"`
	WebhookURL string          `json:"webhook_url,omitempty"`
	Credits    int64           `json:"credits_charged" doc:"Charged at submission, less refunds."`
	CreatedAt  time.Time       `json:"created_at"`
	StartedAt  *time.Time      `json:"started_at"`
	FinishedAt *time.Time      `json:"finished_at"`
}

// jobView renders a job; its _webhook comes from the job's delivery.
func (s *Server) jobView(ctx context.Context, j store.Job) (JobView, error) {
	v := JobView{JobID: j.ID, Kind: j.Kind, Status: j.Status, Error: j.Error, Attempts: j.Attempts,
		WebhookURL: j.WebhookURL, Credits: j.Credits - j.Refunded, CreatedAt: j.CreatedAt.UTC(),
		StartedAt: optionalTime(j.StartedAt), FinishedAt: optionalTime(j.FinishedAt)}
	if j.Result != nil {
		v.Result = json.RawMessage(j.Result)
	}
	if j.DeliveryID == 0 {
		return v, nil
	}
	d, err := s.store.Delivery(ctx, j.AccountID, j.DeliveryID)
	if err != nil {
		return v, err
	}
	result := map[string]any{}
	if j.Result != nil && json.Unmarshal(j.Result, &result) != nil {
		result = map[string]any{"value": json.RawMessage(j.Result)} // not an object: keep it beside _webhook
	}
	result["_webhook"] = jobs.OutcomeOf(d)
	v.Result = result
	return v, nil
}

func optionalTime(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	t = t.UTC()
	return &t
}

func (s *Server) getJob(ctx context.Context, in *jobIDPath) (*bodyOutput[JobView], error) {
	p := callFrom(ctx).principal
	j, err := s.store.JobByID(ctx, p.account.ID, in.JobID)
	if errs.Is(err, errs.KindNotFound) {
		return nil, errs.NotFound("no job %q in this account", in.JobID)
	}
	if err != nil {
		return nil, err
	}
	v, err := s.jobView(ctx, j)
	if err != nil {
		return nil, err
	}
	return reply(&v), nil
}

// JobList is a page of the caller's jobs, newest first.
type JobList struct {
	Jobs   []JobView `json:"jobs"`
	Limit  int       `json:"limit"`
	Offset int       `json:"offset"`
}

func (s *Server) listJobs(ctx context.Context, in *page) (*bodyOutput[JobList], error) {
	p := callFrom(ctx).principal
	list, err := s.store.ListJobs(ctx, p.account.ID, in.Limit, in.Offset)
	if err != nil {
		return nil, err
	}
	out := JobList{Jobs: make([]JobView, 0, len(list)), Limit: in.Limit, Offset: in.Offset}
	for _, j := range list {
		v, err := s.jobView(ctx, j)
		if err != nil {
			return nil, err
		}
		out.Jobs = append(out.Jobs, v)
	}
	return reply(&out), nil
}
