package markdown

import (
	"net/url"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

func TestConvert(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"paragraphs", `<p>one</p><p>two</p>`, "one\n\ntwo"},
		{"whitespace collapsed", "<p>  a \n\t b  </p>", "a b"},
		{"headings", `<h1>Title</h1><h3>Sub <em>part</em></h3>`, "# Title\n\n### Sub *part*"},
		{"empty heading dropped", `<h2> </h2><p>x</p>`, "x"},
		{"emphasis", `<p>a <b>bold</b> <i> it </i><strong><b>once</b></strong></p>`, "a **bold** *it* **once**"},
		{"empty emphasis dropped", `<p>a<b></b><em> </em>b</p>`, "a b"},
		{"strikethrough", `<del>gone</del>`, "~~gone~~"},
		{"links absolute", `<a href="/x?a=1">X</a>`, "[X](https://example.com/x?a=1)"},
		{"empty link dropped", `<a href="/x"></a><a href="/y"><b></b></a>z`, "z"},
		{"link without href is text", `<a name="top">Top</a>`, "Top"},
		{"javascript link is text", `<a href="javascript:go()">Go</a>`, "Go"},
		{"link with spaces", `<a href="/a (b)">c</a>`, "[c](https://example.com/a%20%28b%29)"},
		{"block in link", `<a href="/p"><div>A</div><div>B</div></a>`, "[A B](https://example.com/p)"},
		{"image", `<img src="i.png" alt="An [x]">`, `![An \[x\]](https://example.com/dir/i.png)`},
		{"data image dropped", `<p>a<img src="data:image/png;base64,AAAA">b</p>`, "ab"},
		{"lazy image", `<img src="data:image/gif;base64,R0l" data-src="/real.jpg" alt="r"><img srcset="/s.jpg 1x, /b.jpg 2x">`,
			"![r](https://example.com/real.jpg)![](https://example.com/s.jpg)"},
		{"line break", `<p>a<br>b<br/></p>`, "a  \nb"},
		{"rule", `<p>a</p><hr><p>b</p>`, "a\n\n* * *\n\nb"},
		{"list", `<ul><li>a<li>b</ul>`, "- a\n- b"},
		{"ordered list start", `<ol start="7"><li>a</li><li>b</li></ol>`, "7. a\n8. b"},
		{"nested list", `<ul><li>a<ol><li>b</li></ol></li><li>c</li></ul>`, "- a\n  1. b\n- c"},
		{"paragraph in item", `<ul><li><p>a</p><p>b</p></li></ul>`, "- a\n\n  b"},
		{"empty item dropped", `<ul><li></li><li>x</li></ul>`, "- x"},
		{"quote", `<p>x</p><blockquote><p>a</p><p>b</p></blockquote>`, "x\n\n> a\n>\n> b"},
		{"nested quote", `<blockquote>a<blockquote>b</blockquote></blockquote>`, "> a\n>\n> > b"},
		{"code span", "<p>use <code>a  *b*</code></p>", "use `a *b*`"},
		{"code span with backticks", "<code>a`b</code>", "``a`b``"},
		{"code block", "<pre><code class=\"language-go\">\nx := 1\n\ny *= 2\n</code></pre>", "```go\nx := 1\n\ny *= 2\n```"},
		{"code block with fences", "<pre>```\nx\n```</pre>", "````\n```\nx\n```\n````"},
		{"code block in item", "<ul><li>a<pre>x\ny</pre></li></ul>", "- a\n\n  ```\n  x\n  y\n  ```"},
		{"table", `<table><tr><th>K</th><th>V</th></tr><tr><td>a|b</td><td>1<br>2</td></tr><tr><td>c</td></tr></table>`,
			"| K | V |\n| --- | --- |\n| a\\|b | 1 2 |\n| c |  |"},
		{"table optional end tags", `<table><tr><td>a<td>b<tr><td>c<td>d</table>`, "| a | b |\n| --- | --- |\n| c | d |"},
		{"nested table flattened", `<table><tr><td>a</td><td><table><tr><td>x</td><td>y</td></tr></table></td></tr></table>`,
			"| a | x y |\n| --- | --- |"},
		{"layout table", `<table><tr><td><p>Story</p></td></tr><tr><td>More</td></tr></table>`, "Story\n\nMore"},
		{"skipped elements", `<script>alert("<p>x</p>")</script><style>p{}</style><svg><text>s</text></svg><p>kept</p><noscript>n</noscript>`, "kept"},
		{"entities", `<p>a &amp; b &lt;c&gt; &#8217;&nbsp;d</p>`, "a & b \\<c> ’ d"},
		{"escapes", `<p>*a* _b_ snake_case \ ` + "`c`" + `</p>`, "\\*a\\* \\_b\\_ snake_case \\\\ \\`c\\`"},
		{"line-start escapes", `<p># h</p><p>1. n</p><p>- l</p><p>> q</p><p>+</p>`, "\\# h\n\n1\\. n\n\n\\- l\n\n\\> q\n\n\\+"},
		{"base href", `<base href="/sub/"><a href="p">P</a>`, "[P](https://example.com/sub/p)"},
		{"unclosed elements", `<p><b>bold <i>both`, "**bold *both***"},
		{"stray end tags", `</b></li></table><p>ok</p>`, "ok"},
	}
	base, _ := url.Parse("https://example.com/dir/page.html")
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := Convert([]byte(tc.in), base); got != tc.want {
				t.Errorf("Convert(%q)\n got: %q\nwant: %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestDestinationWithoutBase(t *testing.T) {
	if got := Convert([]byte(`<a href="a (b).html">c</a>`), nil); got != "[c](<a (b).html>)" {
		t.Fatalf("got %q", got)
	}
}

func TestConvertWithoutBase(t *testing.T) {
	if got := Convert([]byte(`<a href="/x">X</a><img src="y.png">`), nil); got != "[X](/x)![](y.png)" {
		t.Fatalf("got %q", got)
	}
}

func TestFromNode(t *testing.T) {
	doc, err := html.Parse(strings.NewReader(`<article><h2>A</h2><p>b <a href="/c">c</a></p></article><footer>f</footer>`))
	if err != nil {
		t.Fatal(err)
	}
	var article *html.Node
	for n := range doc.Descendants() {
		if n.Type == html.ElementNode && n.Data == "article" {
			article = n
		}
	}
	base, _ := url.Parse("https://example.com/")
	if got := FromNode(article, base); got != "## A\n\nb [c](https://example.com/c)" {
		t.Fatalf("got %q", got)
	}
}

func TestPermalinks(t *testing.T) {
	base, _ := url.Parse("https://example.com/docs/quickstart.html")
	cases := []struct{ name, in, want string }{
		{"sphinx headerlink", `<h1>Quickstart<a class="headerlink" href="#quickstart" title="Link to this heading">¶</a></h1><p>x</p>`, "# Quickstart\n\nx"},
		{"section mark before text", `<h2><a href="#a">§</a> Install</h2>`, "## Install"},
		{"absolute same page", `<h2>Run <a href="https://example.com/docs/quickstart.html#run">🔗</a></h2>`, "## Run"},
		{"zero-width text", "<h2>Design<a class=\"hash-link\" href=\"#design\">\u200b</a></h2>", "## Design"},
		{"at paragraph start", `<p>a</p><p><a href="#p2">¶</a>b</p>`, "a\n\nb"},
		{"other page kept", `<h2>Run <a href="/other.html#run">¶</a></h2>`, "## Run [¶](https://example.com/other.html#run)"},
		{"same page with words kept", `<p><a href="#install">Install it</a></p>`, "[Install it](https://example.com/docs/quickstart.html#install)"},
		{"hashtag elsewhere kept", `<p><a href="/tags/go">#</a></p>`, `[\#](https://example.com/tags/go)`},
		{"image kept", `<p><a href="#top"><img src="/up.png" alt="¶"></a></p>`, "[![¶](https://example.com/up.png)](https://example.com/docs/quickstart.html#top)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := Convert([]byte(tc.in), base); got != tc.want {
				t.Errorf("Convert\n got %q\nwant %q", got, tc.want)
			}
			doc, err := html.Parse(strings.NewReader(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			if got := FromNode(doc, base); got != tc.want {
				t.Errorf("FromNode\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}

// TestConvertStreamedPage: a page from React's streaming renderer is
// converted with its late part in place of the fallback.
func TestConvertStreamedPage(t *testing.T) {
	page := `<!DOCTYPE html><html><body><main><h1>Title</h1>` +
		`<!--$?--><template id="B:0"></template><div>Loading paragraph...</div><!--/$-->` +
		`<p>Footer note.</p></main>` +
		`<div hidden id="S:0"><p>The first paragraph, with <a href="/more">a link</a>.</p></div>` +
		`<script>$RC("B:0","S:0")</script></body></html>`
	base, _ := url.Parse("https://example.com/post")
	md := Convert([]byte(page), base)
	want := "# Title\n\nThe first paragraph, with [a link](https://example.com/more).\n\nFooter note."
	if strings.TrimSpace(md) != want {
		t.Errorf("got\n%s\nwant\n%s", md, want)
	}
}
