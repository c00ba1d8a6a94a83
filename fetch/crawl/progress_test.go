package crawl

import (
	"context"
	"testing"
)

// OnProgress sees every page granted and finished, in order: Done never
// goes back, Done+Queued never exceeds the budget, and the last call
// matches the Result with nothing left queued.
func TestCrawlOnProgress(t *testing.T) {
	t.Parallel()
	site := newTestSite(t, 50)
	const budget = 20
	var (
		calls, pages int
		last         Progress
		inCall       bool
	)
	check := func() {
		if inCall {
			t.Error("OnProgress and OnPage overlap")
		}
	}
	res, err := Crawl(context.Background(), loopbackFetcher(t), Request{
		Seeds: []string{pageURL(site, 0), site.URL + "/missing"}, MaxPages: budget, MaxDepth: 10,
	}, &Options{
		Unthrottled: true,
		OnPage:      func(Page) { check(); pages++ },
		OnProgress: func(p Progress) {
			check()
			inCall = true
			defer func() { inCall = false }()
			calls++
			switch {
			case p.Done < last.Done || p.Failed < last.Failed:
				t.Errorf("progress went back: %+v after %+v", p, last)
			case p.Queued < 0 || p.Done+p.Queued > budget || p.Failed > p.Done:
				t.Errorf("impossible progress %+v (budget %d)", p, budget)
			case p.Done > pages:
				t.Errorf("progress %+v counts a page OnPage has not seen (%d)", p, pages)
			}
			last = p
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := Progress{Done: len(res.Pages), Failed: res.Failed}
	if last != want || res.Failed != 1 || len(res.Pages) != budget || !res.Truncated {
		t.Errorf("last progress %+v, want %+v (result: %d pages, %d failed, truncated %v)", last, want, len(res.Pages), res.Failed, res.Truncated)
	}
	if calls < 2*budget { // each page: granted, then finished
		t.Errorf("OnProgress called %d times for %d pages", calls, budget)
	}
}
