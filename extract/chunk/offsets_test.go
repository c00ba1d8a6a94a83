package chunk_test

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/webinfra/webinfra/extract/chunk"
	"github.com/webinfra/webinfra/extract/content"
	"github.com/webinfra/webinfra/internal/articlebench"
)

// extracted is a benchmark page with its main content, extracted once.
type extracted struct {
	articlebench.Page
	Markdown string // the article as markdown
	Text     string // the article as plain text
}

var (
	extractOnce sync.Once
	extractAll  []extracted
)

// benchPages loads the benchmark and extracts every page's article with
// extract/content, as POST /v1/scrape/llm-ready does (skipping the test
// when the benchmark is missing).
func benchPages(tb testing.TB) []extracted {
	tb.Helper()
	pages := articlebench.Load(tb)
	extractOnce.Do(func() {
		for _, p := range pages {
			e := extracted{Page: p}
			r, err := content.Extract(context.Background(), content.Input{HTML: string(p.HTML), URL: p.URL}, nil)
			if err == nil {
				e.Markdown, e.Text = r.Markdown, r.Text
			}
			extractAll = append(extractAll, e)
		}
	})
	return extractAll
}

// visibleText is the test's own idea of a stretch of page: the
// tokenizer's text tokens (character references decoded) outside script,
// style, noscript and template, with every tag removed (joined with
// nothing, so a word split by inline markup stays whole; words are then
// matched as substrings, so words of two blocks that touch still match).
func visibleText(b []byte) string {
	z := html.NewTokenizer(bytes.NewReader(b))
	var sb strings.Builder
	skip := atom.Atom(0)
	for {
		switch z.Next() {
		case html.ErrorToken:
			return sb.String()
		case html.TextToken:
			if skip == 0 {
				sb.Write(z.Text())
			}
		case html.StartTagToken:
			name, _ := z.TagName()
			if a := atom.Lookup(name); skip == 0 && (a == atom.Script || a == atom.Style || a == atom.Noscript || a == atom.Template) {
				skip = a
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			if atom.Lookup(name) == skip {
				skip = 0
			}
		}
	}
}

// inOrder returns the index of the first word of words that is not found
// in text after the previous one, or -1 when all are found in order.
func inOrder(words []string, text string) int {
	at := 0
	for i, w := range words {
		k := strings.Index(text[at:], w)
		if k < 0 {
			return i
		}
		at += k + len(w)
	}
	return -1
}

// checkChunks asserts the guarantees of Split for one result and returns
// the chunks' own words (overlap removed).
func checkChunks(t *testing.T, page []byte, res *chunk.Result, size, overlap int, overlapSum *int) []string {
	t.Helper()
	ids := map[string]bool{}
	var own []string
	for k, c := range res.Chunks {
		if c.Index != k {
			t.Errorf("chunk %d: index %d", k, c.Index)
		}
		if !(0 <= c.Start && c.Start < c.End && c.End <= len(page)) {
			t.Fatalf("chunk %d: bad offsets [%d, %d) of %d bytes", k, c.Start, c.End, len(page))
		}
		words := articlebench.Words(c.Text)
		if len(words) == 0 {
			t.Errorf("chunk %d: no words in %q", k, c.Text)
		}
		if miss := inOrder(words, visibleText(page[c.Start:c.End])); miss >= 0 {
			t.Errorf("chunk %d: word %d %q of %q not in order in page[%d:%d] = %q",
				k, miss, words[miss], c.Text, c.Start, c.End, trunc(string(page[c.Start:c.End]), 2000))
		}
		if ids[c.ID] || c.ID == "" {
			t.Errorf("chunk %d: id %q empty or repeated", k, c.ID)
		}
		ids[c.ID] = true
		if c.TokenCount <= 0 {
			t.Errorf("chunk %d: token_count %d", k, c.TokenCount)
		}
		if c.TokenCount > size && len(words) > 1 {
			t.Errorf("chunk %d: %d tokens > %d: %q", k, c.TokenCount, size, c.Text)
		}
		if c.CharCount != len([]rune(c.Text)) {
			t.Errorf("chunk %d: char_count %d", k, c.CharCount)
		}
		r := []rune(c.Text)
		if c.OverlapChars > len(r) {
			t.Fatalf("chunk %d: overlap_chars %d > %d", k, c.OverlapChars, len(r))
		}
		ov := string(r[:c.OverlapChars])
		if k == 0 && c.OverlapChars != 0 {
			t.Errorf("chunk 0 overlaps")
		}
		if k > 0 {
			prev := res.Chunks[k-1]
			if !strings.HasSuffix(prev.Text, ov) {
				t.Errorf("chunk %d: overlap %q is not the end of chunk %d %q", k, ov, k-1, trunc(prev.Text, 300))
			}
			if c.OverlapTokens > overlap || (c.OverlapTokens == 0) != (c.OverlapChars == 0) {
				t.Errorf("chunk %d: overlap of %d tokens, %d chars; chunk_overlap %d", k, c.OverlapTokens, c.OverlapChars, overlap)
			}
			// An overlap is left out only when the previous chunk's last
			// word alone is too long for it, or this chunk's first word
			// leaves no room for it.
			pw, cw := articlebench.Words(prev.Text), articlebench.Words(c.Text)
			if overlap > 0 && c.OverlapChars == 0 && len(pw) > 1 && len(cw) > 0 && chunk.CountTokens(pw[len(pw)-1]) <= overlap/2 &&
				chunk.CountTokens(cw[0])+4 <= size-overlap {
				t.Errorf("chunk %d: no overlap after %q", k, trunc(prev.Text, 300))
			}
			*overlapSum += c.OverlapTokens
			if c.Start < prev.Start || (c.OverlapChars > 0 && c.Start >= prev.End) {
				t.Errorf("chunk %d: starts at %d, previous chunk [%d, %d)", k, c.Start, prev.Start, prev.End)
			}
		}
		own = append(own, articlebench.Words(string(r[c.OverlapChars:]))...)
	}
	return own
}

func trunc(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// coverage is the share of the reference words (those also in the page's
// visible text) that the chunks' own words cover, as multisets. Words of
// scripts written without spaces count character by character, since
// chunks may end inside them.
func coverage(ref []string, page *pageWords, own []string) (covered, total int) {
	have := map[string]int{}
	for _, w := range units(own) {
		have[w]++
	}
	for _, w := range units(ref) {
		if !page.has(w) {
			continue
		}
		total++
		if have[w] > 0 {
			have[w]--
			covered++
		}
	}
	return covered, total
}

// units splits words of Han, kana and Thai into characters.
func units(words []string) []string {
	var out []string
	for _, w := range words {
		if !strings.ContainsFunc(w, func(r rune) bool {
			return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Thai)
		}) {
			out = append(out, w)
			continue
		}
		for _, r := range w {
			out = append(out, string(r))
		}
	}
	return out
}

// pageWords is the page's visible text and its words, with tags read as
// nothing and as a space.
type pageWords struct {
	text  string
	words map[string]bool
}

func newPageWords(page []byte) *pageWords {
	p := &pageWords{text: visibleText(page), words: map[string]bool{}}
	for _, w := range articlebench.Words(p.text) {
		p.words[w] = true
	}
	spaced := visibleText(bytes.ReplaceAll(page, []byte("<"), []byte(" <")))
	for _, w := range articlebench.Words(spaced) {
		p.words[w] = true
	}
	return p
}

func (p *pageWords) has(w string) bool {
	return p.words[w] || utf8.RuneCountInString(w) == 1 && strings.Contains(p.text, w)
}

// TestOffsetsBenchmark is the property test over the 181 real pages of
// the article-extraction benchmark: for every chunk, its words are in
// order in the page's visible text between its offsets.
func TestOffsetsBenchmark(t *testing.T) {
	if testing.Short() {
		t.Skip("extracts 181 pages")
	}
	pages := benchPages(t)
	for _, tc := range []struct {
		name string
		opts chunk.Options
	}{
		{"markdown", chunk.Options{}},
		{"markdown-small", chunk.Options{ChunkSize: 64, ChunkOverlap: 16}},
		{"text", chunk.Options{Format: chunk.FormatText, ChunkSize: 256, ChunkOverlap: -1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var nPages, nChunks, covered, total, overlapSum, below int
			worst, worstID := 1.0, ""
			for _, p := range pages {
				content := p.Markdown
				if tc.opts.Format == chunk.FormatText {
					content = p.Text
				}
				if strings.TrimSpace(content) == "" {
					continue
				}
				res, err := chunk.Split(p.HTML, content, &tc.opts)
				if err != nil {
					t.Errorf("%s: %v", p.ID, err)
					continue
				}
				nPages++
				nChunks += len(res.Chunks)
				own := checkChunks(t, p.HTML, res, res.ChunkSize, res.ChunkOverlap, &overlapSum)
				c, n := coverage(articlebench.Words(p.Text), newPageWords(p.HTML), own)
				covered += c
				total += n
				if n > 0 && float64(c)/float64(n) < worst {
					worst, worstID = float64(c)/float64(n), p.ID
				}
				if n > 0 && float64(c) < 0.95*float64(n) {
					below++
					t.Logf("coverage %.3f on %s (%s)", float64(c)/float64(n), p.ID, p.URL)
				}
				if t.Failed() {
					t.Fatalf("page %s (%s)", p.ID, p.URL)
				}
			}
			cov := float64(covered) / float64(max(total, 1))
			meanOverlap := float64(overlapSum) / float64(max(nChunks-nPages, 1))
			t.Logf("%d pages, %d chunks, coverage %.4f (%d/%d words), %d pages under 0.95, worst page %.3f (%s), mean overlap %.1f tokens",
				nPages, nChunks, cov, covered, total, below, worst, worstID, meanOverlap)
			if below > nPages/50 {
				t.Errorf("%d pages have a coverage under 0.95", below)
			}
			if want := res0(tc.opts).ChunkOverlap; meanOverlap < 0.7*float64(want) {
				t.Errorf("mean overlap %.1f tokens, want about %d", meanOverlap, want)
			}
			if nPages < 170 {
				t.Errorf("only %d pages had content", nPages)
			}
			if cov < 0.95 {
				t.Errorf("coverage %.4f < 0.95", cov)
			}
		})
	}
}

// res0 is the options Split resolves opts to.
func res0(opts chunk.Options) *chunk.Result {
	res, err := chunk.Split([]byte("<p>a</p>"), "a", &opts)
	if err != nil {
		panic(err)
	}
	return res
}
