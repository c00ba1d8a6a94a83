package pageaudit

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/webinfra/webinfra/fetch"
)

const goodPage = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>How grey herons returned to the town marsh</title>
<meta name="description" content="Grey herons are nesting in the town marsh again after ten years: why they left, why they came back, and how to watch them.">
<meta name="viewport" content="width=device-width">
<link rel="canonical" href="/herons">
<meta property="og:title" content="Herons return"><meta property="og:description" content="Grey herons are back."><meta property="og:image" content="/h.jpg"><meta property="og:url" content="/herons"><meta property="og:type" content="article">
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Article","headline":"How grey herons returned","author":{"@type":"Person","name":"Ann Lee"},"datePublished":"2026-10-01","dateModified":"2026-11-20","publisher":{"@type":"Organization","name":"Marsh News"}}</script>
</head><body><article><h1>How grey herons returned to the town marsh</h1><p class="byline">By Ann Lee · Updated November 20, 2026</p>
<h2>Why did the herons leave?</h2><p>Grey herons left the marsh in 2015, when the water table dropped by 40 cm and 70% of the reed beds dried out, according to the <a href="https://www.gov.uk/wetlands">national wetland survey</a>. Without fish and frogs in the shallows, the birds moved to the estuary.</p>
<h2>How to watch them</h2><ol><li>Come at dawn, when they hunt</li><li>Keep to the boardwalk between March and June</li><li>Bring binoculars and stay quiet</li></ol>
<h2>Grey heron vs great egret</h2><table><tr><th>Bird</th><th>Length</th></tr><tr><td>Grey heron</td><td>95 cm</td></tr><tr><td>Great egret</td><td>90 cm</td></tr></table>
</article></body></html>`

func site(t *testing.T, page, robots string) string {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			io.WriteString(w, robots)
		case "/llms.txt":
			w.Header().Set("Content-Type", "text/plain")
			io.WriteString(w, "# Marsh News\n\n> News of the town marsh.\n\n## Articles\n\n- [Herons](/herons): how the herons came back\n")
		case "/herons", "/":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			io.WriteString(w, page)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(ts.Close)
	return ts.URL
}

func TestAudit(t *testing.T) {
	t.Parallel()
	f, err := fetch.New(&fetch.Options{AllowPrivateNetworks: true})
	if err != nil {
		t.Fatal(err)
	}
	now := func() time.Time { return time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC) }
	good, err := Audit(context.Background(), f, Input{URL: site(t, goodPage, "User-agent: GPTBot\nDisallow: /\n") + "/herons"}, &Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	poor, err := Audit(context.Background(), f, Input{URL: site(t, `<html><body><div>Herons.</div></body></html>`, "User-agent: *\nDisallow: /\n") + "/herons"}, &Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	for _, rep := range []*Report{good, poor} {
		if len(rep.Probes) != 9 || len(rep.Categories) != 5 || rep.Score < 0 || rep.Score > 100 {
			t.Fatalf("report shape: %d probes, %d categories, score %d", len(rep.Probes), len(rep.Categories), rep.Score)
		}
		for _, p := range rep.Probes {
			if p.Error != "" {
				t.Errorf("probe %s failed: %s", p.Name, p.Error)
			}
		}
		d := rep.Details
		if d.AIBots == nil || d.FetchSimulation == nil || d.LlmsTxt == nil || d.Headings == nil || d.SnippetFormat == nil || d.SchemaCoverage == nil || d.Meta == nil || d.Citation == nil || d.Freshness == nil {
			t.Fatalf("a detail is missing: %+v", d)
		}
		for i := 1; i < len(rep.Recommendations); i++ {
			if rep.Recommendations[i].Points > rep.Recommendations[i-1].Points {
				t.Fatalf("recommendations out of order: %+v", rep.Recommendations)
			}
		}
	}
	if good.Score <= poor.Score+20 {
		t.Fatalf("good page %d, poor page %d: %+v / %+v", good.Score, poor.Score, good.Probes, poor.Probes)
	}
	probe := func(rep *Report, name string) Probe {
		for _, p := range rep.Probes {
			if p.Name == name {
				return p
			}
		}
		t.Fatalf("no probe %s", name)
		return Probe{}
	}
	// Blocking only a training crawler costs nothing; blocking everyone does.
	if probe(good, "ai_bots").Score != 100 || probe(poor, "ai_bots").Score != 0 {
		t.Errorf("ai_bots: good %+v poor %+v", probe(good, "ai_bots"), probe(poor, "ai_bots"))
	}
	if !strings.Contains(poor.TopIssues[0].Severity, "error") && !strings.Contains(poor.TopIssues[0].Severity, "warning") {
		t.Errorf("poor page's first issue %+v", poor.TopIssues[0])
	}
	if len(poor.Recommendations) == 0 || poor.Recommendations[0].Points <= 0 {
		t.Errorf("poor page's recommendations %+v", poor.Recommendations)
	}
	if _, err := Audit(context.Background(), f, Input{URL: "ftp://x/"}, nil); err == nil {
		t.Error("an ftp URL was audited")
	}
}

func TestCompare(t *testing.T) {
	t.Parallel()
	f, err := fetch.New(&fetch.Options{AllowPrivateNetworks: true})
	if err != nil {
		t.Fatal(err)
	}
	now := func() time.Time { return time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC) }
	poor := site(t, `<html><body><div>Herons.</div></body></html>`, "User-agent: *\nDisallow: /\n") + "/herons"
	good := site(t, goodPage, "") + "/herons"
	c, err := Compare(context.Background(), f, CompareInput{URLs: []string{poor, good, "http://127.0.0.1:1/"}}, &Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if c.Ranking[0].URL != good || c.Ranking[0].Rank != 1 || c.Ranking[1].URL != poor || c.Ranking[2].Error == "" || c.Ranking[2].Rank != 3 {
		t.Fatalf("ranking %+v", c.Ranking)
	}
	if len(c.Losses) == 0 || c.Losses[0].BestURL != good || c.Losses[0].Gap >= 0 || c.Losses[0].Advice == "" || c.Pages[2] != nil {
		t.Fatalf("losses %+v", c.Losses)
	}
	for _, urls := range [][]string{{good}, {good, good, good, good, good, good}, {good, "ftp://x/"}} {
		if _, err := Compare(context.Background(), f, CompareInput{URLs: urls}, nil); err == nil {
			t.Errorf("%v was compared", urls)
		}
	}
}
