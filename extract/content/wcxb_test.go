package content

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/webinfra/webinfra/internal/articlebench"
	"github.com/webinfra/webinfra/internal/testenv"
	"github.com/webinfra/webinfra/internal/wcxb"
)

// wcxbRun is one extractor's figures on the WCXB development set, overall
// (key "") and per page type.
type wcxbRun map[string]wcxb.Summary

// scoreWCXB runs ex over every development page and scores it.
func scoreWCXB(t *testing.T, pages []wcxb.Page, ex extractor) wcxbRun {
	t.Helper()
	scores := make([]wcxb.PageScore, len(pages))
	errs := make([]error, len(pages))
	parallel(len(pages), func(i int) {
		p := pages[i]
		var text string
		text, errs[i] = ex(articlebench.Page{ID: p.ID, URL: p.URL, HTML: p.HTML})
		scores[i] = wcxb.Score(p.Truth, text)
	})
	for i, err := range errs {
		if err != nil {
			t.Errorf("page %s: %v", pages[i].ID, err)
		}
	}
	return wcxb.ByType(pages, scores)
}

// wcxbRecorded is F1 on the WCXB development set as last measured, overall
// ("") and by page type; TestQualityWCXB fails 0.002 below any of them.
var wcxbRecorded = map[string]map[string]float64{
	"ours/accurate": {"": 0.8716, "article": 0.9547, "service": 0.8500, "product": 0.6869,
		"collection": 0.6879, "forum": 0.7896, "listing": 0.7145, "documentation": 0.9365},
	"ours/fast": {"": 0.8445, "article": 0.9466, "service": 0.7902, "product": 0.5933,
		"collection": 0.6539, "forum": 0.7723, "listing": 0.6519, "documentation": 0.9252},
}

// TestQualityWCXB scores every extractor on the WCXB development set, logs
// the table by page type, and fails when one of our modes falls 0.002
// below a recorded figure. Under the race detector, which slows
// extraction about tenfold, it extracts every raceSample-th page in our
// two modes and checks nothing but that (CI runs the gate without the
// detector: see .ci/run).
func TestQualityWCXB(t *testing.T) {
	if testing.Short() {
		t.Skip("scores 1,497 pages four times")
	}
	pages := wcxb.Load(t)
	if testenv.Race {
		raceSampleWCXB(t, pages)
		return
	}
	runs := map[string]wcxbRun{}
	for _, ex := range extractors {
		runs[ex.name] = scoreWCXB(t, pages, ex.run)
	}
	t.Log("\n" + wcxbTable(runs))
	for name, recorded := range wcxbRecorded {
		for typ, want := range recorded {
			if got := runs[name][typ].F1; got < want-0.002 {
				t.Errorf("%s on %q pages: F1 %.4f, recorded %.4f", name, typ, got, want)
			}
		}
	}
}

// raceSample is the share of the development pages (one in raceSample)
// that the quality tests extract under the race detector.
const raceSample = 10

// raceSampleWCXB extracts every raceSample-th development page in both of
// our modes, on GOMAXPROCS goroutines, for the race detector to watch.
func raceSampleWCXB(t *testing.T, pages []wcxb.Page) {
	t.Helper()
	var sample []wcxb.Page
	for i := 0; i < len(pages); i += raceSample {
		sample = append(sample, pages[i])
	}
	for _, ex := range extractors {
		if _, ours := wcxbRecorded[ex.name]; ours {
			run := scoreWCXB(t, sample, ex.run)
			t.Logf("%s on %d pages under the race detector (no gate): F1 %.4f", ex.name, len(sample), run[""].F1)
		}
	}
}

