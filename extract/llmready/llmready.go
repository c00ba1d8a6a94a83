package llmready

import (
	"context"
	"net/url"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/extract/chunk"
	"github.com/webinfra/webinfra/extract/content"
	"github.com/webinfra/webinfra/extract/markdown"
)

// Where the chunked content came from.
const (
	SourceArticle = "article" // the page's article, as extract/content found it
	SourcePage    = "page"    // the whole page: no article was found
)

// Options choose the extraction mode and the chunking; nil means the
// defaults of both.
type Options struct {
	Mode  content.Mode
	Chunk chunk.Options
}

// Result is the article's metadata and its chunks.
type Result struct {
	Title         string `json:"title,omitempty" doc:"The article's headline."`
	Byline        string `json:"byline,omitempty" doc:"The author or authors, as the page names them."`
	Published     string `json:"published,omitempty" doc:"When the article was published (RFC 3339 date-time or full-date)."`
	Language      string `json:"language,omitempty" doc:"The article's language, an ISO 639-1 code."`
	ContentSource string `json:"content_source" enum:"article,page" doc:"article: the chunks are the page's article; page: no article was found and the whole page was chunked."`
	chunk.Result
}

// Build extracts the article of page (UTF-8 HTML; pageURL, optional, is
// its address) and splits it into chunks whose offsets index page.
func Build(ctx context.Context, page []byte, pageURL string, opts *Options) (*Result, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	art, err := content.Extract(ctx, content.Input{HTML: string(page), URL: pageURL, Mode: o.Mode}, nil)
	switch {
	case errs.Is(err, errs.KindTooLarge):
		// A page the HTML parser refuses (nested too deeply) has no
		// article; the streaming converter and the chunker take it whole.
		art = &content.Result{NoContent: true}
	case err != nil:
		return nil, err
	}
	out := &Result{Title: art.Title, Byline: art.Byline, Published: art.Published, Language: art.Language, ContentSource: SourceArticle}
	text := art.Markdown
	if art.NoContent || text == "" {
		var base *url.URL
		if pageURL != "" {
			base, _ = url.Parse(pageURL) // content.Extract has checked it
		}
		text, out.ContentSource = markdown.Convert(page, base), SourcePage
	}
	chunkOpts := o.Chunk
	chunkOpts.Format = chunk.FormatMarkdown
	res, err := chunk.Split(page, text, &chunkOpts)
	if errs.FieldOf(err) == "content" {
		return nil, errs.Invalid("page", "the page has no text to chunk")
	}
	if err != nil {
		return nil, err
	}
	out.Result = *res
	return out, nil
}
