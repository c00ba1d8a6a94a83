package structured

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// base is the page URL the tests pass as base_url.
const base = "https://example.com/dir/page"

// extract runs Extract on page with base as base_url and opts.
func extract(t *testing.T, page string, opts *Options) *Result {
	t.Helper()
	res, err := Extract(context.Background(), Input{HTML: page, BaseURL: base}, opts)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// jsonOf is v as compact JSON (map keys sorted).
func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func ldScript(body string) string {
	return `<script type="application/ld+json">` + body + `</script>`
}

func TestJSONLD(t *testing.T) {
	for _, tc := range []struct {
		name   string
		blocks []string
		items  string // the items as JSON
		types  string // the types as JSON
		errors string // the errors as JSON
	}{{
		name:   "one object",
		blocks: []string{`{"@context":"https://schema.org","@type":"Article","headline":"Herons","wordCount":1200}`},
		items:  `[{"@context":"https://schema.org","@type":"Article","headline":"Herons","wordCount":1200}]`,
		types:  `["Article"]`,
	}, {
		name: "graph keeps the context",
		blocks: []string{`{"@context":"https://schema.org","@graph":[
			{"@type":"WebSite","@id":"#site","name":"Birds"},
			{"@type":["Article","NewsArticle"],"author":{"@type":"Person","name":"Ann"}}]}`},
		items: `[{"@context":"https://schema.org","@id":"#site","@type":"WebSite","name":"Birds"},` +
			`{"@context":"https://schema.org","@type":["Article","NewsArticle"],"author":{"@type":"Person","name":"Ann"}}]`,
		types: `["WebSite","Article","NewsArticle","Person"]`,
	}, {
		name:   "graph with its own data",
		blocks: []string{`{"@context":"https://schema.org","@type":"Dataset","@graph":{"@type":"Thing"}}`},
		items:  `[{"@context":"https://schema.org","@type":"Dataset"},{"@context":"https://schema.org","@type":"Thing"}]`,
		types:  `["Dataset","Thing"]`,
	}, {
		name:   "top-level array",
		blocks: []string{`[{"@context":"https://schema.org","@type":"Organization"},{"@context":"https://schema.org","@type":"BreadcrumbList"}]`},
		items:  `[{"@context":"https://schema.org","@type":"Organization"},{"@context":"https://schema.org","@type":"BreadcrumbList"}]`,
		types:  `["Organization","BreadcrumbList"]`,
	}, {
		name:   "several blocks",
		blocks: []string{`{"@type":"A"}`, `{"@type":"B"}`, `  `},
		items:  `[{"@type":"A"},{"@type":"B"}]`,
		types:  `["A","B"]`,
	}, {
		name:   "concatenated objects",
		blocks: []string{"{\"@type\":\"A\"}\n{\"@type\":\"B\"},{\"@type\":\"C\"};"},
		items:  `[{"@type":"A"},{"@type":"B"},{"@type":"C"}]`,
		types:  `["A","B","C"]`,
	}, {
		name:   "trailing commas",
		blocks: []string{`{"@type":"A","keywords":["x","y",],}`},
		items:  `[{"@type":"A","keywords":["x","y"]}]`,
		types:  `["A"]`,
	}, {
		name:   "comment and CDATA wrappers",
		blocks: []string{"<!--\n{\"@type\":\"A\"}\n-->", `//<![CDATA[` + "\n" + `{"@type":"B"}` + "\n" + `//]]>`, `/*<![CDATA[*/{"@type":"C"}/*]]>*/`},
		items:  `[{"@type":"A"},{"@type":"B"},{"@type":"C"}]`,
		types:  `["A","B","C"]`,
	}, {
		name:   "control characters in strings",
		blocks: []string{"{\"@type\":\"A\",\"text\":\"line one\nline\ttwo\"}"},
		items:  `[{"@type":"A","text":"line one\nline\ttwo"}]`,
		types:  `["A"]`,
	}, {
		name: "invalid escapes, single quotes, stray quotes, comments, missing commas",
		blocks: []string{`{"@type":"A", // the type
			"name":'Heron\'s "nest"',
			"about":"the "grey" heron" /* note */
			"url":"x"}`},
		items: `[{"@type":"A","about":"the \"grey\" heron","name":"Heron's \"nest\"","url":"x"}]`,
		types: `["A"]`,
	}, {
		name:   "byte-order mark",
		blocks: []string{"\ufeff{\"@type\":\"A\"}"},
		items:  `[{"@type":"A"}]`,
		types:  `["A"]`,
	}, {
		name:   "broken block among good ones",
		blocks: []string{`{"@type":"A"}`, `{"@type":"B",`, `{"@type":"C"}`},
		items:  `[{"@type":"A"},{"@type":"C"}]`,
		types:  `["A","C"]`,
		errors: `[{"block":1,"message":"unexpected EOF"}]`,
	}, {
		name:   "items before a fault are kept",
		blocks: []string{`{"@type":"A"} }} {"@type":"B"}`},
		items:  `[{"@type":"A"}]`,
		types:  `["A"]`,
		errors: `[{"block":0,"message":"at byte 14: want an object or an array, found '}'"}]`,
	}, {
		name:   "not objects",
		blocks: []string{`"just a string"`, `[{"@type":"A"}, 3]`},
		items:  `[{"@type":"A"}]`,
		types:  `["A"]`,
		errors: `[{"block":0,"message":"at byte 0: want an object or an array, found '\"'"},{"block":1,"message":"holds a JSON value that is not an object"}]`,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			var page strings.Builder
			for _, b := range tc.blocks {
				page.WriteString(ldScript(b))
			}
			j := extract(t, page.String(), nil).JSONLD
			if j == nil {
				t.Fatal("no json_ld")
			}
			for _, c := range []struct{ what, got, want string }{
				{"items", jsonOf(t, j.Items), tc.items},
				{"types", jsonOf(t, j.Types), tc.types},
				{"errors", jsonOf(t, j.Errors), tc.errors},
			} {
				if c.want == "" {
					c.want = "null"
				}
				if c.got != c.want {
					t.Errorf("%s:\n got %s\nwant %s", c.what, c.got, c.want)
				}
			}
		})
	}
}

