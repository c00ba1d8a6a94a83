package content

import (
	"fmt"
	"math"
	"net/url"
	"testing"

	"github.com/webinfra/webinfra/extract/pagetype"
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
	if raceEnabled {
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
