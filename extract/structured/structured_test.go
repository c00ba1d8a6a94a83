package structured

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/webinfra/webinfra/errs"
)

func TestExtractErrors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		in    Input
		opts  *Options
		kind  errs.Kind
		field string
	}{
		{name: "empty html", in: Input{HTML: " \n "}, kind: errs.KindInvalid, field: "html"},
		{name: "too large", in: Input{HTML: "<p>12345</p>"}, opts: &Options{MaxHTMLBytes: 8}, kind: errs.KindTooLarge, field: "html"},
		{name: "relative base_url", in: Input{HTML: "<p>", BaseURL: "/a"}, kind: errs.KindInvalid, field: "base_url"},
		{name: "ftp base_url", in: Input{HTML: "<p>", BaseURL: "ftp://example.com/"}, kind: errs.KindInvalid, field: "base_url"},
		{name: "bad base_url", in: Input{HTML: "<p>", BaseURL: "http://[::1"}, kind: errs.KindInvalid, field: "base_url"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Extract(context.Background(), tc.in, tc.opts)
			if res != nil || errs.KindOf(err) != tc.kind || errs.FieldOf(err) != tc.field {
				t.Errorf("got %v, %v (kind %s, field %q)", res, err, errs.KindOf(err), errs.FieldOf(err))
			}
		})
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Extract(cancelled, Input{HTML: "<p>"}, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

func TestExtractEmptyPage(t *testing.T) {
	res := extract(t, "<p>Nothing structured here.</p>", nil)
	if got := jsonOf(t, res); got != `{}` {
		t.Errorf("got %s", got)
	}
}

// TestFromNode: reading a parsed tree gives what Extract gives, and leaves
// the tree as it was.
func TestFromNode(t *testing.T) {
	page := `<html lang="en"><head><title>T</title><base href="/b/"><link rel="canonical" href="c">
		<meta property="og:image" content="i.png"><meta property="og:image:width" content="1">` +
		ldScript(`{"@context":"https://schema.org","@graph":[{"@type":"A"}]}`) + `</head>
		<body><div itemscope itemtype="https://schema.org/Thing" itemref="r"><a itemprop="url" href="x">x</a></div>
		<p id="r" itemprop="name">N</p><div vocab="https://schema.org/" typeof="Thing"><span property="name">R</span></div></body></html>`
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	var before strings.Builder
	html.Render(&before, doc)
	u, _ := url.Parse(base)
	got := jsonOf(t, FromNode(doc, u, nil))
	if want := jsonOf(t, extract(t, page, nil)); got != want {
		t.Errorf("FromNode %s\nExtract  %s", got, want)
	}
	var after strings.Builder
	html.Render(&after, doc)
	if before.String() != after.String() {
		t.Error("FromNode changed the tree")
	}
	for _, section := range []string{`"json_ld"`, `"microdata"`, `"rdfa"`, `"open_graph"`, `"meta"`, `"links"`, `"https://example.com/b/i.png"`} {
		if !strings.Contains(got, section) {
			t.Errorf("no %s in %s", section, got)
		}
	}
}

func TestOptionsResolve(t *testing.T) {
	got := (&Options{MaxItems: 5, MaxDepth: -1}).resolve()
	want := Options{DefaultMaxHTMLBytes, 5, DefaultMaxValues, DefaultMaxJSONLDBytes, DefaultMaxDepth}
	if got != want {
		t.Errorf("got %+v, want %+v", got, want)
	}
	if (*Options)(nil).resolve() != (Options{DefaultMaxHTMLBytes, DefaultMaxItems, DefaultMaxValues, DefaultMaxJSONLDBytes, DefaultMaxDepth}) {
		t.Error("nil options are not the defaults")
	}
}
