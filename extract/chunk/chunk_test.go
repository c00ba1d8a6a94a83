package chunk_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/extract/chunk"
	"github.com/webinfra/webinfra/internal/articlebench"
)

// split runs Split and checks the guarantees every result must keep.
func split(t *testing.T, page, content string, opts *chunk.Options) *chunk.Result {
	t.Helper()
	res, err := chunk.Split([]byte(page), content, opts)
	if err != nil {
		t.Fatalf("Split: %v", err)
	}
	var sum int
	checkChunks(t, []byte(page), res, res.ChunkSize, res.ChunkOverlap, &sum)
	return res
}

func TestEntities(t *testing.T) {
	page := "<html><body><p>Tom &amp; Jerry&#8217;s caf&eacute;&nbsp;bar &copy;2019 &#x4E2D;&#25991;</p></body></html>"
	res := split(t, page, "Tom & Jerry’s café\u00a0bar ©2019 中文", nil)
	if len(res.Chunks) != 1 || res.AlignedWords != res.ContentWords {
		t.Fatalf("got %+v", res)
	}
	c := res.Chunks[0]
	if want := "Tom & Jerry’s café\u00a0bar ©2019 中文"; c.Text != want {
		t.Errorf("text %q, want %q", c.Text, want)
	}
	if got := page[c.Start:c.End]; got != "Tom &amp; Jerry&#8217;s caf&eacute;&nbsp;bar &copy;2019 &#x4E2D;&#25991;" {
		t.Errorf("page[start:end] = %q", got)
	}
}

func TestEntitiesInMarkdown(t *testing.T) {
	// html-to-markdown leaves some references in its output
	page := "<p>Watch &lt;The Palace&gt; &amp; more</p>"
	res := split(t, page, `Watch &lt;The Palace&gt; &amp; more`, nil)
	if c := res.Chunks[0]; c.Text != "Watch <The Palace> & more" || page[c.Start:c.End] != "Watch &lt;The Palace&gt; &amp; more" {
		t.Errorf("got %q at %q", c.Text, page[c.Start:c.End])
	}
}

func TestWordSplitByInlineTags(t *testing.T) {
	page := "<div><p><b>Hel</b>lo wor<i>ld</i>, <span>to</span><em>day</em>.</p><p>Next<br>line</p></div>"
	res := split(t, page, "Hello world, today.\n\nNext\nline", nil)
	if res.AlignedWords != 5 || res.ContentWords != 5 {
		t.Fatalf("aligned %d of %d words", res.AlignedWords, res.ContentWords)
	}
	c := res.Chunks[0]
	if !strings.HasPrefix(page[c.Start:], "<b>Hel") && !strings.HasPrefix(page[c.Start:], "Hel</b>") {
		t.Errorf("start at %q", page[c.Start:])
	}
	if !strings.HasSuffix(page[:c.End], "line") {
		t.Errorf("end at %q", page[:c.End])
	}
}

func TestBlockTagsSplitWords(t *testing.T) {
	// minified markup: "</li><li>" separates words with no text between
	page := "<ul><li>alpha</li><li>beta</li></ul><table><tr><td>1</td><td>2</td></tr></table>"
	res := split(t, page, "- alpha\n- beta\n\n| 1 | 2 |", nil)
	if res.AlignedWords != 4 {
		t.Fatalf("aligned %d of %d", res.AlignedWords, res.ContentWords)
	}
	if want := "- alpha\n- beta\n\n1 | 2"; res.Chunks[0].Text != want {
		t.Errorf("text %q, want %q", res.Chunks[0].Text, want)
	}
}

func TestJoinedAndSplitWords(t *testing.T) {
	// the extractor joined two cells, and split a word the page joins
	page := "<table><tr><td>Pos.</td><td>Driver</td></tr></table><p>The <span>quick</span>brown fox</p>"
	res := split(t, page, "Pos.Driver\n\nThe quick brown fox", nil)
	if res.AlignedWords != res.ContentWords {
		t.Errorf("aligned %d of %d: %q", res.AlignedWords, res.ContentWords, res.Chunks[0].Text)
	}
	// cells the extractor ran together though the page has text between
	// them: cut apart again
	page = "<p>Standings:</p><table>\n<tr>\n <td>1</td>\n <td>Kyle Busch</td>\n <td>5040</td>\n</tr>\n<tr>\n <td>2</td>\n <td>Martin Truex</td>\n</tr></table>"
	res = split(t, page, "Standings:\n\n1Kyle Busch50402Martin Truex", nil)
	if got, want := res.Chunks[0].Text, "Standings:\n\n1 Kyle Busch 5040 2 Martin Truex"; got != want {
		t.Errorf("text %q, want %q", got, want)
	}
}

