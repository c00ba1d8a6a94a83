package fetch

import (
	"context"
	"encoding/base64"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/webinfra/webinfra/errs"
)

const richPage = `<!DOCTYPE html>
<html lang="en-GB">
<head>
<meta charset="utf-8">
<title>  Field notes:
 the heron </title>
<meta name="description" content="What the heron did all morning.">
<meta property="og:title" content="The heron (OG)">
<meta property="og:image" content="https://cdn.example/heron.jpg">
<meta name="og:site_name" content="Notes">
<link rel="canonical" href="/notes/heron">
<link rel="stylesheet" href="/site.css">
<style>body { color: red }</style>
<script>var tracking = "TRACKING-CODE";</script>
</head>
<body onload="boot()">
<nav><a href="/">Home</a> <a href="/about#team">About</a> <a href="/about">About again</a> NAVIGATION-BOILERPLATE</nav>
<!-- a comment that must go -->
<article>
<h1>The heron</h1>
<p>At dawn the grey heron stood in the shallows of the river, perfectly still, watching the water for the small fish that
gather near the reeds. It waited for a very long time without moving a single feather, as herons do.</p>
<p>Then it struck: one quick movement of the neck, and a fish was gone. The heron swallowed it whole and went back to
waiting, as if nothing at all had happened, while the light slowly grew over the water. <a href="sightings.html#may">More sightings</a>.</p>
<p>Later in the morning it flew to the far bank, where the current is slower and the water warmer, and began again with
the same patience. Nobody who watches a heron for an hour can doubt that patience is its whole method.</p>
<noscript>NOSCRIPT-TEXT</noscript>
</article>
<footer>FOOTER-BOILERPLATE <a href="mailto:me@example.com">mail</a> <a href="javascript:void(0)">js</a> <a href="https://other.example/x">other</a></footer>
<script src="/app.js"></script>
</body>
</html>`

func richSite(t *testing.T) string {
	t.Helper()
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Language", "fr")
		switch r.URL.Path {
		case "/notes/heron.html":
			io.WriteString(w, richPage)
		case "/plain.txt":
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			io.WriteString(w, "just *text*\n")
		case "/image.png":
			w.Header().Set("Content-Type", "image/png")
			w.Write(fakePNG)
		}
	})
	return srv.URL
}

