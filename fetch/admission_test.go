package fetch

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
)

// Scrape and LlmReady ask the context's PageAdmission before working on a
// page they fetched, with the page's size; a refusal is their answer, and
// what they were let in for is released once the work is done. A cached
// answer, which is not worked on again, asks nothing.
func TestPageAdmission(t *testing.T) {
	t.Parallel()
	const page = `<html><head><title>Admitted</title></head><body><article><p>Let in, then converted.</p></article></body></html>`
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(page))
	}))
	defer site.Close()
	f, err := New(&Options{AllowPrivateNetworks: true})
	if err != nil {
		t.Fatal(err)
	}
	var asked []int64
	held := 0
	refuse := errors.New("busy")
	admit := func(refusing bool) PageAdmission {
		return func(_ context.Context, n int64) (func(), error) {
			asked = append(asked, n)
			if refusing {
				return nil, refuse
			}
			held++
			return func() { held-- }, nil
		}
	}

	ctx := WithPageAdmission(context.Background(), admit(true))
	if _, err := f.Scrape(ctx, ScrapeRequest{URL: site.URL, Formats: []string{FormatMarkdown}}); !errors.Is(err, refuse) {
		t.Fatalf("scrape refused admission: %v", err)
	}
	ctx = WithPageAdmission(context.Background(), admit(false))
	res, err := f.Scrape(ctx, ScrapeRequest{URL: site.URL, Formats: []string{FormatMarkdown}, MaxAgeMS: 60_000})
	if err != nil || res.Markdown == "" {
		t.Fatalf("scrape let in: %v, %+v", err, res)
	}
	if _, err := f.Scrape(ctx, ScrapeRequest{URL: site.URL, Formats: []string{FormatMarkdown}, MaxAgeMS: 60_000}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.LlmReady(ctx, LlmReadyRequest{URL: site.URL}); err != nil {
		t.Fatal(err)
	}
	// The refused scrape, the one let in, none for the cache hit, and
	// LlmReady's scrape and chunking.
	n := int64(len(page))
	if want := []int64{n, n, n, n}; !slices.Equal(asked, want) {
		t.Fatalf("asked for %v, want %v", asked, want)
	}
	if held != 0 {
		t.Fatalf("%d admissions not released", held)
	}
	if _, err := f.Scrape(context.Background(), ScrapeRequest{URL: site.URL}); err != nil {
		t.Fatalf("without an admission: %v", err)
	}
}