func TestRepeatedParagraphs(t *testing.T) {
	teaser := "Breaking news about the river flood today"
	page := `<html><body>
<nav><p>` + teaser + `</p><p>Other story headline</p></nav>
<article><h1>River flood</h1>
<p>` + teaser + `</p>
<p>Water levels rose by two metres overnight in the old town.</p>
<p>` + teaser + `</p>
</article>
<aside><p>Water levels rose by two metres overnight in the old town.</p><p>` + teaser + `</p></aside>
</body></html>`
	content := teaser + "\n\nWater levels rose by two metres overnight in the old town.\n\n" + teaser
	res := split(t, page, content, nil)
	if len(res.Chunks) != 1 {
		t.Fatalf("%d chunks", len(res.Chunks))
	}
	c := res.Chunks[0]
	article := strings.Index(page, "<article>")
	aside := strings.Index(page, "<aside>")
	if c.Start < article || c.End > aside {
		t.Errorf("chunk at [%d, %d), article is [%d, %d): %q", c.Start, c.End, article, aside, page[c.Start:c.End])
	}
	if want := strings.Index(page[article:], teaser) + article; c.Start != want {
		t.Errorf("start %d, want %d", c.Start, want)
	}
}

func TestHeadingPath(t *testing.T) {
	para := func(s string) string {
		return strings.Repeat(s+" sentence number one is here and it has quite a few words in it. ", 2)
	}
	page := "<h1>Alpha</h1><p>" + para("a") + "</p><h2>Beta</h2><p>" + para("b") + "</p><h3>Gamma</h3><p>" +
		para("c") + "</p><h2>Delta</h2><p>" + para("d") + "</p>"
	md := "# Alpha\n\n" + para("a") + "\n\n## Beta\n\n" + para("b") + "\n\n### Gamma\n\n" + para("c") + "\n\n## Delta\n\n" + para("d")
	want := [][]string{{"Alpha"}, {"Alpha", "Beta"}, {"Alpha", "Beta", "Gamma"}, {"Alpha", "Delta"}}
	for _, tc := range []struct {
		name, content string
		opts          chunk.Options
	}{
		{"markdown", md, chunk.Options{ChunkSize: 40, ChunkOverlap: -1}},
		// plain text: the headings are known from the page's h1–h6
		{"text", strings.NewReplacer("### ", "", "## ", "", "# ", "").Replace(md), chunk.Options{ChunkSize: 40, ChunkOverlap: -1, Format: chunk.FormatText}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := split(t, page, tc.content, &tc.opts)
			var got [][]string
			for _, c := range res.Chunks {
				if len(got) == 0 || !reflect.DeepEqual(got[len(got)-1], c.HeadingPath) {
					got = append(got, c.HeadingPath)
				}
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("heading paths %q, want %q", got, want)
			}
			for _, c := range res.Chunks {
				// every chunk starts at its section's heading or inside it
				if strings.HasPrefix(c.Text, "sentence") {
					t.Errorf("chunk starts right after a heading: %q", c.Text)
				}
			}
		})
	}
}

