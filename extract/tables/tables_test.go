package tables

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/webinfra/webinfra/errs"
)

// shape is the part of a Table the layout tests compare.
type shape struct {
	Caption string
	Headers []string
	Rows    [][]string
}

func shapeOf(t Table) shape { return shape{t.Caption, t.Headers, t.Rows} }

func row(v ...string) []string { return v }

func TestExtractLayout(t *testing.T) {
	tests := []struct {
		name string
		html string
		want shape
	}{
		{
			name: "thead headers",
			html: `<table><thead><tr><td>Name</td><td>Age</td></tr></thead><tbody><tr><td>Ada</td><td>36</td></tr></tbody></table>`,
			want: shape{Headers: row("Name", "Age"), Rows: [][]string{row("Ada", "36")}},
		},
		{
			name: "all-th first row is the header",
			html: `<table><tr><th>Name</th><th>Age</th></tr><tr><td>Ada</td><td>36</td></tr><tr><th>Bob</th><td>40</td></tr></table>`,
			want: shape{Headers: row("Name", "Age"), Rows: [][]string{row("Ada", "36"), row("Bob", "40")}},
		},
		{
			name: "no headers",
			html: `<table><tr><th>Name</th><td>Ada</td></tr><tr><th>Age</th><td>36</td></tr></table>`,
			want: shape{Headers: []string{}, Rows: [][]string{row("Name", "Ada"), row("Age", "36")}},
		},
		{
			name: "caption",
			html: `<table><caption> Team <b>roster</b> </caption><caption>second</caption><tr><td>Ada</td></tr></table>`,
			want: shape{Caption: "Team roster", Headers: []string{}, Rows: [][]string{row("Ada")}},
		},
		{
			name: "colspan",
			html: `<table><tr><td colspan="2">a</td><td>b</td></tr><tr><td>c</td><td>d</td><td>e</td></tr></table>`,
			want: shape{Headers: []string{}, Rows: [][]string{row("a", "a", "b"), row("c", "d", "e")}},
		},
		{
			name: "rowspan",
			html: `<table><tr><td rowspan="2">a</td><td>b</td></tr><tr><td>c</td></tr><tr><td>d</td><td>e</td></tr></table>`,
			want: shape{Headers: []string{}, Rows: [][]string{row("a", "b"), row("a", "c"), row("d", "e")}},
		},
		{
			name: "trailing rowspan in the last column",
			html: `<table><tr><td>a</td><td rowspan="3">z</td></tr><tr><td>b</td></tr><tr><td>c</td></tr></table>`,
			want: shape{Headers: []string{}, Rows: [][]string{row("a", "z"), row("b", "z"), row("c", "z")}},
		},
		{
			name: "colspan and rowspan on one cell",
			html: `<table><tr><td colspan="2" rowspan="2">x</td><td>a</td></tr><tr><td>b</td></tr><tr><td>c</td><td>d</td><td>e</td></tr></table>`,
			want: shape{Headers: []string{}, Rows: [][]string{row("x", "x", "a"), row("x", "x", "b"), row("c", "d", "e")}},
		},
		{
			name: "rowspan past the table end adds no rows",
			html: `<table><tr><td rowspan="5">a</td><td>b</td></tr><tr><td>c</td></tr></table>`,
			want: shape{Headers: []string{}, Rows: [][]string{row("a", "b"), row("a", "c")}},
		},
		{
			name: "rowspan stops at the end of its row group",
			html: `<table><tbody><tr><td rowspan="3">a</td><td>b</td></tr></tbody><tbody><tr><td>c</td><td>d</td></tr></tbody></table>`,
			want: shape{Headers: []string{}, Rows: [][]string{row("a", "b"), row("c", "d")}},
		},
		{
			name: "rowspan=0 spans to the end of the row group",
			html: `<table><tbody><tr><td rowspan="0">a</td><td>1</td></tr><tr><td>2</td></tr><tr><td>3</td></tr></tbody>` +
				`<tbody><tr><td>b</td><td>4</td></tr></tbody></table>`,
			want: shape{Headers: []string{}, Rows: [][]string{row("a", "1"), row("a", "2"), row("a", "3"), row("b", "4")}},
		},
		{
			name: "colspan in the header",
			html: `<table><thead><tr><th>Name</th><th colspan="2">Score</th></tr></thead><tr><td>Ada</td><td>1</td><td>2</td></tr></table>`,
			want: shape{Headers: row("Name", "Score", "Score"), Rows: [][]string{row("Ada", "1", "2")}},
		},
		{
			name: "several thead rows joined per column",
			html: `<table><thead><tr><th rowspan="2">Name</th><th colspan="2">Score</th><th></th></tr><tr><th>Math</th><th>Art</th><th>Note</th></tr></thead>` +
				`<tr><td>Ada</td><td>1</td><td>2</td><td>-</td></tr></table>`,
			want: shape{Headers: row("Name", "Score / Math", "Score / Art", "Note"), Rows: [][]string{row("Ada", "1", "2", "-")}},
		},
		{
			name: "ragged rows padded",
			html: `<table><tr><th>A</th><th>B</th></tr><tr><td>1</td></tr><tr><td>1</td><td>2</td><td>3</td></tr><tr></tr></table>`,
			want: shape{Headers: row("A", "B", ""), Rows: [][]string{row("1", "", ""), row("1", "2", "3"), row("", "", "")}},
		},
		{
			name: "tfoot rows come after the body",
			html: `<table><tfoot><tr><td>total</td></tr></tfoot><tbody><tr><td>1</td></tr></tbody><thead><tr><th>n</th></tr></thead><tbody><tr><td>2</td></tr></tbody></table>`,
			want: shape{Headers: row("n"), Rows: [][]string{row("1"), row("2"), row("total")}},
		},
		{
			name: "entities decoded",
			html: `<table><tr><td>Fish &amp; Chips</td><td>caf&eacute;&nbsp;&#x263A;</td><td>&nbsp;</td><td>&lt;b&gt;</td></tr></table>`,
			want: shape{Headers: []string{}, Rows: [][]string{row("Fish & Chips", "café ☺", "", "<b>")}},
		},
		{
			name: "visible text only",
			html: `<table><tr><td>  one<br>two<script>x()</script><style>p{}</style><span hidden>h</span>` +
				`<span style="Display: None">0042</span><p>three</p><b>fo</b>ur</td></tr></table>`,
			want: shape{Headers: []string{}, Rows: [][]string{row("one two three four")}},
		},
		{
			name: "span values parsed as the standard says",
			html: `<table><tr><td colspan=" 2px">a</td><td colspan="0">b</td><td colspan="-1">c</td><td colspan="x">d</td><td rowspan="+1">e</td></tr></table>`,
			want: shape{Headers: []string{}, Rows: [][]string{row("a", "a", "b", "c", "d", "e")}},
		},
		{
			name: "overlapping cells keep the earlier cell",
			html: `<table><tr><td>a</td><td rowspan="2">b</td></tr><tr><td colspan="3">c</td></tr></table>`,
			want: shape{Headers: []string{}, Rows: [][]string{row("a", "b", ""), row("c", "b", "c")}},
		},
		{
			name: "empty table",
			html: `<table></table>`,
			want: shape{Headers: []string{}, Rows: [][]string{}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Extract(context.Background(), Input{HTML: tt.html}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Tables) != 1 {
				t.Fatalf("got %d tables, want 1", len(res.Tables))
			}
			tab := res.Tables[0]
			if got := shapeOf(tab); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
			if tab.RowCount != len(tab.Rows) || tab.Index != 0 || tab.Parent != -1 || tab.Depth != 0 {
				t.Errorf("row_count %d, index %d, parent %d, depth %d", tab.RowCount, tab.Index, tab.Parent, tab.Depth)
			}
			for _, r := range append([][]string{tab.Headers}, tab.Rows...) {
				if len(r) != tab.ColumnCount && len(r) != 0 {
					t.Errorf("row %q is not %d wide", r, tab.ColumnCount)
				}
			}
		})
	}
}

