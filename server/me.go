package server

import (
	"context"
	"math"
	"strings"
	"time"

	"github.com/webinfra/webinfra/billing"
	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/store"
)

// MeUsage is the usage block of GET /v1/me.
type MeUsage struct {
	RequestsThisMonth int64   `json:"requests_this_month"`
	RequestsToday     int64   `json:"requests_today"`
	AvgResponseMS     float64 `json:"avg_response_ms" doc:"Milliseconds, rounded to two decimals."`
	SuccessRate       float64 `json:"success_rate" doc:"Percentage of this month's calls that succeeded, rounded to two decimals."`
}

// MeResponse is the caller's account.
type MeResponse struct {
	User          User    `json:"user"`
	Usage         MeUsage `json:"usage"`
	Credits       int64   `json:"credits" doc:"Current credit balance."`
	WebhookSecret string  `json:"webhook_secret" doc:"whsec_<hex>: verifies webhook signatures."`
}

func (s *Server) me(ctx context.Context, _ *struct{}) (*bodyOutput[MeResponse], error) {
	p := callFrom(ctx).principal
	stats, err := s.store.UsageStats(ctx, p.account.ID, s.now())
	if err != nil {
		return nil, err
	}
	bal, err := s.store.Balance(ctx, p.account.ID)
	if err != nil {
		return nil, err
	}
	return reply(&MeResponse{
		User: userOf(p.account, p.plan.MonthlyRequests),
		Usage: MeUsage{RequestsThisMonth: stats.RequestsThisMonth, RequestsToday: stats.RequestsToday,
			AvgResponseMS: round2(stats.AvgResponseMS), SuccessRate: round2(stats.SuccessRate)},
		Credits: bal, WebhookSecret: p.account.WebhookSecret,
	}), nil
}

// round2 rounds a figure shown to people to two decimals (33.33, not
// 33.333333333333336).
func round2(x float64) float64 { return math.Round(x*100) / 100 }

// WebhookSecretResponse is a freshly rotated secret.
type WebhookSecretResponse struct {
	WebhookSecret string `json:"webhook_secret"`
}

func (s *Server) rotateWebhookSecret(ctx context.Context, _ *struct{}) (*bodyOutput[WebhookSecretResponse], error) {
	p := callFrom(ctx).principal
	secret := newWebhookSecret()
	if err := s.store.SetWebhookSecret(ctx, p.account.ID, secret); err != nil {
		return nil, err
	}
	return reply(&WebhookSecretResponse{WebhookSecret: secret}), nil
}

// page is the limit/offset query of paginated listings.
type page struct {
	Limit  int `query:"limit" default:"50" minimum:"1" maximum:"1000"`
	Offset int `query:"offset" default:"0" minimum:"0"`
}

// CreditsResponse is the balance and a page of the ledger.
type CreditsResponse struct {
	Balance int64               `json:"balance"`
	Ledger  []store.LedgerEntry `json:"ledger"`
	Limit   int                 `json:"limit"`
	Offset  int                 `json:"offset"`
}

func (s *Server) credits(ctx context.Context, in *page) (*bodyOutput[CreditsResponse], error) {
	return s.creditsOf(ctx, callFrom(ctx).principal.account.ID, in)
}

// creditsOf is the balance and a ledger page of one account (the
// caller's, or an org's wallet).
func (s *Server) creditsOf(ctx context.Context, accountID int64, in *page) (*bodyOutput[CreditsResponse], error) {
	bal, err := s.store.Balance(ctx, accountID)
	if err != nil {
		return nil, err
	}
	ledger, err := s.store.Ledger(ctx, accountID, in.Limit, in.Offset)
	if err != nil {
		return nil, err
	}
	if ledger == nil {
		ledger = []store.LedgerEntry{}
	}
	return reply(&CreditsResponse{Balance: bal, Ledger: ledger, Limit: in.Limit, Offset: in.Offset}), nil
}

// CostEstimateRequest names the endpoint whose next call to price.
type CostEstimateRequest struct {
	Endpoint            string `json:"endpoint" minLength:"1" maxLength:"300" example:"/v1/scrape" doc:"The path of a catalogued endpoint, optionally preceded by its method (\"POST /v1/scrape\")."`
	UseResidentialProxy bool   `json:"use_residential_proxy,omitempty" doc:"Include the residential-proxy surcharge."`
	Items               int    `json:"items,omitempty" minimum:"0" maximum:"100000" doc:"For per-item endpoints (geoip/bulk, batch scrape): the number of items."`
}

// CostEstimate is what the next call would cost. Nothing is run, charged or
// counted by the rate limiter.
type CostEstimate struct {
	Method   string        `json:"method"`
	Endpoint string        `json:"endpoint"`
	Plan     string        `json:"plan"`
	Price    billing.Price `json:"price"`
	Quote    billing.Quote `json:"quote"`
	Cost     int64         `json:"cost" doc:"Credits the next call will cost: quote.total."`
	Balance  int64         `json:"balance"`
}

func (s *Server) costEstimate(ctx context.Context, in *CostEstimateRequest) (*CostEstimate, error) {
	p := callFrom(ctx).principal
	op, err := s.findOperation(in.Endpoint)
	if err != nil {
		return nil, err
	}
	q := s.opts.Billing.Quote(op.Price, p.plan, in.Items, in.UseResidentialProxy)
	bal, err := s.store.Balance(ctx, p.account.ID)
	if err != nil {
		return nil, err
	}
	return &CostEstimate{Method: op.Method, Endpoint: op.Path, Plan: p.plan.Name, Price: op.Price, Quote: q,
		Cost: q.Total, Balance: bal}, nil
}

// findOperation resolves "POST /v1/scrape" or "/v1/scrape" in the catalog.
func (s *Server) findOperation(endpoint string) (*Operation, error) {
	method, path, hasMethod := strings.Cut(strings.TrimSpace(endpoint), " ")
	if !hasMethod {
		method, path = "", method
	}
	path = strings.TrimSpace(path)
	var found *Operation
	for i := range s.ops {
		op := &s.ops[i]
		if op.Path != path || method != "" && !strings.EqualFold(method, op.Method) {
			continue
		}
		if found == nil || op.Method == "POST" { // the priced verb wins an ambiguous path
			found = op
		}
	}
	if found == nil {
		return nil, errs.Invalid("body.endpoint", "%q is not an endpoint of this API", endpoint)
	}
	return found, nil
}

// dayRange is the query of the usage chart.
type dayRange struct {
	Days int `query:"days" default:"30" minimum:"1" maximum:"366"`
}

// UsageSummary is one bucket per UTC day, oldest first, for a chart.
type UsageSummary struct {
	Days    int              `json:"days"`
	Buckets []store.UsageDay `json:"buckets"`
}

func (s *Server) usageSummary(ctx context.Context, in *dayRange) (*bodyOutput[UsageSummary], error) {
	p := callFrom(ctx).principal
	now := s.now().UTC()
	since := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC).AddDate(0, 0, 1-in.Days)
	days, err := s.store.UsageDaily(ctx, p.account.ID, since, now)
	if err != nil {
		return nil, err
	}
	return reply(&UsageSummary{Days: in.Days, Buckets: days}), nil
}
