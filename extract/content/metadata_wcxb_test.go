package content

import (
	"bytes"
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	trafilatura "github.com/markusmobius/go-trafilatura"

	"github.com/webinfra/webinfra/internal/testenv"
	"github.com/webinfra/webinfra/internal/wcxb"
)

// metaValues is what an extractor says of a page's title, author and
// publication date ("" for what it does not find).
type metaValues struct {
	title, author, date string
}

// metaExtractor reads one page's metadata.
type metaExtractor func(p wcxb.Page) (metaValues, error)

// metaExtractors are the variants TestMetadataWCXB compares: ours in
// both modes, and go-trafilatura called directly as the text quality
// tests call it (Extract from a reader with the page's URL, defaults
// otherwise: htmldate in its fast mode).
var metaExtractors = []struct {
	name string
	run  metaExtractor
}{
	{"ours/accurate", oursMeta(ModeAccurate)},
	{"ours/fast", oursMeta(ModeFast)},
	{"go-trafilatura", goTrafilaturaMeta},
}

func oursMeta(m Mode) metaExtractor {
	return func(p wcxb.Page) (metaValues, error) {
		r, err := Extract(context.Background(), Input{HTML: string(p.HTML), URL: p.URL, Mode: m}, nil)
		if err != nil {
			return metaValues{}, err
		}
		return metaValues{r.Title, r.Byline, r.Published}, nil
	}
}

// goTrafilaturaMeta is go-trafilatura's metadata from its default call.
// Its date is formatted as a full-date (it is compared by day).
func goTrafilaturaMeta(p wcxb.Page) (metaValues, error) {
	u, _ := url.Parse(p.URL)
	r, err := trafilatura.Extract(bytes.NewReader(p.HTML), trafilatura.Options{OriginalURL: u})
	if err != nil || r == nil {
		return metaValues{}, nil // nothing extracted is no metadata, not a test failure
	}
	m := r.Metadata
	var date string
	if !m.Date.IsZero() {
		date = m.Date.Format(time.DateOnly)
	}
	return metaValues{m.Title, m.Author, date}, nil
}

// metaFields are the fields scored, each with its truth, the extractor's
// value and the rule that judges it (see wcxb.SameTitle, SameAuthor and
// SameDay for what "correct" means).
var metaFields = []struct {
	name  string
	truth func(wcxb.Truth) *string
	value func(metaValues) string
	same  func(truth, got string) bool
}{
	{"title", func(t wcxb.Truth) *string { return t.Title }, func(v metaValues) string { return v.title }, wcxb.SameTitle},
	{"author", func(t wcxb.Truth) *string { return t.Author }, func(v metaValues) string { return v.author }, wcxb.SameAuthor},
	{"date", func(t wcxb.Truth) *string { return t.PublishDate }, func(v metaValues) string { return v.date }, wcxb.SameDay},
}

// metaTally counts one field's outcomes over a set of pages.
type metaTally struct {
	stated, correct int // pages whose truth has a value; of them, those the extractor got right
	absent, made    int // pages whose truth is null; of them, those the extractor gave a value for
}

// accuracy is the share of pages with a true value that the extractor
// got right.
func (t metaTally) accuracy() float64 { return ratio(t.correct, t.stated) }

// spurious is the share of pages without a true value for which the
// extractor gave one.
func (t metaTally) spurious() float64 { return ratio(t.made, t.absent) }

func ratio(n, d int) float64 {
	if d == 0 {
		return 0
	}
	return float64(n) / float64(d)
}

// metaRun is one extractor's tallies by page type ("" for all pages) and
// field name.
type metaRun map[string]map[string]*metaTally

// metaMiss is a page where an extractor got a field wrong, for the
// verbose log.
type metaMiss struct {
	id, typ, field, truth, got string
}

// scoreMeta runs ex over every page and tallies each field.
func scoreMeta(t *testing.T, pages []wcxb.Page, ex metaExtractor) (metaRun, []metaMiss) {
	t.Helper()
	values := make([]metaValues, len(pages))
	errs := make([]error, len(pages))
	parallel(len(pages), func(i int) { values[i], errs[i] = ex(pages[i]) })
	run := metaRun{}
	var misses []metaMiss
	for i, p := range pages {
		if errs[i] != nil {
			t.Errorf("page %s: %v", p.ID, errs[i])
			continue
		}
		for _, f := range metaFields {
			truth, got := f.truth(p.Truth), strings.TrimSpace(f.value(values[i]))
			for _, typ := range []string{"", p.Type} {
				if run[typ] == nil {
					run[typ] = map[string]*metaTally{}
				}
				if run[typ][f.name] == nil {
					run[typ][f.name] = &metaTally{}
				}
				tl := run[typ][f.name]
				switch {
				case truth == nil || strings.TrimSpace(*truth) == "":
					tl.absent++
					if got != "" {
						tl.made++
					}
				case f.same(*truth, got):
					tl.stated++
					tl.correct++
				default:
					tl.stated++
				}
			}
			if truth != nil && strings.TrimSpace(*truth) != "" && !f.same(*truth, got) {
				misses = append(misses, metaMiss{p.ID, p.Type, f.name, *truth, got})
			}
		}
	}
	return run, misses
}

