package htmltext

import (
	"reflect"
	"testing"
)

func TestBlocks(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		html string
		max  int
		want []string
		cut  bool
	}{
		{
			name: "blocks and inline",
			html: `<html><head><title>T</title><style>x{}</style></head><body><h1>Head<b>ing</b></h1>
				<p>One <em>two</em>   three&amp;four</p><ul><li>a</li><li>b<br>c</li></ul></body></html>`,
			want: []string{"Heading", "One two three&four", "a", "b", "c"},
		},
		{
			name: "skipped",
			html: `<p>shown</p><script>hidden()</script><noscript>no</noscript><template><p>tpl</p></template><div hidden>h</div><p>also&nbsp;shown</p>`,
			want: []string{"shown", "no", "also shown"}, // noscript is read, as a crawler reads it
		},
		{
			name: "cut between words",
			html: `<p>abc def</p><p>ghi</p>`,
			max:  7,
			want: []string{"abc def"},
			cut:  true,
		},
		{
			name: "cut",
			html: `<p>abc def</p><p>ghi</p>`,
			max:  6,
			want: []string{"abc"},
			cut:  true,
		},
		{
			name: "multibyte cut",
			html: `<p>é é é</p>`, // 2 bytes each
			max:  6,
			want: []string{"é é"},
			cut:  true,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got, cut, err := Blocks(c.html, c.max)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, c.want) || cut != c.cut {
				t.Fatalf("Blocks = %q (cut %v), want %q (cut %v)", got, cut, c.want, c.cut)
			}
		})
	}
}
