package billing_test

import (
	"context"
	"fmt"
	"time"

	"github.com/webinfra/webinfra/billing"
)

func ExampleConfig_Quote() {
	cfg := billing.DefaultConfig()
	free, _ := cfg.Plan(billing.PlanFree)
	internal, _ := cfg.Plan(billing.PlanInternal)

	pageAudit := billing.Price{Credits: 3}
	geoipBulk := billing.Price{Credits: 1, PerItem: true}

	fmt.Printf("%+v\n", cfg.Quote(pageAudit, free, 0, false))
	fmt.Printf("%+v\n", cfg.Quote(geoipBulk, free, 25, false))
	fmt.Printf("%+v\n", cfg.Quote(pageAudit, free, 0, true))
	fmt.Printf("%+v\n", cfg.Quote(pageAudit, internal, 0, true))
	// Output:
	// {Base:3 Items:1 ResidentialSurcharge:0 Total:3}
	// {Base:25 Items:25 ResidentialSurcharge:0 Total:25}
	// {Base:3 Items:1 ResidentialSurcharge:2 Total:5}
	// {Base:3 Items:1 ResidentialSurcharge:2 Total:0}
}

func ExampleDefaultConfig() {
	cfg := billing.DefaultConfig()
	for _, name := range cfg.PlanNames() {
		p, _ := cfg.Plan(name)
		fmt.Printf("%s: credits=%d per_minute=%d monthly=%d bypass=%t\n",
			p.Name, p.Credits, p.RequestsPerMinute, p.MonthlyRequests, p.Bypass)
	}
	fmt.Println("default:", cfg.DefaultPlan)
	// Output:
	// free: credits=1000 per_minute=60 monthly=5000 bypass=false
	// internal: credits=0 per_minute=6000 monthly=0 bypass=true
	// pro: credits=50000 per_minute=600 monthly=500000 bypass=false
	// default: free
}

func ExampleLocalLimiter() {
	now := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	limiter := billing.NewLocalLimiter(func() time.Time { return now })
	ctx := context.Background()

	for range 3 {
		d, _ := limiter.Allow(ctx, "account:42", 2) // two requests a minute
		fmt.Printf("allowed=%t remaining=%d reset=%s retry_after=%s\n",
			d.Allowed, d.Remaining, d.Reset.Format(time.TimeOnly), d.RetryAfter)
	}
	d, _ := limiter.Allow(ctx, "account:42", 2)
	fmt.Println(d.Err())
	// Output:
	// allowed=true remaining=1 reset=12:00:30 retry_after=0s
	// allowed=true remaining=0 reset=12:01:00 retry_after=0s
	// allowed=false remaining=0 reset=12:01:00 retry_after=30s
	// rate limit of 2 requests per minute exceeded; retry after 30s
}