func TestOverlap(t *testing.T) {
	var sb strings.Builder
	var page strings.Builder
	page.WriteString("<article>")
	for i := range 40 {
		s := fmt.Sprintf("Sentence %d tells about item %d in the list of things.", i, i*7)
		sb.WriteString(s + " ")
		page.WriteString("<p>" + s + "</p>\n")
	}
	page.WriteString("</article>")
	content := strings.ReplaceAll(sb.String(), ". ", ".\n\n")
	res := split(t, page.String(), content, &chunk.Options{ChunkSize: 60, ChunkOverlap: 20})
	if len(res.Chunks) < 5 {
		t.Fatalf("%d chunks", len(res.Chunks))
	}
	for k, c := range res.Chunks[1:] {
		prev := res.Chunks[k]
		if c.OverlapTokens < 10 || c.OverlapTokens > 20 {
			t.Errorf("chunk %d: overlap %d tokens", k+1, c.OverlapTokens)
		}
		ov := string([]rune(c.Text)[:c.OverlapChars])
		if !strings.HasSuffix(prev.Text, ov) || c.Start >= prev.End {
			t.Errorf("chunk %d: overlap %q, previous %q", k+1, ov, prev.Text)
		}
		if c.TokenCount > 60 {
			t.Errorf("chunk %d: %d tokens", k+1, c.TokenCount)
		}
	}
	none := split(t, page.String(), content, &chunk.Options{ChunkSize: 60, ChunkOverlap: -1})
	for k, c := range none.Chunks[1:] {
		if c.OverlapChars != 0 || c.Start < none.Chunks[k].End {
			t.Errorf("chunk %d overlaps with overlap off", k+1)
		}
	}
}

func TestTinyContent(t *testing.T) {
	page := "<p>Hello</p>"
	res := split(t, page, "Hello", nil)
	if len(res.Chunks) != 1 {
		t.Fatalf("%d chunks", len(res.Chunks))
	}
	c := res.Chunks[0]
	if c.Text != "Hello" || c.Start != 3 || c.End != 8 || c.TokenCount != 1 || c.CharCount != 5 || c.Index != 0 {
		t.Errorf("got %+v", c)
	}
	if len(c.HeadingPath) != 0 || c.HeadingPath == nil {
		t.Errorf("heading path %#v, want empty, not null", c.HeadingPath)
	}
}

func TestErrors(t *testing.T) {
	page := []byte("<p>Some words</p>")
	for _, tc := range []struct {
		name, content, field string
		opts                 *chunk.Options
	}{
		{"empty", "", "content", nil},
		{"blank", " \n\t ", "content", nil},
		{"only an image", "![a photo](x.jpg)", "content", nil},
		{"not in the page", "entirely different text", "content", nil},
		{"size too small", "Some words", "chunk_size", &chunk.Options{ChunkSize: 31}},
		{"size too big", "Some words", "chunk_size", &chunk.Options{ChunkSize: 8193}},
		{"size negative", "Some words", "chunk_size", &chunk.Options{ChunkSize: -1}},
		{"overlap too big", "Some words", "chunk_overlap", &chunk.Options{ChunkSize: 100, ChunkOverlap: 100}},
		{"overlap over half", "Some words", "chunk_overlap", &chunk.Options{ChunkSize: 32, ChunkOverlap: 17}},
		{"overlap below -1", "Some words", "chunk_overlap", &chunk.Options{ChunkOverlap: -5}},
		{"format", "Some words", "format", &chunk.Options{Format: "html"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := chunk.Split(page, tc.content, tc.opts)
			if !errs.Is(err, errs.KindInvalid) || errs.FieldOf(err) != tc.field {
				t.Errorf("err %v (field %q), want invalid %s", err, errs.FieldOf(err), tc.field)
			}
		})
	}
}

func TestOptionDefaults(t *testing.T) {
	page := []byte("<p>Some words</p>")
	for _, tc := range []struct {
		opts          *chunk.Options
		size, overlap int
	}{
		{nil, 512, 64},
		{&chunk.Options{}, 512, 64},
		{&chunk.Options{ChunkSize: 32}, 32, 8},
		{&chunk.Options{ChunkSize: 8192, ChunkOverlap: 4096}, 8192, 4096},
		{&chunk.Options{ChunkSize: 33, ChunkOverlap: 16}, 33, 16},
		{&chunk.Options{ChunkOverlap: -1}, 512, 0},
		{&chunk.Options{Format: "TEXT"}, 512, 64},
	} {
		res, err := chunk.Split(page, "Some words", tc.opts)
		if err != nil || res.ChunkSize != tc.size || res.ChunkOverlap != tc.overlap || res.Tokenizer != chunk.TokenizerName {
			t.Errorf("%+v: %+v, %v", tc.opts, res, err)
		}
	}
}

