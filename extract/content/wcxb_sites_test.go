package content

import (
	"cmp"
	"context"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/webinfra/webinfra/extract/pagetype"
	"github.com/webinfra/webinfra/internal/articlebench"
	"github.com/webinfra/webinfra/internal/htmltag"
	"github.com/webinfra/webinfra/internal/testenv"
	"github.com/webinfra/webinfra/internal/wcxb"
)

// unseenSitesRecorded is accurate mode's F1 on the WCXB development set
// with each page's type detected by a model that never saw its site (see
// TestQualityWCXBUnseenSites), overall ("") and by page type, as last
// measured; the test fails 0.002 below any of them.
var unseenSitesRecorded = map[string]float64{"": 0.8687, "article": 0.9547, "service": 0.8484,
	"product": 0.6715, "collection": 0.6732, "forum": 0.7858, "listing": 0.7141, "documentation": 0.9371}

// typeFolds is how many folds the development set's sites are split
// into: each fold's pages are typed by a model trained on the others.
const typeFolds = 5

// TestQualityWCXBUnseenSites measures how much accurate mode owes to a
// page-type model trained on the very pages it is scored on. The shipped
// model learnt the development set, so TestQualityWCXB's figures assume
// a detector that has seen every site; here each page's type comes from
// a model trained (as the shipped one, pagetype.ShippedTraining) on the
// sites of the other four fifths, as a page from a site nobody labelled
// would be typed. It logs the figures beside the shipped model's and
// fails 0.002 below the recorded ones.
func TestQualityWCXBUnseenSites(t *testing.T) {
	if testing.Short() || testenv.Race {
		t.Skip("trains five page-type models and extracts 1,497 pages (CI runs it without the race detector)")
	}
	pages := wcxb.Load(t)
	models := trainTypeFolds(t, pages)
	run := scoreWCXB(t, pages, func(p articlebench.Page) (string, error) {
		o := &Options{TypeModel: models[wcxb.Fold(wcxb.Site(p.URL), typeFolds)]}
		r, err := Extract(context.Background(), Input{HTML: string(p.HTML), URL: p.URL, Mode: ModeAccurate}, o)
		if err != nil {
			return "", err
		}
		return r.Text, nil
	})
	var b strings.Builder
	fmt.Fprintf(&b, "%-14s %6s %15s %15s\n", "type", "pages", "shipped model", "unseen sites")
	shipped := wcxbRecorded["ours/accurate"]
	for _, typ := range append([]string{""}, wcxb.SortedTypes(run)...) {
		fmt.Fprintf(&b, "%-14s %6d %15.4f %15.4f\n", cmp.Or(typ, "all"), run[typ].Pages, shipped[typ], run[typ].F1)
	}
	t.Log("\n" + b.String())
	for typ, want := range unseenSitesRecorded {
		if got := run[typ].F1; got < want-0.002 {
			t.Errorf("%q pages typed by unseen-site models: F1 %.4f, recorded %.4f", typ, got, want)
		}
	}
}

// trainTypeFolds trains one page-type model per fold of the development
// set's sites, each on the pages of the other folds.
func trainTypeFolds(t *testing.T, pages []wcxb.Page) [typeFolds]*pagetype.Model {
	t.Helper()
	x := make([][]float64, len(pages))
	y := make([]int, len(pages))
	parallel(len(pages), func(i int) {
		p := pages[i]
		doc, err := htmltag.Parse(string(p.HTML), "html")
		if err != nil {
			return
		}
		u, err := url.Parse(p.URL)
		if p.URL == "" || err != nil {
			u = nil
		}
		x[i] = pagetype.Features(doc, u)
		y[i] = slices.Index(pagetype.Types, pagetype.Type(p.Type))
	})
	var models [typeFolds]*pagetype.Model
	for f := range typeFolds {
		var tx [][]float64
		var ty []int
		for i, p := range pages {
			if x[i] != nil && wcxb.Fold(wcxb.Site(p.URL), typeFolds) != f {
				tx, ty = append(tx, x[i]), append(ty, y[i])
			}
		}
		m, err := pagetype.Train(pagetype.FeatureNames(), pagetype.Types, tx, ty, pagetype.ShippedTraining())
		if err != nil {
			t.Fatal(err)
		}
		models[f] = m
	}
	return models
}
