package tables

import (
	"context"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/internal/htmltag"
)

// Defaults used for zero (or negative) Options fields.
const (
	DefaultMaxTables    = 1000
	DefaultMaxCells     = 1_000_000
	DefaultMaxTextBytes = 64 << 20
)

// Input is the document to read; it is also the request body of
// POST /v1/extract/tables.
type Input struct {
	HTML    string `json:"html" minLength:"1" example:"<table><tr><th>Name</th><th>Age</th></tr><tr><td>Ada</td><td>36</td></tr></table>" doc:"The HTML document or fragment to read. Nothing is fetched."`
	Records bool   `json:"records,omitempty" example:"true" doc:"Also return each body row as an object keyed by header, for tables whose headers are all non-empty and unique."`
}

// Options bound the work done on one document. The zero value (or nil)
// means defaults.
type Options struct {
	// MaxTables caps the tables in a document, nested ones included;
	// default DefaultMaxTables.
	MaxTables int
	// MaxCells caps the slots of all tables together, counted after
	// colspan and rowspan are expanded and rows padded (an empty row counts
	// as one); default DefaultMaxCells.
	MaxCells int
	// MaxTextBytes caps the text of the result: every slot's copy of its
	// cell's text, captions and, with Input.Records, record keys and
	// values; default DefaultMaxTextBytes. It bounds the response a small
	// document with huge spans could otherwise produce.
	MaxTextBytes int
}

// Result is every table of a document.
type Result struct {
	Tables []Table `json:"tables" doc:"Every table in document order, nested tables included."`
}

// Table is one table, expanded to a rectangle: every row has ColumnCount
// values.
type Table struct {
	Index       int                 `json:"index" doc:"Position in document order (a table before the tables nested in it), from 0."`
	Parent      int                 `json:"parent" doc:"Index of the table this one sits in (in a cell or the caption); -1 for a top-level table."`
	Depth       int                 `json:"depth" doc:"Nesting depth: 0 for a top-level table, 1 inside another table, and so on."`
	Caption     string              `json:"caption,omitempty" doc:"The text of the table's first caption."`
	Headers     []string            `json:"headers" doc:"One header per column, from thead (several rows joined per column with \" / \") or else from a first row of th cells only; empty when the table has neither."`
	Rows        [][]string          `json:"rows" doc:"The body rows (header rows removed, tfoot rows last), each padded to column_count; a cell spanning several slots is repeated in each."`
	Records     []map[string]string `json:"records,omitempty" doc:"With records: each body row keyed by header; omitted unless the headers are all non-empty and unique."`
	RowCount    int                 `json:"row_count" doc:"The number of body rows."`
	ColumnCount int                 `json:"column_count" doc:"The number of columns."`
}

// Extract parses in.HTML and returns all its tables. An empty document is
// invalid; a document nested deeper than the parser allows (512 elements)
// or exceeding a limit of opts is an error of kind too_large.
func Extract(ctx context.Context, in Input, opts *Options) (*Result, error) {
	if strings.TrimSpace(in.HTML) == "" {
		return nil, errs.Invalid("html", "must not be empty")
	}
	doc, err := htmltag.Parse(in.HTML, "html")
	if err != nil {
		return nil, err
	}
	return extract(ctx, doc, opts, in.Records)
}

// ExtractNode is Extract for a document (or any node) already parsed with
// golang.org/x/net/html: the tables are root and those under it. It leaves
// Table.Records empty; see Records.
func ExtractNode(ctx context.Context, root *html.Node, opts *Options) (*Result, error) {
	return extract(ctx, root, opts, false)
}

// Records returns each row as a map from header to value, or nil unless
// headers are present, non-empty and unique.
func Records(headers []string, rows [][]string) []map[string]string {
	if !recordable(headers) {
		return nil
	}
	out := make([]map[string]string, len(rows))
	for i, row := range rows {
		rec := make(map[string]string, len(headers))
		for x, h := range headers {
			if x < len(row) {
				rec[h] = row[x]
			} else {
				rec[h] = ""
			}
		}
		out[i] = rec
	}
	return out
}

// recordable reports whether headers can key records: present, non-empty
// and unique.
func recordable(headers []string) bool {
	if len(headers) == 0 {
		return false
	}
	seen := make(map[string]bool, len(headers))
	for _, h := range headers {
		if h == "" || seen[h] {
			return false
		}
		seen[h] = true
	}
	return true
}