// metaRecorded is each mode's accuracy per field over all WCXB development
// pages as last measured; TestMetadataWCXB fails 0.002 below any.
var metaRecorded = map[string]map[string]float64{
	"ours/accurate": {"title": 0.8110, "author": 0.7348, "date": 0.8696},
	"ours/fast":     {"title": 0.8110, "author": 0.7240, "date": 0.8619},
}

// TestMetadataWCXB measures title, author and publication date against
// the WCXB development set's ground truth, for our two modes and
// go-trafilatura: per field, the share of pages with a true value that
// the extractor got right (see wcxb.SameTitle, SameAuthor, SameDay), and,
// secondary, the share of pages without one (no author or date: null or
// blank in the truth) for which it gave a value anyway. It logs the table
// by page type (with -v, the misses too), and fails when ours/accurate is
// below go-trafilatura on a field or a mode falls 0.002 below its
// recorded figure. Under the race detector it is skipped: the same
// extraction runs there in TestQualityWCXB.
func TestMetadataWCXB(t *testing.T) {
	if testing.Short() || testenv.Race {
		t.Skip("extracts 1,497 pages three times")
	}
	pages := wcxb.Load(t)
	runs := map[string]metaRun{}
	for _, ex := range metaExtractors {
		var misses []metaMiss
		runs[ex.name], misses = scoreMeta(t, pages, ex.run)
		if testing.Verbose() {
			for _, m := range misses {
				t.Logf("%s miss %s %s %s: want %q, got %q", ex.name, m.id, m.typ, m.field, m.truth, m.got)
			}
		}
	}
	t.Log("\n" + metaTable(runs))
	for name, recorded := range metaRecorded {
		for field, want := range recorded {
			if got := runs[name][""][field].accuracy(); got < want-0.002 {
				t.Errorf("%s %s: accuracy %.4f, recorded %.4f", name, field, got, want)
			}
		}
	}
	if ref, ok := runs["go-trafilatura"]; ok {
		for _, f := range metaFields {
			if ours, theirs := runs["ours/accurate"][""][f.name].accuracy(), ref[""][f.name].accuracy(); ours < theirs {
				t.Errorf("ours/accurate %s: accuracy %.4f, below go-trafilatura's %.4f", f.name, ours, theirs)
			}
		}
	}
}

// metaTable is accuracy by page type (rows) and extractor and field
// (columns), then the spurious rates over all pages.
func metaTable(runs map[string]metaRun) string {
	var b strings.Builder
	var names []string
	for _, ex := range metaExtractors {
		if runs[ex.name] != nil {
			names = append(names, ex.name)
		}
	}
	fmt.Fprintf(&b, "accuracy where the truth has a value (pages with one in brackets)\n%-14s", "type")
	for _, f := range metaFields {
		for _, n := range names {
			fmt.Fprintf(&b, " %*s", len(f.name)+16, f.name+" "+n)
		}
	}
	b.WriteString("\n")
	first := runs[names[0]]
	for _, typ := range append([]string{""}, wcxb.Types...) {
		if first[typ] == nil {
			continue
		}
		name := typ
		if name == "" {
			name = "all"
		}
		fmt.Fprintf(&b, "%-14s", name)
		for _, f := range metaFields {
			for _, n := range names {
				tl := runs[n][typ][f.name]
				fmt.Fprintf(&b, " %*s", len(f.name)+16, fmt.Sprintf("%.4f (%d)", tl.accuracy(), tl.stated))
			}
		}
		b.WriteString("\n")
	}
	b.WriteString("spurious: a value given where the truth has none\n")
	for _, n := range names {
		fmt.Fprintf(&b, "%-15s", n)
		for _, f := range metaFields[1:] {
			tl := runs[n][""][f.name]
			fmt.Fprintf(&b, " %s %.4f (%d/%d)", f.name, tl.spurious(), tl.made, tl.absent)
		}
		b.WriteString("\n")
	}
	return b.String()
}
