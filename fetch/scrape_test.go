package fetch

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/webinfra/webinfra/errs"
)

func TestScrape(t *testing.T) {
	t.Parallel()
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/old" {
			http.Redirect(w, r, "/new", http.StatusMovedPermanently)
			return
		}
		w.Header().Add("X-Multi", "a")
		w.Header().Add("X-Multi", "b")
		w.Write([]byte(`<html><body><h2>Title</h2><a href="rel">r</a></body></html>`))
	}))
	defer site.Close()
	f, err := New(&Options{AllowPrivateNetworks: true})
	if err != nil {
		t.Fatal(err)
	}
	res, err := f.Scrape(context.Background(), ScrapeRequest{URL: site.URL + "/old"})
	if err != nil {
		t.Fatal(err)
	}
	if res.FinalURL != site.URL+"/new" || len(res.Redirects) != 1 || res.Redirects[0].Status != 301 {
		t.Fatalf("redirects: final %q hops %+v", res.FinalURL, res.Redirects)
	}
	if res.Headers["X-Multi"] != "a, b" || !strings.Contains(res.Markdown, "## Title") || !strings.Contains(res.Markdown, "("+site.URL+"/rel)") {
		t.Fatalf("result %+v", res)
	}
	if _, err := f.Scrape(context.Background(), ScrapeRequest{URL: site.URL, TimeoutMS: -1}); errs.FieldOf(err) != "timeout_ms" {
		t.Fatalf("negative timeout: %v", err)
	}
}