func TestJSONLDScriptTypes(t *testing.T) {
	page := `<script type="application/ld+json; charset=utf-8">{"@type":"A"}</script>` +
		`<script type="APPLICATION/LD+JSON">{"@type":"B"}</script>` +
		`<script type="application/json">{"@type":"C"}</script><script>var x = {"@type":"D"}</script>`
	if got := jsonOf(t, extract(t, page, nil).JSONLD.Types); got != `["A","B"]` {
		t.Errorf("types %s", got)
	}
}

func TestJSONLDLimits(t *testing.T) {
	big := ldScript(`{"@type":"Big","text":"` + strings.Repeat("x", 100) + `"}`)
	res := extract(t, big+ldScript(`{"@type":"Small"}`), &Options{MaxJSONLDBytes: 50})
	if got := jsonOf(t, res.JSONLD.Errors); got != `[{"block":0,"message":"125 bytes, over the limit of 50"}]` {
		t.Errorf("errors %s", got)
	}
	if got := jsonOf(t, res.JSONLD.Types); got != `["Small"]` {
		t.Errorf("types %s", got)
	}

	res = extract(t, ldScript(`[{"@type":"A"},{"@type":"B"},{"@type":"C"}]`), &Options{MaxItems: 2})
	if len(res.JSONLD.Items) != 2 || jsonOf(t, res.Truncated) != `["json_ld"]` {
		t.Errorf("%d items, truncated %v", len(res.JSONLD.Items), res.Truncated)
	}

	deep := `{"@type":"L0","a":` + strings.Repeat(`{"@type":"X","a":`, 30) + `{}` + strings.Repeat(`}`, 31)
	res = extract(t, ldScript(deep), &Options{MaxDepth: 3})
	if got := jsonOf(t, res.JSONLD.Types); got != `["L0","X"]` {
		t.Errorf("types %s", got)
	}
}
