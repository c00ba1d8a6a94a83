package schemacov_test

import (
	"context"
	"testing"

	"github.com/webinfra/webinfra/aeo/schemacov"
	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/extract/content"
	"github.com/webinfra/webinfra/extract/pagetype"
)

func TestInvalidInput(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in    schemacov.Input
		field string
	}{
		{schemacov.Input{HTML: ""}, "html"},
		{schemacov.Input{HTML: "<p>x</p>", URL: "example.com"}, "url"},
		{schemacov.Input{HTML: "<p>x</p>", PageType: "blog"}, "page_type"},
	} {
		_, err := schemacov.Check(context.Background(), c.in, nil)
		if !errs.Is(err, errs.KindInvalid) || errs.FieldOf(err) != c.field {
			t.Errorf("%+v: %v, want invalid %s", c.in, err, c.field)
		}
	}
}

// TestPageTypeFromContent: the caller's content extraction decides the
// page type when the request does not.
func TestPageTypeFromContent(t *testing.T) {
	t.Parallel()
	page := `<html><body><script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Anvil"}</script></body></html>`
	given := &schemacov.Page{Content: &content.Result{PageType: pagetype.Product}}
	r, err := schemacov.Check(context.Background(), schemacov.Input{HTML: page}, &schemacov.Options{Page: given})
	if err != nil {
		t.Fatal(err)
	}
	if r.PageType != "product" || r.PageTypeSource != "content" || !r.Types[7].Found || r.Types[7].Relevance != 3 {
		t.Errorf("page type %s from %s, product %+v", r.PageType, r.PageTypeSource, r.Types[7])
	}
	r, err = schemacov.Check(context.Background(), schemacov.Input{HTML: page, PageType: "article"}, &schemacov.Options{Page: given})
	if err != nil || r.PageTypeSource != "given" || r.Types[7].Relevance != 0 {
		t.Errorf("given page type: %+v, %v", r, err)
	}
}
