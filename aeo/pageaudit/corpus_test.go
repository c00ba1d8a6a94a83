package pageaudit

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/webinfra/webinfra/fetch"
	"github.com/webinfra/webinfra/internal/articlebench"
	"github.com/webinfra/webinfra/internal/testenv"
	"github.com/webinfra/webinfra/internal/wcxb"
)

// TestCorpus runs the page audit, end to end, over the pages of
// ../shared/testdata served from loopback (every 8th page; every 60th
// under the race detector), and the competitor diff over a few pairs: no
// error, no probe that fails, scores within 0-100, reports that encode.
// The probes' own corpus tests (seo/htmlaudit, aeo/internal/corpus,
// aeo/fetchsim) read every page.
func TestCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("audits hundreds of pages over loopback; skipped with -short")
	}
	var pages [][]byte
	for _, p := range articlebench.Load(t) {
		pages = append(pages, p.HTML)
	}
	for _, p := range wcxb.Load(t) {
		pages = append(pages, p.HTML)
	}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i, err := strconv.Atoi(r.URL.Query().Get("p"))
		if r.URL.Path != "/page" || err != nil || i < 0 || i >= len(pages) {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(pages[i])
	}))
	defer ts.Close()
	f, err := fetch.New(&fetch.Options{AllowPrivateNetworks: true})
	if err != nil {
		t.Fatal(err)
	}
	opts := &Options{Now: func() time.Time { return time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC) }}
	step := 8
	if testenv.Race {
		step = 60
	}
	audited := 0
	for i := 0; i < len(pages); i += step {
		u := ts.URL + "/page?p=" + strconv.Itoa(i)
		rep, err := Audit(context.Background(), f, Input{URL: u}, opts)
		if err != nil {
			t.Errorf("page %d: %v", i, err)
			continue
		}
		audited++
		if rep.Score < 0 || rep.Score > 100 || len(rep.Probes) != 9 {
			t.Errorf("page %d: score %d, %d probes", i, rep.Score, len(rep.Probes))
		}
		for _, p := range rep.Probes {
			if p.Error != "" {
				t.Errorf("page %d: probe %s: %s", i, p.Name, p.Error)
			}
		}
		if _, err := json.Marshal(rep); err != nil {
			t.Errorf("page %d: %v", i, err)
		}
	}
	for i := 0; i+1 < len(pages) && i < 4*step; i += 2 * step {
		c, err := Compare(context.Background(), f, CompareInput{URLs: []string{ts.URL + "/page?p=" + strconv.Itoa(i), ts.URL + "/page?p=" + strconv.Itoa(i+1)}}, opts)
		if err != nil || len(c.Ranking) != 2 || c.Pages[0] == nil || c.Pages[1] == nil {
			t.Errorf("compare %d and %d: %v %+v", i, i+1, err, c)
		}
	}
	t.Logf("%d pages audited", audited)
}