func TestExtractNested(t *testing.T) {
	doc := `<table id="outer"><caption>Outer</caption><tr><th>k</th><th>v</th></tr>
<tr><td>a</td><td>before <table><tr><td>inner <table><tr><td>deep</td></tr></table></td></tr></table> after</td></tr></table>
<p>between</p><template><table><tr><td>inert</td></tr></table></template><table><tr><td>last</td></tr></table>`
	res, err := Extract(context.Background(), Input{HTML: doc}, nil)
	if err != nil {
		t.Fatal(err)
	}
	type where struct {
		Index, Parent, Depth int
		Rows                 [][]string
	}
	var got []where
	for _, tab := range res.Tables {
		got = append(got, where{tab.Index, tab.Parent, tab.Depth, tab.Rows})
	}
	want := []where{
		{0, -1, 0, [][]string{row("a", "before after")}},
		{1, 0, 1, [][]string{row("inner")}},
		{2, 1, 2, [][]string{row("deep")}},
		{3, -1, 0, [][]string{row("last")}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %v\nwant %v", got, want)
	}
}

func TestExtractRecords(t *testing.T) {
	doc := `<table><tr><th>Name</th><th>Age</th></tr><tr><td>Ada</td><td>36</td></tr></table>
<table><tr><th>A</th><th>A</th></tr><tr><td>1</td><td>2</td></tr></table>
<table><tr><td>no</td><td>headers</td></tr></table>`
	res, err := Extract(context.Background(), Input{HTML: doc, Records: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []map[string]string{{"Name": "Ada", "Age": "36"}}
	if got := res.Tables[0].Records; !reflect.DeepEqual(got, want) {
		t.Errorf("records = %v, want %v", got, want)
	}
	if res.Tables[1].Records != nil || res.Tables[2].Records != nil {
		t.Errorf("records for duplicate or missing headers: %v, %v", res.Tables[1].Records, res.Tables[2].Records)
	}
	plain, err := Extract(context.Background(), Input{HTML: doc}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if plain.Tables[0].Records != nil {
		t.Errorf("records without asking: %v", plain.Tables[0].Records)
	}
}

func TestExtractJSON(t *testing.T) {
	res, err := Extract(context.Background(), Input{HTML: `<p>no tables</p>`}, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(res)
	if string(b) != `{"tables":[]}` {
		t.Errorf("no tables: %s", b)
	}
	res, err = Extract(context.Background(), Input{HTML: `<table><tr><td>x</td></tr></table>`}, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ = json.Marshal(res)
	want := `{"tables":[{"index":0,"parent":-1,"depth":0,"headers":[],"rows":[["x"]],"row_count":1,"column_count":1}]}`
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
}

func TestExtractNode(t *testing.T) {
	doc, err := html.Parse(strings.NewReader(`<div><table><tr><td>a</td></tr></table></div><table><tr><td>b</td></tr></table>`))
	if err != nil {
		t.Fatal(err)
	}
	div := doc.FirstChild.LastChild.FirstChild // html > body > div
	res, err := ExtractNode(context.Background(), div, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tables) != 1 || res.Tables[0].Rows[0][0] != "a" {
		t.Errorf("tables under div: %+v", res.Tables)
	}
	table := div.FirstChild
	if res, err := ExtractNode(context.Background(), table, nil); err != nil || len(res.Tables) != 1 {
		t.Errorf("table as root: %+v, %v", res, err)
	}
	if res, err := ExtractNode(context.Background(), nil, nil); err != nil || len(res.Tables) != 0 {
		t.Errorf("nil root: %+v, %v", res, err)
	}
}

func TestExtractErrors(t *testing.T) {
	spans := `<table><tr><td colspan="100000" rowspan="100000">x</td></tr>` + strings.Repeat(`<tr></tr>`, 2000) + `</table>`
	tests := []struct {
		name  string
		html  string
		opts  *Options
		kind  errs.Kind
		field string
	}{
		{name: "empty input", html: "", kind: errs.KindInvalid, field: "html"},
		{name: "blank input", html: " \n\t", kind: errs.KindInvalid, field: "html"},
		{name: "too many tables", html: strings.Repeat(`<table></table>`, 4), opts: &Options{MaxTables: 3}, kind: errs.KindTooLarge},
		{name: "too many nested tables", html: strings.Repeat(`<table><tr><td>`, 10), opts: &Options{MaxTables: 9}, kind: errs.KindTooLarge},
		{name: "nested deeper than the parser allows", html: strings.Repeat(`<div>`, 600), kind: errs.KindTooLarge, field: "html"},
		{name: "too many cells", html: `<table><tr><td>1</td><td>2</td></tr><tr><td>3</td></tr></table>`, opts: &Options{MaxCells: 3}, kind: errs.KindTooLarge},
		{name: "too many empty rows", html: `<table>` + strings.Repeat(`<tr></tr>`, 4) + `</table>`, opts: &Options{MaxCells: 3}, kind: errs.KindTooLarge},
		{name: "huge spans", html: spans, kind: errs.KindTooLarge},
		{name: "too much text", html: `<table><tr><td colspan="10">0123456789</td></tr></table>`, opts: &Options{MaxTextBytes: 99}, kind: errs.KindTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Extract(context.Background(), Input{HTML: tt.html}, tt.opts)
			if !errs.Is(err, tt.kind) || errs.FieldOf(err) != tt.field {
				t.Fatalf("got %+v, %v (kind %s, field %q), want kind %s, field %q", res, err, errs.KindOf(err), errs.FieldOf(err), tt.kind, tt.field)
			}
		})
	}
}

func TestExtractRecordsBudget(t *testing.T) {
	doc := `<table><tr><th>` + strings.Repeat("h", 50) + `</th></tr>` + strings.Repeat(`<tr><td>v</td></tr>`, 10) + `</table>`
	opts := &Options{MaxTextBytes: 200}
	if _, err := Extract(context.Background(), Input{HTML: doc}, opts); err != nil {
		t.Fatalf("without records: %v", err)
	}
	if _, err := Extract(context.Background(), Input{HTML: doc, Records: true}, opts); !errs.Is(err, errs.KindTooLarge) {
		t.Fatalf("with records: %v, want too_large", err)
	}
}

func TestExtractCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Extract(ctx, Input{HTML: `<table><tr><td>x</td></tr></table>`}, nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
}

// TestExtractDeep reads tables nested as deep as the parser allows, and a
// hand-built tree far deeper, without recursion.
func TestExtractDeep(t *testing.T) {
	const tables = 120 // html, body and 4 elements a level: 482 deep
	doc := strings.Repeat(`<table><tr><td>`, tables) + "x"
	res, err := Extract(context.Background(), Input{HTML: doc}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tables) != tables {
		t.Fatalf("got %d tables, want %d", len(res.Tables), tables)
	}
	last := res.Tables[tables-1]
	if last.Depth != tables-1 || last.Parent != tables-2 || last.Rows[0][0] != "x" || res.Tables[0].Rows[0][0] != "" {
		t.Errorf("innermost table: depth %d, parent %d, rows %q; outer rows %q", last.Depth, last.Parent, last.Rows, res.Tables[0].Rows)
	}

	root, _ := html.Parse(strings.NewReader(`<table><tr><td></td></tr></table>`))
	n := root.FirstChild.LastChild.FirstChild.FirstChild.FirstChild.FirstChild // html body table tbody tr td
	for range 1_000_000 {
		span := &html.Node{Type: html.ElementNode, Data: "span", DataAtom: atom.Span}
		n.AppendChild(span)
		n = span
	}
	n.AppendChild(&html.Node{Type: html.TextNode, Data: "deep"})
	res, err = ExtractNode(context.Background(), root, nil)
	if err != nil || len(res.Tables) != 1 || res.Tables[0].Rows[0][0] != "deep" {
		t.Fatalf("got %+v, %v", res, err)
	}
}

func TestSpans(t *testing.T) {
	tests := []struct {
		attrs            string
		colspan, rowspan int
	}{
		{``, 1, 1},
		{`colspan="3" rowspan="4"`, 3, 4},
		{`colspan="0" rowspan="0"`, 1, 0},
		{`colspan="5000" rowspan="99999999999999999999"`, maxColspan, maxRowspan},
		{`colspan="-0" rowspan="-2"`, 1, 1},
		{"colspan=\"\t\n 7 cols\" rowspan=\"2.9\"", 7, 2},
		{`colspan="2" colspan="3"`, 2, 1},
	}
	for _, tt := range tests {
		doc, _ := html.Parse(strings.NewReader(`<table><tr><td ` + tt.attrs + `></td></tr></table>`))
		var td *html.Node
		walk(doc, func(n *html.Node) bool {
			if n.Data == "td" {
				td = n
			}
			return true
		}, func(*html.Node) {})
		if c, r := spans(td); c != tt.colspan || r != tt.rowspan {
			t.Errorf("%s: got %d, %d, want %d, %d", tt.attrs, c, r, tt.colspan, tt.rowspan)
		}
	}
}