// extract reads the tables at and under root, with their records if asked.
func extract(ctx context.Context, root *html.Node, opts *Options, records bool) (*Result, error) {
	lim := newLimits(opts)
	res := &Result{Tables: []Table{}}
	if root == nil {
		return res, nil
	}
	found, err := findTables(root, lim.maxTables)
	if err != nil {
		return nil, err
	}
	for i, f := range found {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		t, err := buildTable(ctx, f, lim)
		if err != nil {
			return nil, err
		}
		if records && recordable(t.Headers) {
			if err := lim.spendText(recordsBytes(t.Headers, t.Rows)); err != nil {
				return nil, err
			}
			t.Records = Records(t.Headers, t.Rows)
		}
		t.Index = i
		res.Tables = append(res.Tables, t)
	}
	return res, nil
}

// recordsBytes is the text Records(headers, rows) adds to a result.
func recordsBytes(headers []string, rows [][]string) int {
	keys := 0
	for _, h := range headers {
		keys += len(h)
	}
	n := keys * len(rows)
	for _, row := range rows {
		for _, v := range row {
			n += len(v)
		}
	}
	return n
}

// found is a table element and where it sits.
type found struct {
	node   *html.Node
	parent int // index in the found list of the nearest enclosing table; -1 if none
	depth  int
}

// findTables lists the HTML table elements at and under root in document
// order, skipping template contents, with their nesting. More than max is
// an error.
func findTables(root *html.Node, max int) ([]found, error) {
	var out []found
	var open []int // indexes in out of the tables around the current node
	walk(root, func(n *html.Node) bool {
		if len(out) > max || isElement(n, atom.Template) {
			return false
		}
		if isElement(n, atom.Table) {
			parent := -1
			if len(open) > 0 {
				parent = open[len(open)-1]
			}
			out = append(out, found{node: n, parent: parent, depth: len(open)})
			open = append(open, len(out)-1)
		}
		return true
	}, func(n *html.Node) {
		if isElement(n, atom.Table) {
			open = open[:len(open)-1]
		}
	})
	if len(out) > max {
		return nil, errs.New(errs.KindTooLarge, "the document has more than %d tables", max)
	}
	return out, nil
}

// buildTable lays out one table and splits its header rows from its body.
func buildTable(ctx context.Context, f found, lim *limits) (Table, error) {
	t := Table{Parent: f.parent, Depth: f.depth, Headers: []string{}}
	if c := firstChild(f.node, atom.Caption); c != nil {
		t.Caption = text(c)
		if err := lim.spendText(len(t.Caption)); err != nil {
			return t, err
		}
	}
	g, err := layout(ctx, f.node, lim)
	if err != nil {
		return t, err
	}
	body := g.rows
	switch {
	case len(g.head) > 0:
		t.Headers = joinHeaders(g.head, g.width)
	case len(body) > 0 && g.firstAllTH:
		t.Headers = body[0]
		body = body[1:]
	}
	if body == nil {
		body = [][]string{}
	}
	t.Rows = body
	t.RowCount = len(body)
	t.ColumnCount = g.width
	return t, nil
}

// joinHeaders merges several header rows into one header per column: the
// column's non-empty values top to bottom, a value repeated by a span
// kept once, joined with " / ".
func joinHeaders(rows [][]string, width int) []string {
	if len(rows) == 1 {
		return rows[0]
	}
	out := make([]string, width)
	var parts []string
	for x := range width {
		parts = parts[:0]
		for _, row := range rows {
			if v := row[x]; v != "" && (len(parts) == 0 || parts[len(parts)-1] != v) {
				parts = append(parts, v)
			}
		}
		out[x] = strings.Join(parts, " / ")
	}
	return out
}

// limits is what is left of Options' budgets while a document is read.
type limits struct {
	maxTables, maxCells, maxText int
	cells, text                  int // spent so far
}

func newLimits(opts *Options) *limits {
	var o Options
	if opts != nil {
		o = *opts
	}
	return &limits{
		maxTables: orDefault(o.MaxTables, DefaultMaxTables),
		maxCells:  orDefault(o.MaxCells, DefaultMaxCells),
		maxText:   orDefault(o.MaxTextBytes, DefaultMaxTextBytes),
	}
}

func orDefault(v, def int) int {
	if v <= 0 {
		return def
	}
	return v
}

func (l *limits) spendCells(n int) error {
	if n > l.maxCells-l.cells {
		return errs.New(errs.KindTooLarge, "the tables have more than %d cells once colspan and rowspan are expanded", l.maxCells)
	}
	l.cells += n
	return nil
}

func (l *limits) spendText(n int) error {
	if n > l.maxText-l.text {
		return errs.New(errs.KindTooLarge, "the tables hold more than %d bytes of text once colspan and rowspan are expanded", l.maxText)
	}
	l.text += n
	return nil
}