func TestScrapeFormats(t *testing.T) {
	t.Parallel()
	base := richSite(t)
	f := privateFetcher(t, Options{})
	res, err := f.Scrape(context.Background(), ScrapeRequest{URL: base + "/notes/heron.html",
		Formats: []string{"metadata", "links", "text", "markdown", "raw_html", "html", "html"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Run("raw_html", func(t *testing.T) {
		if res.RawHTML != richPage {
			t.Errorf("raw_html differs from the page as served")
		}
	})
	t.Run("html", func(t *testing.T) {
		for _, gone := range []string{"TRACKING-CODE", "<script", "<style", "site.css", "a comment", "onload", "NOSCRIPT-TEXT"} {
			if strings.Contains(res.HTML, gone) {
				t.Errorf("cleaned html still has %q", gone)
			}
		}
		for _, kept := range []string{"<h1>The heron</h1>", `rel="canonical"`, "FOOTER-BOILERPLATE"} {
			if !strings.Contains(res.HTML, kept) {
				t.Errorf("cleaned html lost %q", kept)
			}
		}
	})
	t.Run("markdown", func(t *testing.T) {
		for _, want := range []string{"# The heron", "[More sightings](" + base + "/notes/sightings.html#may)", "NAVIGATION-BOILERPLATE"} {
			if !strings.Contains(res.Markdown, want) {
				t.Errorf("markdown lacks %q:\n%s", want, res.Markdown)
			}
		}
	})
	t.Run("text", func(t *testing.T) {
		if !strings.Contains(res.Text, "The heron\nAt dawn the grey heron stood in the shallows of the river, perfectly still,") ||
			strings.Contains(res.Text, "TRACKING-CODE") || strings.Contains(res.Text, "NOSCRIPT") || strings.Contains(res.Text, "Field notes") {
			t.Errorf("text:\n%s", res.Text)
		}
	})
	t.Run("links", func(t *testing.T) {
		want := []string{base + "/", base + "/about", base + "/notes/sightings.html", "https://other.example/x"}
		if !slices.Equal(res.Links, want) {
			t.Errorf("links = %q\nwant %q", res.Links, want)
		}
	})
	t.Run("metadata", func(t *testing.T) {
		want := Metadata{Title: "Field notes: the heron", Description: "What the heron did all morning.", Language: "en-GB",
			Canonical: base + "/notes/heron", OpenGraph: map[string]string{
				"og:title": "The heron (OG)", "og:image": "https://cdn.example/heron.jpg", "og:site_name": "Notes"}}
		m := res.Metadata
		if m == nil || m.Title != want.Title || m.Description != want.Description || m.Language != want.Language ||
			m.Canonical != want.Canonical || !maps.Equal(m.OpenGraph, want.OpenGraph) {
			t.Errorf("metadata = %+v\nwant %+v", m, want)
		}
	})
	t.Run("only what was asked", func(t *testing.T) {
		only, err := f.Scrape(context.Background(), ScrapeRequest{URL: base + "/notes/heron.html", Formats: []string{"links"}})
		if err != nil {
			t.Fatal(err)
		}
		if only.HTML != "" || only.Markdown != "" || only.Text != "" || only.Metadata != nil || len(only.Links) != 4 {
			t.Errorf("result %+v", only)
		}
	})
}

func TestScrapeMainContent(t *testing.T) {
	t.Parallel()
	base := richSite(t)
	f := privateFetcher(t, Options{})
	res, err := f.Scrape(context.Background(), ScrapeRequest{URL: base + "/notes/heron.html",
		Formats: []string{"markdown", "text"}, MainContentOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	for name, got := range map[string]string{"markdown": res.Markdown, "text": res.Text} {
		if !strings.Contains(got, "grey heron stood in the shallows") || !strings.Contains(got, "patience is its whole method") {
			t.Errorf("%s lacks the article:\n%s", name, got)
		}
		for _, boiler := range []string{"NAVIGATION-BOILERPLATE", "FOOTER-BOILERPLATE", "TRACKING-CODE"} {
			if strings.Contains(got, boiler) {
				t.Errorf("%s keeps boilerplate %q:\n%s", name, boiler, got)
			}
		}
	}
	if !strings.Contains(res.Markdown, "("+base+"/notes/sightings.html#may)") {
		t.Errorf("main-content markdown links not absolute:\n%s", res.Markdown)
	}
}

func TestScrapeLegacyResult(t *testing.T) {
	t.Parallel()
	base := richSite(t)
	res, err := privateFetcher(t, Options{}).Scrape(context.Background(), ScrapeRequest{URL: base + "/notes/heron.html"})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := Markdown([]byte(richPage), base+"/notes/heron.html")
	if res.HTML != richPage || res.Markdown != want || res.RawHTML != "" || res.Text != "" || res.Links != nil || res.Metadata != nil {
		t.Errorf("legacy result changed: %+v", res)
	}
}

func TestScrapeNonHTML(t *testing.T) {
	t.Parallel()
	base := richSite(t)
	f := privateFetcher(t, Options{})
	all := []string{"html", "raw_html", "markdown", "text", "links", "metadata"}
	res, err := f.Scrape(context.Background(), ScrapeRequest{URL: base + "/plain.txt", Formats: all})
	if err != nil {
		t.Fatal(err)
	}
	if res.Text != "just *text*" || res.Markdown != "just *text*" || res.RawHTML != "just *text*\n" || res.Links != nil ||
		res.Metadata == nil || res.Metadata.Language != "fr" {
		t.Errorf("text/plain: %+v", res)
	}
	res, err = f.Scrape(context.Background(), ScrapeRequest{URL: base + "/image.png", Formats: all})
	if err != nil {
		t.Fatal(err)
	}
	if res.HTML != "" || res.RawHTML != "" || res.Text != "" || res.Markdown != "" {
		t.Errorf("binary body in text formats: %+v", res)
	}
}

func TestScrapeScreenshot(t *testing.T) {
	t.Parallel()
	site := wallSite(t)
	r := &fakeRenderer{}
	f := cascadeFetcher(t, r, nil)
	res, err := f.Scrape(context.Background(), ScrapeRequest{URL: site.URL + "/ok", Formats: []string{"screenshot", "markdown"}})
	if err != nil {
		t.Fatal(err)
	}
	png, _ := base64.StdEncoding.DecodeString(res.Screenshot)
	if string(png) != string(fakePNG) || res.TierUsed != TierRender || !slices.Equal(res.CascadePath, []Tier{TierRender}) ||
		!r.calls[0].Screenshot || !strings.Contains(res.Markdown, "# Real page") {
		t.Fatalf("screenshot %q tier %s path %v", res.Screenshot, res.TierUsed, res.CascadePath)
	}
	_, err = privateFetcher(t, Options{}).Scrape(context.Background(), ScrapeRequest{URL: site.URL + "/ok", Formats: []string{"screenshot"}})
	wantErr(t, err, errs.KindUnavailable, "screenshot needs the render tier")
}

func TestScrapeInvalid(t *testing.T) {
	t.Parallel()
	f := privateFetcher(t, Options{})
	tests := []struct {
		req   ScrapeRequest
		field string
	}{
		{ScrapeRequest{URL: "http://example.com/", Formats: []string{"pdf"}}, "formats"},
		{ScrapeRequest{URL: "http://example.com/", TimeoutMS: -1}, "timeout_ms"},
		{ScrapeRequest{URL: "http://example.com/", MaxAgeMS: -1}, "max_age_ms"},
		{ScrapeRequest{URL: "http://example.com/", Tier: "fast"}, "tier"},
		{ScrapeRequest{URL: "http://example.com/", MaxTier: "fast"}, "max_tier"},
		{ScrapeRequest{URL: "http://example.com/", Headers: map[string]string{"Host": "x"}}, "headers"},
		{ScrapeRequest{URL: "http://example.com/", WaitFor: ">>>"}, "wait_for"},
		{ScrapeRequest{URL: "http://example.com/", UseResidentialProxy: true, MaxTier: TierDirect}, "use_residential_proxy"},
		{ScrapeRequest{URL: ""}, "url"},
	}
	for _, tt := range tests {
		_, err := f.Scrape(context.Background(), tt.req)
		if errs.KindOf(err) != errs.KindInvalid || errs.FieldOf(err) != tt.field {
			t.Errorf("%+v: err = %v, want invalid %s", tt.req, err, tt.field)
		}
	}
}

func TestUsesResidentialProxy(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		req  ScrapeRequest
		want bool
	}{
		{ScrapeRequest{URL: "u"}, false},
		{ScrapeRequest{URL: "u", UseResidentialProxy: true}, true},
		{ScrapeRequest{URL: "u", Tier: TierResidential}, true},
		{ScrapeRequest{URL: "u", MaxTier: TierResidential}, false},
	} {
		req, want := tt.req, tt.want
		if got := req.UsesResidentialProxy(); got != want {
			t.Errorf("%+v: UsesResidentialProxy = %v", req, got)
		}
	}
}

// TestScrapeDeeplyNestedPage: the HTML parser refuses pages nested more
// than 512 elements deep; such a page still scrapes, its Markdown from
// the streaming converter, without a tree for text, links or metadata.
func TestScrapeDeeplyNestedPage(t *testing.T) {
	t.Parallel()
	page := "<html><body>" + strings.Repeat("<div>", 600) + `<a href="/x">deep</a>` + strings.Repeat("</div>", 600) + "</body></html>"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, page)
	}))
	t.Cleanup(srv.Close)
	res, err := privateFetcher(t, Options{}).Scrape(context.Background(),
		ScrapeRequest{URL: srv.URL, Formats: []string{"markdown", "text", "links", "metadata"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Markdown != "[deep]("+srv.URL+"/x)" || res.Text != "" || res.Links != nil {
		t.Errorf("deep page: markdown %q text %q links %v", res.Markdown, res.Text, res.Links)
	}
}
