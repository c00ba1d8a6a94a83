package content

import (
	"fmt"
	"math"
	"net/url"
	"testing"

	trafilatura "github.com/markusmobius/go-trafilatura"

	"github.com/webinfra/webinfra/extract/pagetype"
	"github.com/webinfra/webinfra/internal/testenv"
	"github.com/webinfra/webinfra/internal/wcxb"
)

// TestRecallAloneFirstOrNot: favouring recall, whether trafilatura runs
// alone first (and readability only when its cut is short) or readability
// runs first, the result is the same; on every 4th WCXB page (every 16th
// under the race detector), each read as documentation (trafilatura
// favours recall) both ways.
func TestRecallAloneFirstOrNot(t *testing.T) {
	if testing.Short() {
		t.Skip("extracts 375 pages twice")
	}
	pages := wcxb.Load(t)
	step := 4
	if testenv.Race {
		step = 16
	}
	parallel((len(pages)+step-1)/step, func(i int) {
		p := pages[step*i]
		u, _ := url.Parse(p.URL)
		var got [2]string
		for k, aloneFrom := range []int{0, math.MaxInt} {
			doc, err := parseHTML(string(p.HTML))
			if err != nil {
				t.Error(err)
				return
			}
			res, lead := extractAccurateFrom(doc, u, readable(doc, u), pagetype.Documentation, aloneFrom)
			if res.Node != nil {
				got[k] = render(res.Node)
			}
			for _, n := range lead {
				got[k] += "\n(lead) " + render(n)
			}
			res.Node = nil
			got[k] += fmt.Sprintf("\n%+v", *res)
		}
		if got[0] != got[1] {
			t.Errorf("page %s: trafilatura alone first gives\n%.2000s\nreadability first gives\n%.2000s", p.ID, got[0], got[1])
		}
	})
}

// TestThreadCandidateIsTrafilaturasOwn: a forum thread's trafilatura run
// on the lean copy, given go-shiori's readability over the page as its
// candidate (see ownFallbackCandidate), gives the text trafilatura gives
// on the page finding its fallbacks itself; on every WCXB thread (every
// 4th under the race detector).
func TestThreadCandidateIsTrafilaturasOwn(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go-trafilatura and its fallbacks on 113 pages twice")
	}
	var threads []wcxb.Page
	for _, p := range wcxb.Load(t) {
		if p.Type == "forum" {
			threads = append(threads, p)
		}
	}
	step := 1
	if testenv.Race {
		step = 4
	}
	parallel((len(threads)+step-1)/step, func(i int) {
		p := threads[step*i]
		doc, err := parseHTML(string(p.HTML))
		if err != nil {
			t.Error(err)
			return
		}
		u, _ := url.Parse(p.URL)
		opts := trafilatura.Options{OriginalURL: u, ExcludeComments: true, EnableFallback: true, HtmlDateMode: trafilatura.Disabled}
		want, wantErr := trafilatura.ExtractDocument(doc, opts)
		lean, _ := leanCopy(doc)
		got, _ := extractTrafilatura(doc, lean, opts, copies(ownFallbackCandidate(doc, u)))
		switch {
		case (wantErr == nil) != (got != nil):
			t.Errorf("thread %s: error %v on the page, result %v from the lean copy", p.ID, wantErr, got != nil)
		case got != nil && got.ContentText != want.ContentText:
			t.Errorf("thread %s: %d bytes of text from the lean copy, %d from the page", p.ID, len(got.ContentText), len(want.ContentText))
		}
	})
}
