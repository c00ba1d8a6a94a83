package content

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/webinfra/webinfra/internal/articlebench"
	"github.com/webinfra/webinfra/internal/cputime"
	"github.com/webinfra/webinfra/internal/wcxb"
)

// BenchmarkExtract runs each variant over the 181 benchmark pages, one
// page at a time on one goroutine, each call starting from the page's
// bytes (parsing included), and reports pages/s. Compare figures from
// one run only. With -cpu 1 each extractor has one core, its garbage
// collection and go-trafilatura's charset-detection goroutines included,
// which makes pages/s a per-core throughput; with more cores they run
// beside it:
//
//	go test -run '^$' -bench 'Extract$' -benchtime 2x -count 3 -cpu 1 ./extract/content/
func BenchmarkExtract(b *testing.B) {
	benchPages(b, articlebench.Load(b))
}

// BenchmarkExtractWCXB is BenchmarkExtract over the 1,497 pages of the
// WCXB development set (seven page types):
//
//	go test -run '^$' -bench ExtractWCXB -benchtime 1x -count 3 -cpu 1 ./extract/content/
func BenchmarkExtractWCXB(b *testing.B) {
	benchPages(b, wcxbPages(b))
}

// BenchmarkPaired measures each mode against the library it is to
// outpace (accurate mode go-trafilatura, fast mode readeck) side by side:
// page by page, the two run one after the other, which goes first
// alternating, and each one's wall time is summed. A machine whose speed
// drifts (other work, frequency scaling) then slows both alike, where
// separate runs of BenchmarkExtract a minute apart can differ by a
// fifth. It reports each one's pages/s and ours/theirs, the speed ratio:
//
//	go test -run '^$' -bench Paired -benchtime 1x -count 3 -cpu 1 ./extract/content/
func BenchmarkPaired(b *testing.B) {
	benchPaired(b, articlebench.Load(b))
}

// BenchmarkPairedWCXB is BenchmarkPaired over the WCXB development set.
func BenchmarkPairedWCXB(b *testing.B) {
	benchPaired(b, wcxbPages(b))
}

func benchPaired(b *testing.B, pages []articlebench.Page) {
	pairs := []struct {
		name         string
		ours, theirs extractor
	}{
		{"accurate-vs-go-trafilatura", ours(ModeAccurate), goTrafilatura},
		{"fast-vs-readeck", ours(ModeFast), readeck},
	}
	for _, pair := range pairs {
		b.Run(pair.name, func(b *testing.B) {
			var tOurs, tTheirs time.Duration
			timed := func(ex extractor, p articlebench.Page, sum *time.Duration) {
				start := time.Now()
				if _, err := ex(p); err != nil {
					b.Fatal(err)
				}
				*sum += time.Since(start)
			}
			for b.Loop() {
				for i, p := range pages {
					if i%2 == 0 {
						timed(pair.ours, p, &tOurs)
						timed(pair.theirs, p, &tTheirs)
					} else {
						timed(pair.theirs, p, &tTheirs)
						timed(pair.ours, p, &tOurs)
					}
				}
			}
			n := float64(len(pages) * b.N)
			b.ReportMetric(n/tOurs.Seconds(), "ours-pages/s")
			b.ReportMetric(n/tTheirs.Seconds(), "theirs-pages/s")
			b.ReportMetric(tTheirs.Seconds()/tOurs.Seconds(), "ours/theirs")
		})
	}
}

// wcxbPages is the WCXB development set as benchmark pages.
func wcxbPages(b *testing.B) []articlebench.Page {
	dev := wcxb.Load(b)
	pages := make([]articlebench.Page, len(dev))
	for i, p := range dev {
		pages[i] = articlebench.Page{ID: p.ID, URL: p.URL, HTML: p.HTML}
	}
	return pages
}

// benchPages runs each extractor over pages as a sub-benchmark. Besides
// pages/s it reports pages per second of the process's CPU time (user
// and system, the garbage collector's work on other cores included):
// on a machine shared with other work the wall clock counts the waits
// for a core, CPU time mostly does not.
func benchPages(b *testing.B, pages []articlebench.Page) {
	var size int64
	for _, p := range pages {
		size += int64(len(p.HTML))
	}
	for _, ex := range extractors {
		b.Run(ex.name, func(b *testing.B) {
			b.SetBytes(size)
			b.ReportAllocs()
			cpu := cputime.Process()
			for b.Loop() {
				for _, p := range pages {
					if _, err := ex.run(p); err != nil {
						b.Fatal(err)
					}
				}
			}
			cpu = cputime.Process() - cpu
			b.ReportMetric(float64(len(pages)*b.N)/b.Elapsed().Seconds(), "pages/s")
			b.ReportMetric(float64(len(pages)*b.N)/cpu.Seconds(), "pages/cpu-s")
		})
	}
}

// BenchmarkHostilePages times each mode on pages of 9 MiB (under the
// 10 MiB input cap) shaped to be costly: grids of cards, paragraphs by
// the hundred thousand, headings with lists, "related" blocks, one
// paragraph of 9 MiB. Each page is parsed and extracted whole; B/op is
// what the extraction allocates. Accurate mode reads the first four in
// fast mode (see affordsAccurate):
//
//	go test -run '^$' -bench Hostile -benchtime 1x ./extract/content/
func BenchmarkHostilePages(b *testing.B) {
	const size = 9 << 20
	fill := func(unit string) string { return strings.Repeat(unit, size/len(unit)) }
	pages := []struct{ name, html string }{
		{"cards", "<main>" + fill(`<div class="card"><a href="/item">An item title of words</a><p>Its description is here.</p></div>`)},
		{"paragraphs", fill("<p>Some words of a paragraph here.</p>")},
		{"headings", fill("<h2>Heading words</h2><ul><li>a b c</li></ul>")},
		{"related", fill(`<div><h3>You may also like</h3><div><a href="/p">Product</a></div></div>`)},
		{"one-paragraph", "<p>" + fill("word ") + "</p>"},
	}
	for _, m := range []Mode{ModeAccurate, ModeFast} {
		for _, p := range pages {
			b.Run(string(m)+"/"+p.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := Extract(context.Background(), Input{HTML: p.html, URL: "https://example.com/p", Mode: m}, nil); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
