package freshness_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/webinfra/webinfra/aeo/freshness"
	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/extract/structured"
	"github.com/webinfra/webinfra/internal/htmltag"
)

func TestInvalidInput(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in    freshness.Input
		field string
	}{
		{freshness.Input{HTML: " \n"}, "html"},
		{freshness.Input{HTML: "<p>x</p>", URL: "/relative"}, "url"},
		{freshness.Input{HTML: "<p>x</p>", URL: "mailto:a@example.com"}, "url"},
	} {
		_, err := freshness.Check(context.Background(), c.in, nil)
		if !errs.Is(err, errs.KindInvalid) || errs.FieldOf(err) != c.field {
			t.Errorf("%+v: %v, want invalid %s", c.in, err, c.field)
		}
	}
}

// TestGivenPage: a page parsed and extracted by the caller gives the same
// report, and the HTML is then not needed.
func TestGivenPage(t *testing.T) {
	t.Parallel()
	page := `<html><head><meta property="article:modified_time" content="2025-05-01"></head><body><p>Updated May 2, 2025</p></body></html>`
	in := freshness.Input{HTML: page, Now: now}
	want, err := freshness.Check(context.Background(), in, nil)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := htmltag.Parse(page, "html")
	if err != nil {
		t.Fatal(err)
	}
	given := &freshness.Page{Doc: doc, Structured: structured.FromNode(doc, nil, nil)}
	got, err := freshness.Check(context.Background(), freshness.Input{Now: now}, &freshness.Options{Page: given})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("given page: %+v\nwant %+v", got, want)
	}
}
