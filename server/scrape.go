package server

import (
	"context"
	"errors"
	"strconv"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/fetch"
)

func (s *Server) scrape(ctx context.Context, in *fetch.ScrapeRequest) (*fetch.ScrapeResult, error) {
	in.CacheScope = cacheScope(ctx)
	res, err := s.fetcher.Scrape(ctx, *in)
	if err != nil {
		return nil, bodyField(err)
	}
	reportFetch(ctx, res.TierUsed, res.CascadePath)
	return res, nil
}

// batchScrapeSync is POST /v1/scrape/batch: every URL fetched now, each
// with its result or error; one credit per URL that succeeded.
func (s *Server) batchScrapeSync(ctx context.Context, in *BatchScrapeRequest) (*BatchResult, error) {
	if err := s.checkBatch(in); err != nil {
		return nil, err
	}
	res := batchScrape(ctx, s.fetcher, *in)
	chargeUnits(ctx, int64(res.Succeeded))
	return &res, nil
}

// SmartScrapeRequest is POST /v1/scrape/smart: the cascade chooses the
// tier, and the answer is the main content as markdown with the metadata.
type SmartScrapeRequest struct {
	URL                 string `json:"url" minLength:"1" maxLength:"8192" example:"https://example.com/article"`
	TimeoutMS           int    `json:"timeout_ms,omitempty" minimum:"0" maximum:"120000"`
	UseResidentialProxy bool   `json:"use_residential_proxy,omitempty" doc:"Let the cascade escalate to the residential proxy tier (costs a surcharge)."`
}

// TargetURL names the page for the usage log.
func (r *SmartScrapeRequest) TargetURL() string { return r.URL }

// UsesResidentialProxy prices the surcharge.
func (r *SmartScrapeRequest) UsesResidentialProxy() bool { return r.UseResidentialProxy }

func (s *Server) smartScrape(ctx context.Context, in *SmartScrapeRequest) (*fetch.ScrapeResult, error) {
	return s.scrape(ctx, &fetch.ScrapeRequest{URL: in.URL, TimeoutMS: in.TimeoutMS, UseResidentialProxy: in.UseResidentialProxy,
		MainContentOnly: true, Formats: []string{fetch.FormatMarkdown, fetch.FormatMetadata, fetch.FormatLinks}})
}

// cacheScope is the scrape-cache partition of the calling account: a
// max_age_ms hit never comes from another account's fetch.
func cacheScope(ctx context.Context) string {
	return accountCacheScope(callFrom(ctx).principal.account.ID)
}

func accountCacheScope(accountID int64) string { return "account:" + strconv.FormatInt(accountID, 10) }

// bodyField locates a capability's invalid-input error in the request
// body, as the API reports fields ("url" becomes "body.url").
func bodyField(err error) error {
	var e *errs.Error
	if errors.As(err, &e) && e.Field != "" {
		located := *e
		located.Field = "body." + e.Field
		return &located
	}
	return err
}

// Health is the answer of GET /healthz.
type Health struct {
	Status      string `json:"status" enum:"ok,degraded" example:"ok" doc:"degraded: the server answers, but a shared service is down (see the other fields)."`
	RateLimiter string `json:"rate_limiter" example:"ok" doc:"ok, or why rate limits are enforced per process for now (Redis unreachable)."`
}

// healthChecker is a dependency that can tell whether it works (the Redis
// rate limiter).
type healthChecker interface{ Health() error }

// health answers 200 while the process serves, degraded or not: a
// limiter that lost Redis still limits, per process, by design.
func (s *Server) health(ctx context.Context, _ *struct{}) (*bodyOutput[Health], error) {
	h := &Health{Status: "ok", RateLimiter: "ok"}
	if hc, ok := s.opts.Limiter.(healthChecker); ok {
		if err := hc.Health(); err != nil {
			h.Status, h.RateLimiter = "degraded", err.Error()
		}
	}
	return reply(h), nil
}
