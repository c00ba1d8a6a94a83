package citation_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/webinfra/webinfra/aeo/citation"
	"github.com/webinfra/webinfra/aeo/internal/pagedata"
	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/extract/content"
)

func TestInvalidInput(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in    citation.Input
		field string
	}{
		{citation.Input{}, "html"},
		{citation.Input{HTML: "<p>x</p>", URL: "https//example.com"}, "url"},
	} {
		_, err := citation.Check(context.Background(), c.in, nil)
		if !errs.Is(err, errs.KindInvalid) || errs.FieldOf(err) != c.field {
			t.Errorf("%+v: %v, want invalid %s", c.in, err, c.field)
		}
	}
}

// TestGivenPage: the page extracted by the caller gives the same report as
// the audit extracting it in the same mode.
func TestGivenPage(t *testing.T) {
	t.Parallel()
	page := `<html><body><article><h1>Herons</h1><p class="byline">By Ann Lee</p>
<p>Grey herons nest in 61 colonies, the British Trust for Ornithology says; numbers grew 23% since 2015 according to
<a href="https://doi.org/10.1/x">a study</a>. The Environment Agency agrees.</p></article></body></html>`
	ctx := context.Background()
	for _, mode := range []content.Mode{content.ModeFast, content.ModeAccurate} {
		in := citation.Input{HTML: page, URL: "https://example.com/herons"}
		want, err := citation.Check(ctx, in, &citation.Options{ContentMode: mode})
		if err != nil {
			t.Fatal(err)
		}
		l, err := pagedata.Load(ctx, page, in.URL, nil, pagedata.Need{Content: true, Mode: mode})
		if err != nil {
			t.Fatal(err)
		}
		got, err := citation.Check(ctx, citation.Input{URL: in.URL}, &citation.Options{Page: &l.Page})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: given page %+v\nwant %+v", mode, got, want)
		}
	}
}