// wcxbTable is F1 by page type (rows) and extractor (columns), then the
// snippet rates.
func wcxbTable(runs map[string]wcxbRun) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-14s %6s", "type", "pages")
	for _, ex := range extractors {
		fmt.Fprintf(&b, " %15s", ex.name)
	}
	b.WriteString("\n")
	first := runs[extractors[0].name]
	for _, typ := range append([]string{""}, wcxb.SortedTypes(first)...) {
		name := typ
		if name == "" {
			name = "all"
		}
		fmt.Fprintf(&b, "%-14s %6d", name, first[typ].Pages)
		for _, ex := range extractors {
			fmt.Fprintf(&b, " %15.4f", runs[ex.name][typ].F1)
		}
		b.WriteString("\n")
	}
	for _, ex := range extractors {
		s := runs[ex.name][""]
		fmt.Fprintf(&b, "%-15s precision %.4f recall %.4f with %.1f%% without %.1f%%\n",
			ex.name, s.Precision, s.Recall, 100*s.With, 100*s.Without)
	}
	return b.String()
}

// withCeilingRecorded is the share of `with` snippets that the pages'
// whole text holds, as TestWithCeilingWCXB renders it both ways; the
// README quotes them.
var withCeilingRecorded = struct{ asText, asLines float64 }{0.8608, 0.8681}

// TestWithCeilingWCXB measures the share of `with` snippets that the
// pages' whole text holds, as a page reads once made readable (see
// readable, noscript content included): rendered as Text is, and with
// one line break between blocks, the ground truth's habit.
// Under the benchmark's literal substring rule no extraction finds more
// than the whole text rendered its way (the target: 85%). It
// fails when either figure moves 0.1 point from the recorded one, so the
// README's stays true when readable or renderText change.
func TestWithCeilingWCXB(t *testing.T) {
	if testing.Short() || testenv.Race {
		t.Skip("a measurement: renders 1,497 pages (not under the race detector, which only slows it)")
	}
	pages := wcxb.Load(t)
	texts := make([]string, len(pages))
	parallel(len(pages), func(i int) {
		doc, err := parseHTML(string(pages[i].HTML))
		if err != nil {
			t.Errorf("page %s: %v", pages[i].ID, err)
			return
		}
		unwrapNoscript(doc)
		readable(doc, nil)
		texts[i] = articleText(doc)
	})
	score := func(render func(string) string) wcxbRun {
		scores := make([]wcxb.PageScore, len(pages))
		for i, p := range pages {
			scores[i] = wcxb.Score(p.Truth, render(texts[i]))
		}
		return wcxb.ByType(pages, scores)
	}
	asText := score(func(s string) string { return s })
	asLines := score(singleBreaks)
	t.Logf("the pages' whole text finds %.2f%% of the with snippets rendered as Text is, %.2f%% with single line breaks",
		100*asText[""].With, 100*asLines[""].With)
	for _, typ := range wcxb.SortedTypes(asText) {
		t.Logf("  %-14s %.2f%%  %.2f%%", typ, 100*asText[typ].With, 100*asLines[typ].With)
	}
	for _, c := range []struct {
		name      string
		got, want float64
	}{{"as Text renders", asText[""].With, withCeilingRecorded.asText}, {"with single line breaks", asLines[""].With, withCeilingRecorded.asLines}} {
		if math.Abs(c.got-c.want) > 0.001 {
			t.Errorf("whole text %s: with %.4f, recorded %.4f (update the README too)", c.name, c.got, c.want)
		}
	}
}

// singleBreaks removes text's blank lines.
func singleBreaks(text string) string {
	lines := strings.FieldsFunc(text, func(r rune) bool { return r == '\n' })
	return strings.Join(lines, "\n")
}

// unwrapNoscript replaces each <noscript> of doc with its children: the
// whole text includes what the page shows without scripts, where
// Discourse serves its threads.
func unwrapNoscript(doc *html.Node) {
	var found []*html.Node
	for n := range doc.Descendants() {
		if n.Type == html.ElementNode && n.DataAtom == atom.Noscript {
			found = append(found, n)
		}
	}
	for _, n := range found {
		for c := n.FirstChild; c != nil; c = n.FirstChild {
			n.RemoveChild(c)
			n.Parent.InsertBefore(c, n)
		}
		n.Parent.RemoveChild(n)
	}
}
