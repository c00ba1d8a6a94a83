package pagedata

import (
	"context"
	"strings"
	"testing"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/internal/htmltag"
)

func TestLoad(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, c := range []struct {
		html, url string
		kind      errs.Kind
		field     string
	}{
		{"", "", errs.KindInvalid, "html"},
		{"<p>x</p>", "example.com/a", errs.KindInvalid, "url"},
		{"<p>x</p>", "javascript:alert(1)", errs.KindInvalid, "url"},
		{strings.Repeat("x", MaxHTMLBytes+1), "", errs.KindTooLarge, "html"},
	} {
		_, err := Load(ctx, c.html, c.url, nil, Need{})
		if !errs.Is(err, c.kind) || errs.FieldOf(err) != c.field {
			t.Errorf("Load(%.20q, %q): %v, want %s on %s", c.html, c.url, err, c.kind, c.field)
		}
	}
	page := `<html><head><meta property="og:title" content="T"></head><body><article><p>` +
		strings.Repeat("Herons hunt fish in shallow water. ", 30) + `</p></article></body></html>`
	l, err := Load(ctx, page, "https://example.com/a", nil, Need{Content: true})
	if err != nil {
		t.Fatal(err)
	}
	if l.Doc == nil || l.Structured.OpenGraph["og:title"] != "T" || l.Content == nil || l.Content.NoContent || l.URL.Host != "example.com" {
		t.Fatalf("loaded %+v", l)
	}
	// A complete page needs no HTML; a given field is kept as it is.
	again, err := Load(ctx, "", "", &l.Page, Need{Content: true})
	if err != nil || again.Doc != l.Doc || again.Content != l.Content {
		t.Errorf("given page: %+v, %v", again, err)
	}
	if p, err := Load(ctx, "", "", &Page{Doc: l.Doc}, Need{}); err != nil || p.Structured == nil {
		t.Errorf("parsed page without html: %+v, %v", p, err)
	}
	if _, err := Load(ctx, "", "", &Page{Structured: l.Structured}, Need{}); !errs.Is(err, errs.KindInvalid) {
		t.Errorf("unparsed page without html: %v", err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := Load(cancelled, page, "", nil, Need{}); err != context.Canceled {
		t.Errorf("cancelled: %v", err)
	}
}

func TestBody(t *testing.T) {
	t.Parallel()
	doc, err := htmltag.Parse("<p>x</p>", "html")
	if err != nil {
		t.Fatal(err)
	}
	if b := Body(doc); b.Data != "body" {
		t.Errorf("Body = %s", b.Data)
	}
}
