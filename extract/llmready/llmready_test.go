package llmready_test

import (
	"context"
	"strings"
	"testing"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/extract/chunk"
	"github.com/webinfra/webinfra/extract/llmready"
)

const article = `<html lang="en"><head><title>Tides</title></head><body><nav><a href="/">Home</a></nav>
<article><h1>Tides</h1><p>The tide rises and falls twice a day along most coasts, pulled by the moon and, to a lesser degree, by the sun.</p>
<h2>Spring tides</h2><p>When the sun and the moon line up, their pulls add together and the range between high and low water is at its widest.</p></article>
<footer>Footer</footer></body></html>`

func TestBuild(t *testing.T) {
	res, err := llmready.Build(context.Background(), []byte(article), "https://example.com/tides", &llmready.Options{Chunk: chunk.Options{ChunkSize: 32, ChunkOverlap: 8}})
	if err != nil {
		t.Fatal(err)
	}
	if res.ContentSource != llmready.SourceArticle || res.Title != "Tides" || len(res.Chunks) < 2 {
		t.Fatalf("result = %+v", res)
	}
	for _, c := range res.Chunks {
		if c.Start < 0 || c.End > len(article) || c.Start >= c.End || strings.Contains(c.Text, "Footer") {
			t.Fatalf("chunk %+v", c)
		}
	}
	last := res.Chunks[len(res.Chunks)-1]
	if !strings.Contains(article[last.Start:last.End], "widest") || strings.Join(last.HeadingPath, "/") != "Spring tides" {
		t.Fatalf("last chunk %+v: %q", last, article[last.Start:last.End])
	}
}

// A page without an article is chunked whole.
func TestBuildWholePage(t *testing.T) {
	res, err := llmready.Build(context.Background(), []byte(`<html><body><nav><a href="/a">Alpha</a> <a href="/b">Beta</a></nav></body></html>`), "https://example.com/", nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.ContentSource != llmready.SourcePage || len(res.Chunks) != 1 || res.Chunks[0].Text == "" {
		t.Fatalf("result = %+v", res)
	}
}

// A page nested too deeply for the HTML parser is chunked whole.
func TestBuildDeepPage(t *testing.T) {
	page := strings.Repeat("<div>", 700) + "<p>Deep inside the page there is still some text to embed.</p>" + strings.Repeat("</div>", 700)
	res, err := llmready.Build(context.Background(), []byte(page), "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.ContentSource != llmready.SourcePage || len(res.Chunks) != 1 || !strings.Contains(page[res.Chunks[0].Start:res.Chunks[0].End], "still some text") {
		t.Fatalf("result = %+v", res)
	}
}

func TestBuildErrors(t *testing.T) {
	for _, tc := range []struct {
		page, field string
		opts        llmready.Options
	}{
		{"<script>x()</script>", "page", llmready.Options{}},
		{article, "chunk_size", llmready.Options{Chunk: chunk.Options{ChunkSize: 5}}},
		{article, "mode", llmready.Options{Mode: "sloppy"}},
	} {
		_, err := llmready.Build(context.Background(), []byte(tc.page), "", &tc.opts)
		if errs.FieldOf(err) != tc.field {
			t.Errorf("%q %+v: error %v, want one on field %s", tc.page, tc.opts, err, tc.field)
		}
	}
}
