package pagetype

import (
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/webinfra/webinfra/internal/articlebench"
	"github.com/webinfra/webinfra/internal/htmltag"

	"golang.org/x/net/html"
)

func parse(t *testing.T, s string) *html.Node {
	t.Helper()
	doc, err := htmltag.Parse(s, "html")
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func TestFeatureNamesMatchVectors(t *testing.T) {
	names := FeatureNames()
	seen := map[string]bool{}
	for _, n := range names {
		if seen[n] {
			t.Errorf("feature %q twice", n)
		}
		seen[n] = true
	}
	u, _ := url.Parse("https://docs.example.com/guide/getting-started.html?x=1")
	for _, page := range []string{"", "<p>hi", "<html><head><meta name=generator content=Sphinx></head><body><pre>x()</pre></body></html>"} {
		if got := len(Features(parse(t, page), u)); got != len(names) {
			t.Errorf("%q: %d features, %d names", page, got, len(names))
		}
		if got := len(Features(parse(t, page), nil)); got != len(names) {
			t.Errorf("%q without URL: %d features, %d names", page, got, len(names))
		}
	}
}

func TestDetectAnyPage(t *testing.T) {
	for _, page := range []string{"", "<p>", strings.Repeat("<div>", 500) + "deep"} {
		g := Detect(parse(t, page), nil)
		if !slices.Contains(Types, g.Type) || g.Confidence <= 0 || g.Confidence > 1 {
			t.Errorf("%.20q: %+v", page, g)
		}
	}
}

// TestDetectSignals checks pages that state their kind plainly: the
// model must read the signals, not just guess the commonest type.
func TestDetectSignals(t *testing.T) {
	posts := strings.Repeat(`<article class="post message"><div class="userinfo"><a href="/u/1">ann</a> Joined: Mar 2019 Posts: 310</div><time datetime="2024-01-02">Jan 2, 2024</time><div class="post-body"><p>I tried the same and it still fails after the update. Any idea? Reply Quote</p></div></article>`, 8)
	cards := strings.Repeat(`<li class="product-card"><a href="/p/1"><img src="a.jpg"></a><a href="/p/1">Trail shoe</a><span class="price">$89.99</span><button>Add to cart</button></li>`, 24)
	cases := []struct {
		url, page string
		want      Type
	}{
		{"https://forum.example.org/t/build-fails-after-update/123", `<h1>Build fails after update</h1>` + posts, Forum},
		{"https://shop.example.com/c/running-shoes", `<h1>Running shoes</h1><div class="filters">Sort by</div><ul class="product-grid">` + cards + `</ul>`, Collection},
	}
	for _, c := range cases {
		u, _ := url.Parse(c.url)
		if g := Detect(parse(t, "<html><body>"+c.page+"</body></html>"), u); g.Type != c.want {
			t.Errorf("%s: %+v, want %s", c.url, g, c.want)
		}
	}
}

// TestModelCheck checks that Check accepts the shipped model and refuses
// one that Probabilities would index out of range.
func TestModelCheck(t *testing.T) {
	if err := shipped().Check(); err != nil {
		t.Fatalf("shipped model: %v", err)
	}
	broken := map[string]func(m *Model){
		"other features":  func(m *Model) { m.Features = m.Features[1:] },
		"no types":        func(m *Model) { m.Types = nil },
		"unknown type":    func(m *Model) { m.Types = append(slices.Clone(m.Types[1:]), "blog") },
		"a mean short":    func(m *Model) { m.Mean = m.Mean[1:] },
		"a type short":    func(m *Model) { m.Bias = m.Bias[1:] },
		"a weight short":  func(m *Model) { m.Weights = append(slices.Clone(m.Weights[1:]), m.Weights[0][1:]) },
		"a weights short": func(m *Model) { m.Weights = m.Weights[1:] },
	}
	for name, breakIt := range broken {
		m := *shipped()
		breakIt(&m)
		if err := m.Check(); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// BenchmarkDetect is Detect over the 181 pages of the article benchmark,
// parsed beforehand, one goroutine.
func BenchmarkDetect(b *testing.B) {
	pages := articlebench.Load(b)
	docs := make([]*html.Node, len(pages))
	urls := make([]*url.URL, len(pages))
	for i, p := range pages {
		docs[i], _ = htmltag.Parse(string(p.HTML), "html")
		urls[i], _ = url.Parse(p.URL)
	}
	b.ReportAllocs()
	for b.Loop() {
		for i := range docs {
			Detect(docs[i], urls[i])
		}
	}
	b.ReportMetric(float64(len(docs)*b.N)/b.Elapsed().Seconds(), "pages/s")
}
