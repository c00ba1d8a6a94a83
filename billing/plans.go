package billing

import (
	"slices"
	"strings"

	"github.com/webinfra/webinfra/errs"
)

// Plan is what an account is subscribed to: its sign-up credits and its limits.
type Plan struct {
	// Name is the plan's key in Config.Plans, e.g. "free".
	Name string `json:"name"`
	// Credits are granted once, when an account signs up on this plan.
	Credits int64 `json:"credits"`
	// RequestsPerMinute is both the refill rate (per minute) and the burst
	// of the account's token bucket.
	RequestsPerMinute int `json:"requests_per_minute"`
	// MonthlyRequests caps billable calls per calendar month; 0 means unlimited.
	MonthlyRequests int64 `json:"monthly_requests"`
	// Bypass marks an internal plan: every cost quotes 0 and nothing is held.
	Bypass bool `json:"bypass"`
	// MaxCrawlRatePerHost caps a crawl's rate_per_host (requests a second
	// to one host); 0 means DefaultMaxCrawlRatePerHost.
	MaxCrawlRatePerHost float64 `json:"max_crawl_rate_per_host,omitempty"`
	// WebhookTestsPerHour caps POST /v1/me/webhooks/test per account; 0
	// means DefaultWebhookTestsPerHour.
	WebhookTestsPerHour int `json:"webhook_tests_per_hour,omitempty"`
}

// Defaults of the plan fields whose zero value means "the default".
const (
	DefaultMaxCrawlRatePerHost = 10.0
	DefaultWebhookTestsPerHour = 30
)

// CrawlRatePerHostCap is the highest rate_per_host a crawl may ask for.
func (p Plan) CrawlRatePerHostCap() float64 {
	if p.MaxCrawlRatePerHost > 0 {
		return p.MaxCrawlRatePerHost
	}
	return DefaultMaxCrawlRatePerHost
}

// WebhookTestCap is how many webhook tests an account may send an hour.
func (p Plan) WebhookTestCap() int {
	if p.WebhookTestsPerHour > 0 {
		return p.WebhookTestsPerHour
	}
	return DefaultWebhookTestsPerHour
}

// The names of the built-in plans.
const (
	PlanFree     = "free"
	PlanPro      = "pro"
	PlanInternal = "internal"
)

// Unlimited reports whether the plan has no monthly request quota.
func (p Plan) Unlimited() bool { return p.MonthlyRequests == 0 }

// validate checks one plan stored under key in Config.Plans and returns
// every problem found, each naming its field as plans.<key>.<field>.
func (p Plan) validate(key string) []error {
	field := func(name string) string { return "plans." + key + "." + name }
	var problems []error
	if strings.TrimSpace(key) == "" {
		problems = append(problems, errs.Invalid("plans", "plan names must not be empty"))
	}
	if p.Name != "" && p.Name != key {
		problems = append(problems, errs.Invalid(field("name"), "must be empty or %q, the plan's key, not %q", key, p.Name))
	}
	if p.Credits < 0 {
		problems = append(problems, errs.Invalid(field("credits"), "must be >= 0, not %d", p.Credits))
	}
	if p.RequestsPerMinute <= 0 {
		problems = append(problems, errs.Invalid(field("requests_per_minute"), "must be > 0, not %d", p.RequestsPerMinute))
	}
	if p.MaxCrawlRatePerHost < 0 {
		problems = append(problems, errs.Invalid(field("max_crawl_rate_per_host"), "must be >= 0 (0 means %v), not %v", DefaultMaxCrawlRatePerHost, p.MaxCrawlRatePerHost))
	}
	if p.WebhookTestsPerHour < 0 {
		problems = append(problems, errs.Invalid(field("webhook_tests_per_hour"), "must be >= 0 (0 means %d), not %d", DefaultWebhookTestsPerHour, p.WebhookTestsPerHour))
	}
	if p.MonthlyRequests < 0 {
		problems = append(problems, errs.Invalid(field("monthly_requests"), "must be >= 0 (0 means unlimited), not %d", p.MonthlyRequests))
	}
	return problems
}

// Plan returns the plan named name, with its Name filled in.
// An unknown name is an errs.KindNotFound error.
func (c Config) Plan(name string) (Plan, error) {
	p, ok := c.Plans[name]
	if !ok {
		return Plan{}, errs.NotFound("plan %q does not exist (plans: %s)", name, strings.Join(c.PlanNames(), ", "))
	}
	p.Name = name
	return p, nil
}

// PlanNames returns the names of the configured plans, sorted.
func (c Config) PlanNames() []string {
	names := make([]string, 0, len(c.Plans))
	for name := range c.Plans {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}
