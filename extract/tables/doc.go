// Package tables returns every table of an HTML document as JSON-ready
// rows and columns. It is a pure function over HTML: nothing is fetched.
// It backs POST /v1/extract/tables.
//
//	res, err := tables.Extract(ctx, tables.Input{HTML: page}, nil) // nil: default limits
//	for _, t := range res.Tables {
//		fmt.Println(t.Headers, t.Rows)
//	}
//
// ExtractNode does the same for a tree already parsed with
// golang.org/x/net/html, and Records turns headers and rows into one map
// per row.
//
// # Tables
//
// Every HTML table element is returned, in document order (a table before
// the tables nested in it); tables inside template elements are not.
// Table.Parent is the index of the table whose cell (or caption) holds a
// nested table, -1 for a top-level one, and Table.Depth its nesting depth.
// A nested table's text does not appear in the outer cell: that cell reads
// as if the table were not there.
//
// # Layout
//
// Rows and columns follow the HTML standard's table model ("forming a
// table"): the table's tr children and the rows of its thead and tbody
// children in tree order, then the rows of its tfoot children, so footer
// rows come last. Each cell fills the first free slot of its row and
// covers colspan × rowspan slots; its text is copied into every one of
// them. colspan and rowspan are parsed as the standard says ("3px" is 3; a
// missing or invalid value is 1; colspan 0 is 1), colspan is clamped to
// 1000 and rowspan to 65534, and rowspan=0 spans to the end of the row
// group (in quirks mode too). Rows shorter than the table are padded with
// "". Where cells overlap (a table model error), the slot keeps the earlier
// cell.
//
// Two departures from the standard's slot model, both matching what
// browsers render: a rowspan that reaches past the last row of its row
// group (thead, tbody, tfoot, or a run of tr children of the table) is cut
// there instead of adding empty rows, and col and colgroup elements do not
// widen the table: the width is that of the widest row of cells.
//
// # Headers
//
// Headers come from the table's first thead: with one row, that row; with
// several, each column's non-empty values top to bottom, a value repeated
// by a span kept once, joined with " / " (a "Score" cell spanning "Math"
// and "Art" gives "Score / Math" and "Score / Art"). Without thead rows,
// a first row made only of th cells is the header row. Header rows are not
// in Table.Rows; Table.Headers is empty when there are none. A cell
// spanning the header row and body rows repeats in the body, as any span
// does. Table.Records, asked for with Input.Records, maps each body row by
// header, and is given only for headers that are all non-empty and unique.
//
// # Text
//
// A cell's text is what a reader sees, on one line: character references
// decoded, whitespace (no-break spaces included) collapsed to single
// spaces and trimmed, <br> and block elements (p, div, li, ...) read as a
// space so words never run together. Scripts, styles, templates, noscript,
// elements with the hidden attribute or an inline display:none (such as
// the sort keys of sortable tables), and nested tables are left out.
// Images' alt text is not read.
//
// # Limits
//
// Options bound the work on hostile input: MaxTables (default 1,000
// tables), MaxCells (default 1,000,000 slots over all tables, counted after
// spans are expanded and rows padded) and MaxTextBytes (default 64 MiB of
// text in the result, counting every copy a span makes, so a small
// document with huge spans cannot produce a huge response). Exceeding one
// is an error of kind too_large (package errs); the checks happen while
// the layout grows, before memory is spent. An empty document is an
// invalid-input error on field "html", and one nested deeper than
// golang.org/x/net/html parses (512 elements) is too_large. Walks over the
// tree use no recursion, so a deep tree given to ExtractNode cannot
// overflow the stack.
package tables