func TestCRLFAndMultibyte(t *testing.T) {
	page := "<!DOCTYPE html>\r\n<html>\r\n<head><title>Ünïcödé title</title></head>\r\n<body>\r\n" +
		"<h1>Crème brûlée</h1>\r\n<p>Naïve café — 日本語のテキスト、\r\nand emoji 🎉 naïve ending.</p>\r\n</body>\r\n</html>\r\n"
	content := "# Crème brûlée\r\n\r\nNaïve café — 日本語のテキスト、\r\nand emoji 🎉 naïve ending."
	res := split(t, page, content, &chunk.Options{ChunkSize: 32, ChunkOverlap: 4})
	if res.AlignedWords != res.ContentWords {
		t.Errorf("aligned %d of %d", res.AlignedWords, res.ContentWords)
	}
	first, last := res.Chunks[0], res.Chunks[len(res.Chunks)-1]
	if first.Start != strings.Index(page, "Crème") || last.End != strings.Index(page, "ending")+len("ending") {
		t.Errorf("chunks span [%d, %d) = %q", first.Start, last.End, page[first.Start:last.End])
	}
	for _, c := range res.Chunks {
		if !strings.Contains(c.Text, "\n") && strings.Contains(c.Text, "\r") {
			t.Errorf("carriage return in %q", c.Text)
		}
		if got := page[c.Start:c.End]; !strings.HasPrefix(got, articlebench.Words(c.Text)[0]) {
			t.Errorf("chunk %q starts at %q", c.Text, got)
		}
	}
}

func TestMarkdownSyntaxRemoved(t *testing.T) {
	page := `<article><h2>Notes</h2><p>Read <a href="/docs">the <em>docs</em></a> now: <img src="i.png" alt="diagram of parts"> snake_case and <code>x*y</code>, 5*3.</p>
<pre><code>if a &lt; b { return }</code></pre><blockquote><p>Quoted <strong>words</strong></p></blockquote></article>`
	md := "## Notes\n\nRead [the *docs*](https://example.com/docs \"Docs\") now: ![diagram of parts](i.png) snake\\_case and `x*y`, 5*3.\n\n```go\nif a < b { return }\n```\n\n> Quoted **words**\n\n[ref]: https://example.com/"
	res := split(t, page, md, nil)
	want := "Notes\n\nRead the docs now:  snake_case and x*y, 5*3.\n\nif a < b { return }\n\nQuoted words"
	if got := res.Chunks[0].Text; got != want {
		t.Errorf("text\n%q, want\n%q", got, want)
	}
	if res.AlignedWords != res.ContentWords {
		t.Errorf("aligned %d of %d", res.AlignedWords, res.ContentWords)
	}
}

func TestUnalignedWordsDropped(t *testing.T) {
	page := `<p>The first paragraph is here.</p><figure><img alt="A fluffy orange cat"></figure><p>The second paragraph follows.</p>`
	res := split(t, page, "The first paragraph is here.\n\nPhoto: A fluffy orange cat\n\nThe second paragraph follows.", &chunk.Options{Format: chunk.FormatText})
	text := res.Chunks[0].Text
	for _, w := range []string{"Photo", "fluffy", "cat"} {
		if strings.Contains(text, w) {
			t.Errorf("%q kept in %q", w, text)
		}
	}
	if res.ContentWords-res.AlignedWords != 5 {
		t.Errorf("aligned %d of %d", res.AlignedWords, res.ContentWords)
	}
}

func TestStableIDs(t *testing.T) {
	page := "<p>" + strings.Repeat("Stable ids come from offsets and text. ", 60) + "</p>"
	content := strings.Repeat("Stable ids come from offsets and text. ", 60)
	a := split(t, page, content, &chunk.Options{ChunkSize: 64})
	b := split(t, page, content, &chunk.Options{ChunkSize: 64})
	if !reflect.DeepEqual(a, b) {
		t.Error("two runs differ")
	}
	if len(a.Chunks) < 3 || len(a.Chunks[0].ID) != 16 {
		t.Errorf("%d chunks, id %q", len(a.Chunks), a.Chunks[0].ID)
	}
}

