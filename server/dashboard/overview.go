package dashboard

import (
	"net/http"
	"time"

	"github.com/webinfra/webinfra/server"
	"github.com/webinfra/webinfra/store"
)

// overviewData is the overview page.
type overviewData struct {
	Me           server.MeResponse
	QuotaPercent int // this month's requests as a share of the quota; 0 when unlimited
	Calls        chart
	Credits      chart
}

// overview shows the balance, the plan, this month's requests against the
// quota, success rate and latency (GET /v1/me), and the last 30 days'
// calls and credits (GET /v1/me/usage/summary).
func (d *Dashboard) overview(q *req) error {
	var sum server.UsageSummary
	if err := q.call(http.MethodGet, "/v1/me/usage/summary?days=30", nil, &sum); err != nil {
		return err
	}
	data := overviewData{Me: q.me}
	if limit := q.me.User.Limit; limit > 0 {
		data.QuotaPercent = int(min(100, q.me.Usage.RequestsThisMonth*100/limit))
	}
	until := time.Now().UTC().Truncate(24 * time.Hour)
	if n := len(sum.Buckets); n > 0 {
		if last, err := time.Parse(time.DateOnly, sum.Buckets[n-1].Day); err == nil && last.After(until) {
			until = last // the server's clock is ahead of ours: trust its days
		}
	}
	days := fillDays(sum.Buckets, until.AddDate(0, 0, 1-max(sum.Days, 1)), until)
	data.Calls = newChart("Calls per day", "calls", "#0b57d0", days, func(d store.UsageDay) int64 { return d.Requests })
	data.Credits = newChart("Credits per day", "credits", "#0d5323", days, func(d store.UsageDay) int64 { return d.Credits })
	v := q.view("Overview", "overview")
	v.Data = data
	return q.render(v, "overview")
}
