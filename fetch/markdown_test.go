package fetch

import (
	"fmt"
	"strings"
	"testing"

	"github.com/webinfra/webinfra/errs"
)

func TestMarkdown(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		html    string
		pageURL string
		want    []string // fragments of the Markdown
	}{
		{"relative links resolved against the page",
			`<p>See <a href="../about.html">about</a>, <a href="/contact?x=1">contact</a> and <a href="#top">top</a>.</p><img src="img/logo.png" alt="logo">`,
			"https://example.com/docs/guide/index.html",
			[]string{"[about](https://example.com/docs/about.html)", "[contact](https://example.com/contact?x=1)",
				"[top](https://example.com/docs/guide/index.html#top)", "![logo](https://example.com/docs/guide/img/logo.png)"}},
		{"absolute links kept",
			`<a href="https://other.example/x">x</a>`, "https://example.com/",
			[]string{"[x](https://other.example/x)"}},
		{"base href honoured",
			`<html><head><base href="/static/"></head><body><a href="a.html">a</a></body></html>`, "https://example.com/page/",
			[]string{"[a](https://example.com/static/a.html)"}},
		{"no page url keeps relative links",
			`<h1>T</h1><a href="a.html">a</a>`, "",
			[]string{"# T", "[a](a.html)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			md, err := Markdown([]byte(tt.html), tt.pageURL)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.want {
				if !strings.Contains(md, w) {
					t.Errorf("markdown %q lacks %q", md, w)
				}
			}
		})
	}
}

func TestMarkdownInvalidPageURL(t *testing.T) {
	t.Parallel()
	for _, u := range []string{"not a url", "/relative/path", "http://[::1"} {
		_, err := Markdown([]byte("<p>x</p>"), u)
		if errs.KindOf(err) != errs.KindInvalid || errs.FieldOf(err) != "page_url" {
			t.Errorf("Markdown(_, %q) err = %v, want invalid page_url", u, err)
		}
	}
}

func ExampleMarkdown() {
	page := []byte(`<html><body>
<h1>Release notes</h1>
<p>Read the <a href="../guide/">guide</a> or <strong>download</strong> <a href="/dl/v2.tar.gz">v2</a>.</p>
</body></html>`)
	md, err := Markdown(page, "https://example.com/docs/notes/")
	if err != nil {
		panic(err)
	}
	fmt.Println(md)
	// Output:
	// # Release notes
	//
	// Read the [guide](https://example.com/docs/guide/) or **download** [v2](https://example.com/dl/v2.tar.gz).
}