func TestOversizeWord(t *testing.T) {
	long := strings.Repeat("x", 400)
	page := "<p>before words " + long + " after words</p>"
	res := split(t, page, "before words "+long+" after words", &chunk.Options{ChunkSize: 32, ChunkOverlap: 8})
	found := false
	for _, c := range res.Chunks {
		if c.Text == long {
			found = true
			if c.TokenCount <= 32 {
				t.Errorf("long word counted %d tokens", c.TokenCount)
			}
		}
	}
	if !found {
		t.Errorf("the long word is not a chunk of its own: %+v", res.Chunks)
	}
}

func TestUnspacedScriptNotGlued(t *testing.T) {
	// "語" is found only after other text: the chunk must not read "日本語"
	page := "<p>日本</p><p>ありがとう</p><p>語</p>"
	res := split(t, page, "日本語", nil)
	if got := res.Chunks[0].Text; got != "日本 語" {
		t.Errorf("text %q", got)
	}
	// side by side in the page, even across inline markup: kept together
	res = split(t, "<p>日<b>本</b>語</p>", "日本語", nil)
	if got := res.Chunks[0].Text; got != "日本語" {
		t.Errorf("text %q", got)
	}
}

// FuzzSplit checks that Split never panics and keeps its guarantees on
// any page and content.
func FuzzSplit(f *testing.F) {
	f.Add("<p>Tom &amp; Jerry<b>s</b> caf&eacute;</p><h2>Next</h2><p>日本語のテキスト</p>", "Tom & Jerrys café\n\n## Next\n\n日本語のテキスト", 32)
	f.Add("<ul><li>a</li><li>b<br>c</li></ul><script>x</script><svg><text>y</text>", "- a\n- b\nc\n\n[y](z) ![x](y) **q**", 40)
	f.Add("<table><td>1</td> <td>2</td></table>&#x1F600;&notit; &amp", "12 😀 ¬it &\n\n```\ncode\n```", 100)
	f.Fuzz(func(t *testing.T, page, content string, size int) {
		opts := &chunk.Options{ChunkSize: 32 + abs(size)%200, ChunkOverlap: abs(size) % 32}
		res, err := chunk.Split([]byte(page), content, opts)
		if err != nil {
			return
		}
		var sum int
		checkChunks(t, []byte(page), res, res.ChunkSize, res.ChunkOverlap, &sum)
	})
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// MaxChunks refuses content that would make more chunks, naming a
// chunk_size that fits, before building any chunk's text.
func TestMaxChunks(t *testing.T) {
	words := strings.Repeat("alpha beta gamma delta epsilon zeta eta theta. ", 200)
	page := []byte("<p>" + words + "</p>")
	_, err := chunk.Split(page, words, &chunk.Options{ChunkSize: 32, MaxChunks: 10})
	if errs.FieldOf(err) != "chunk_size" || !strings.Contains(err.Error(), "at most 10") {
		t.Fatalf("err %v", err)
	}
	res, err := chunk.Split(page, words, &chunk.Options{ChunkSize: 512, MaxChunks: 10})
	if err != nil || len(res.Chunks) > 10 {
		t.Fatalf("chunk_size 512: %v, %d chunks", err, len(res.Chunks))
	}
}

// A huge heading is cut in every chunk's heading path, so that the path,
// which each chunk repeats, cannot multiply the page.
func TestLongHeadingCut(t *testing.T) {
	t.Parallel()
	heading := strings.Repeat("héading ", 2000)
	body := strings.Repeat("body text here. ", 200)
	res := split(t, "<h1>"+heading+"</h1><p>"+body+"</p>", "# "+heading+"\n\n"+body, &chunk.Options{ChunkSize: 64, ChunkOverlap: -1})
	last := res.Chunks[len(res.Chunks)-1]
	if len(last.HeadingPath) != 1 {
		t.Fatalf("heading path %q", last.HeadingPath)
	}
	h := last.HeadingPath[0]
	if len(h) > chunk.MaxHeadingBytes || !strings.HasSuffix(h, "héading…") || !strings.HasPrefix(h, "héading héading") {
		t.Errorf("heading %d bytes: %q", len(h), h)
	}
}
