package content

import (
	"strings"
	"testing"

	trafilatura "github.com/markusmobius/go-trafilatura"
	"golang.org/x/net/html"

	"github.com/webinfra/webinfra/internal/articlebench"
	"github.com/webinfra/webinfra/internal/wcxb"
)

func TestLeanCopy(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, body, want string
	}{
		{"menus, footers and their tails go",
			`<p>a</p><nav><a href="/">Home</a></nav> tail<p>b</p><footer>c</footer>`,
			`<p>a</p><p>b</p>`},
		{"comments and scripts go, JSON-LD stays",
			`<p>a<!-- x --></p><script>var x</script><script type="application/ld+json">{}</script>`,
			`<p>a</p><script type="application/ld+json">{}</script>`},
		{"forms stay: a whole page may sit in one",
			`<form><p>a</p><button>Go</button> now</form><p>b</p>`,
			`<form><p>a</p></form><p>b</p>`},
		{"a figure holding a table stays, others go",
			`<figure><table><tr><td>1</td></tr></table></figure><figure><img src="x"></figure><p>a</p>`,
			`<figure><table><tbody><tr><td>1</td></tr></tbody></table></figure><p>a</p>`},
		{"figures around a figure holding a table stay",
			`<figure><figure><div><table><tr><td>1</td></tr></table></div></figure><figure>x</figure></figure><p>a</p>`,
			`<figure><figure><div><table><tbody><tr><td>1</td></tr></tbody></table></div></figure></figure><p>a</p>`},
		{"kept when the next element is unwrapped first",
			`<p><svg></svg> Save <img src="x"> now</p>`,
			`<p><svg></svg> Save <img src="x"/> now</p>`},
		{"kept inside an element unwrapped first",
			`<p>a<small><button>x</button> b</small></p>`,
			`<p>a<small><button>x</button> b</small></p>`},
	}
	for _, c := range cases {
		doc, err := parseHTML(`<html><head><title>T</title>
<script>var y</script> <script type="application/ld+json">{"a":1}</script><style>p{}</style>
<link rel="canonical" href="/x"><!-- c --><meta name="author" content="A"></head><body>` + c.body + `</body></html>`)
		if err != nil {
			t.Fatal(err)
		}
		before := render(doc)
		lean, _ := leanCopy(doc)
		if render(doc) != before {
			t.Errorf("%s: the page itself was edited", c.name)
		}
		if got := render(find(lean, "body")); got != c.want {
			t.Errorf("%s: body\n%s\nwant\n%s", c.name, got, c.want)
		}
		// The head keeps what trafilatura's metadata reads, without the
		// white space between its elements, style sheets and scripts
		// other than JSON.
		if got, want := render(find(lean, "head")), `<title>T</title><script type="application/ld+json">{"a":1}</script>`+
			`<link rel="canonical" href="/x"/><meta name="author" content="A"/>`; got != want {
			t.Errorf("%s: head\n%s\nwant\n%s", c.name, got, want)
		}
	}
}

// A page whose every paragraph is in an element trafilatura deletes is
// given whole: trafilatura, favouring recall, then goes back to the page
// as it was given.
func TestLeanCopyWithoutParagraphsIsThePage(t *testing.T) {
	t.Parallel()
	doc, err := parseHTML(`<html><body><form><p>a</p></form><nav><p>b</p></nav><div>c</div></body></html>`)
	if err != nil {
		t.Fatal(err)
	}
	if lean, _ := leanCopy(doc); lean != doc {
		t.Error("leanCopy copied a page with no paragraph outside deleted elements")
	}
}

// TestLeanCopyKeepsTrafilaturasCut checks the claim leanCopy rests on, on
// real pages (a sample of WCXB's and every article benchmark page):
// go-trafilatura's own cut of the lean copy is its cut of the page, both
// balanced and favouring recall. Its last resort (the baseline) is
// turned off: it reads the page before cleaning, and extractTrafilatura
// runs it on the page itself. And trafilatura leaves the page as it was:
// the copy shares the page's attributes.
func TestLeanCopyKeepsTrafilaturasCut(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go-trafilatura four times on 331 pages")
	}
	t.Parallel()
	pages := articlebench.Load(t)
	for i, p := range wcxb.Load(t) {
		if i%10 == 0 {
			pages = append(pages, articlebench.Page{ID: "wcxb/" + p.ID, HTML: p.HTML})
		}
	}
	cfg := trafilatura.DefaultConfig()
	cfg.MinExtractedSize = 0 // no baseline
	parallel(len(pages), func(i int) {
		doc, err := parseHTML(string(pages[i].HTML))
		if err != nil {
			t.Error(err)
			return
		}
		lean, _ := leanCopy(doc)
		var before strings.Builder
		if err := html.Render(&before, doc); err != nil {
			t.Error(err)
			return
		}
		for _, focus := range []trafilatura.ExtractionFocus{trafilatura.Balanced, trafilatura.FavorRecall} {
			opts := trafilatura.Options{ExcludeComments: true, Focus: focus, HtmlDateMode: trafilatura.Disabled, Config: cfg}
			want, wantErr := trafilatura.ExtractDocument(doc, opts)
			got, gotErr := trafilatura.ExtractDocument(lean, opts)
			switch {
			case (wantErr == nil) != (gotErr == nil):
				t.Errorf("page %s, focus %d: error %v on the page, %v on the lean copy", pages[i].ID, focus, wantErr, gotErr)
			case wantErr == nil && got.ContentText != want.ContentText:
				t.Errorf("page %s, focus %d: %d bytes of text from the lean copy, %d from the page",
					pages[i].ID, focus, len(got.ContentText), len(want.ContentText))
			}
		}
		// The copy shares its attributes with the page: trafilatura must
		// not edit what it is given.
		var after strings.Builder
		if err := html.Render(&after, doc); err != nil || after.String() != before.String() {
			t.Errorf("page %s: go-trafilatura edited the page through the lean copy (%v)", pages[i].ID, err)
		}
	})
}

func find(n *html.Node, tag string) *html.Node {
	if n.Type == html.ElementNode && n.Data == tag {
		return n
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if f := find(c, tag); f != nil {
			return f
		}
	}
	return nil
}
