package pagetype

import (
	"encoding/json"
	"flag"
	"fmt"
	"net/url"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/webinfra/webinfra/internal/htmltag"
	"github.com/webinfra/webinfra/internal/testenv"
	"github.com/webinfra/webinfra/internal/wcxb"
)

var update = flag.Bool("update", false, "retrain model.json on the WCXB development set")

// The accuracy gates: the shipped model on the development set it was
// trained on, and the cross-validated estimate (sites held out), a hair
// below what they measured when the model was last trained.
const (
	minShippedAccuracy = 0.85  // measured 0.9145 (2026-11-29)
	minHeldOutAccuracy = 0.843 // measured 0.8550 (2026-11-29)
)

// devSet is the development set's feature vectors and labels.
type devSet struct {
	pages []wcxb.Page
	x     [][]float64
	y     []int
	sites []string // each page's registrable domain, the unit held out
}

var loadDev = sync.OnceValues(func() (*devSet, error) {
	pages, err := wcxb.Read(wcxb.Dir())
	if err != nil {
		return nil, err
	}
	d := &devSet{pages: pages, x: make([][]float64, len(pages)), y: make([]int, len(pages)), sites: make([]string, len(pages))}
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range next {
				p := pages[i]
				// As extract/content parses pages: each <noscript> holding
				// elements (see htmltag.Parse).
				doc, err := htmltag.Parse(string(p.HTML), "html")
				if err != nil {
					continue
				}
				u, _ := url.Parse(p.URL)
				if p.URL == "" {
					u = nil
				}
				d.x[i] = Features(doc, u)
				d.y[i] = slices.Index(Types, Type(p.Type))
				d.sites[i] = wcxb.Site(p.URL)
			}
		})
	}
	for i := range pages {
		next <- i
	}
	close(next)
	wg.Wait()
	return d, nil
})

func dev(t *testing.T) *devSet {
	t.Helper()
	if testing.Short() || testenv.Race {
		t.Skip("reads the 1,497 pages of the WCXB development set (CI runs it without the race detector)")
	}
	d, err := loadDev()
	if os.IsNotExist(err) {
		t.Skipf("WCXB development set not found at %s (set WEBINFRA_WCXB_DEV): %v", wcxb.Dir(), err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestTrain retrains model.json with -update; without it, it checks
// that the shipped model is what training gives today: the two agree on
// the type of every development page but a few (floating-point sums
// differ in their last bits between machines).
func TestTrain(t *testing.T) {
	d := dev(t)
	m, err := Train(FeatureNames(), Types, d.x, d.y, ShippedTraining())
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		out, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile("model.json", out, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	differ := 0
	for _, x := range d.x {
		if argmax(m.Probabilities(x)) != argmax(shipped().Probabilities(x)) {
			differ++
		}
	}
	if differ > len(d.x)/200 {
		t.Errorf("model.json disagrees with training on %d pages; run go test ./extract/pagetype -run TestTrain -update", differ)
	}
}

// TestAccuracyWCXB reports the shipped model's accuracy and confusion
// matrix on the development set, and the accuracy of models trained with
// a fifth of the sites held out, on those held-out pages.
func TestAccuracyWCXB(t *testing.T) {
	d := dev(t)
	m := shipped()
	pred := make([]int, len(d.x))
	for i, x := range d.x {
		pred[i] = argmax(m.Probabilities(x))
	}
	acc := accuracy(d.y, pred)
	t.Logf("shipped model on the development set: accuracy %.4f\n%s", acc, confusion(d.y, pred))

	folds := 5
	cv := make([]int, len(d.x))
	for f := range folds {
		var tx [][]float64
		var ty []int
		for i := range d.x {
			if wcxb.Fold(d.sites[i], folds) != f {
				tx, ty = append(tx, d.x[i]), append(ty, d.y[i])
			}
		}
		fm, err := Train(FeatureNames(), Types, tx, ty, ShippedTraining())
		if err != nil {
			t.Fatal(err)
		}
		for i := range d.x {
			if wcxb.Fold(d.sites[i], folds) == f {
				cv[i] = argmax(fm.Probabilities(d.x[i]))
			}
		}
	}
	cvAcc := accuracy(d.y, cv)
	t.Logf("%d-fold cross-validation, sites held out: accuracy %.4f\n%s", folds, cvAcc, confusion(d.y, cv))
	if acc < minShippedAccuracy {
		t.Errorf("shipped model: accuracy %.4f, want ≥ %.2f", acc, minShippedAccuracy)
	}
	if cvAcc < minHeldOutAccuracy {
		t.Errorf("held-out sites: accuracy %.4f, recorded %.4f", cvAcc, minHeldOutAccuracy)
	}
}

func accuracy(y, pred []int) float64 {
	ok := 0
	for i := range y {
		if y[i] == pred[i] {
			ok++
		}
	}
	return float64(ok) / float64(len(y))
}

// confusion is the confusion matrix: a row per true type, a column per
// predicted type.
func confusion(y, pred []int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-14s", "true \\ guess")
	for _, t := range Types {
		fmt.Fprintf(&b, " %5.5s", t)
	}
	b.WriteString("  recall\n")
	for k, t := range Types {
		fmt.Fprintf(&b, "%-14s", t)
		n, ok := 0, 0
		for c := range Types {
			cell := 0
			for i := range y {
				if y[i] == k && pred[i] == c {
					cell++
				}
			}
			n += cell
			if c == k {
				ok = cell
			}
			fmt.Fprintf(&b, " %5d", cell)
		}
		fmt.Fprintf(&b, "  %.3f\n", float64(ok)/float64(max(n, 1)))
	}
	return b.String()
}
