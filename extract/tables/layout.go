package tables

import (
	"context"
	"math"
	"slices"
	"strings"

	"github.com/webinfra/webinfra/internal/htmltag"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// The layout is written by hand: golang.org/x/net/html and goquery give the
// tree as written, where a cell's column depends on the rowspans of the rows
// above it, and no Go library implements the table model. This is the
// WHATWG "forming a table" algorithm
// (https://html.spec.whatwg.org/multipage/tables.html#forming-a-table), one
// row at a time, with the departures listed in the package doc.

// Span maximums from the HTML standard.
const (
	maxColspan = 1000
	maxRowspan = 65534
)

// toGroupEnd is the rows left for a rowspan=0 cell: the rest of its row
// group.
const toGroupEnd = math.MaxInt

// grid is a table laid out as rows of slots, each slot holding the text of
// the cell that covers it.
type grid struct {
	ctx        context.Context
	lim        *limits
	head       [][]string // the rows of the table's first thead
	rows       [][]string // every other row in table order, tfoot rows last
	width      int
	firstAllTH bool    // rows[0] has cells and all of them are th
	down       []cover // per column, a cell of an earlier row that covers later rows of the row group
	taken      []bool  // per column, whether the current row's slot is filled
	charged    int     // slots of this table charged to lim
}

// cover is a cell spanning down from an earlier row.
type cover struct {
	text string
	left int // rows it still covers after the current one
}

// layout forms the table: its tr children and the rows of its thead and
// tbody children in tree order, then the rows of its tfoot children. Rows
// are padded with "" to the table's width.
func layout(ctx context.Context, table *html.Node, lim *limits) (*grid, error) {
	g := &grid{ctx: ctx, lim: lim}
	thead := firstChild(table, atom.Thead)
	var tfoots []*html.Node
	for c := range table.ChildNodes() {
		var err error
		switch {
		case isElement(c, atom.Tr):
			err = g.addRow(c, false)
		case isElement(c, atom.Thead), isElement(c, atom.Tbody):
			g.endGroup()
			err = g.addGroup(c, c == thead)
		case isElement(c, atom.Tfoot):
			g.endGroup()
			tfoots = append(tfoots, c)
		}
		if err != nil {
			return nil, err
		}
	}
	g.endGroup()
	for _, f := range tfoots {
		if err := g.addGroup(f, false); err != nil {
			return nil, err
		}
	}
	g.pad()
	return g, nil
}

// addGroup lays out the rows of a thead, tbody or tfoot.
func (g *grid) addGroup(group *html.Node, head bool) error {
	for c := range group.ChildNodes() {
		if isElement(c, atom.Tr) {
			if err := g.addRow(c, head); err != nil {
				return err
			}
		}
	}
	g.endGroup()
	return nil
}

// endGroup ends a row group: rowspans stop here, so a rowspan reaching past
// the group's last row adds no rows.
func (g *grid) endGroup() {
	clear(g.down)
	g.down = g.down[:0]
}

// addRow lays out one tr: the slots covered from rows above, then its td
// and th cells left to right, each in the first free slot.
func (g *grid) addRow(tr *html.Node, head bool) error {
	if (len(g.head)+len(g.rows))%1024 == 0 {
		if err := g.ctx.Err(); err != nil {
			return err
		}
	}
	if err := g.reserve(g.width); err != nil {
		return err
	}
	row := make([]string, g.width)
	g.taken = slices.Grow(g.taken[:0], g.width)[:g.width]
	clear(g.taken)
	for x := range g.down {
		if c := &g.down[x]; c.left > 0 {
			if err := g.fill(row, x, c.text); err != nil {
				return err
			}
			c.left--
		}
	}
	x, cells, allTH := 0, 0, true
	for c := range tr.ChildNodes() {
		td, th := isElement(c, atom.Td), isElement(c, atom.Th)
		if !td && !th {
			continue
		}
		cells++
		allTH = allTH && th
		for x < len(row) && g.taken[x] {
			x++
		}
		colspan, rowspan := spans(c)
		end := x + colspan
		if end > len(row) {
			if err := g.reserve(end); err != nil {
				return err
			}
			row = append(row, make([]string, end-len(row))...)
			g.taken = append(g.taken, make([]bool, end-len(g.taken))...)
			g.width = end
		}
		s := text(c)
		for ; x < end; x++ {
			// Overlapping cells are a table model error; the earlier
			// cell keeps the slot.
			if !g.taken[x] {
				if err := g.fill(row, x, s); err != nil {
					return err
				}
			}
			if rowspan != 1 {
				g.coverBelow(x, s, rowspan)
			}
		}
	}
	if head {
		g.head = append(g.head, row)
		return nil
	}
	if len(g.rows) == 0 {
		g.firstAllTH = cells > 0 && allTH
	}
	g.rows = append(g.rows, row)
	return nil
}

// reserve charges the limits for the current row at the given width, with
// every earlier row padded to it; a row counts as at least one slot.
func (g *grid) reserve(width int) error {
	need := (len(g.head) + len(g.rows) + 1) * max(width, 1)
	if err := g.lim.spendCells(need - g.charged); err != nil {
		return err
	}
	g.charged = need
	return nil
}

// fill puts a cell's text in slot x of the current row.
func (g *grid) fill(row []string, x int, s string) error {
	if err := g.lim.spendText(len(s)); err != nil {
		return err
	}
	row[x] = s
	g.taken[x] = true
	return nil
}

// coverBelow records that a cell with the given rowspan (0: to the end of
// the row group) covers column x of the rows after the current one, unless
// an earlier cell still does.
func (g *grid) coverBelow(x int, s string, rowspan int) {
	for len(g.down) <= x {
		g.down = append(g.down, cover{})
	}
	if g.down[x].left > 0 {
		return
	}
	left := rowspan - 1
	if rowspan == 0 {
		left = toGroupEnd
	}
	g.down[x] = cover{text: s, left: left}
}

// pad extends short rows with "" to the table's width.
func (g *grid) pad() {
	for _, rows := range [][][]string{g.head, g.rows} {
		for i, row := range rows {
			if len(row) < g.width {
				rows[i] = append(row, make([]string, g.width-len(row))...)
			}
		}
	}
}

// spans reads a cell's colspan and rowspan by the HTML standard: a colspan
// that is missing, invalid or 0 is 1, a rowspan that is missing or invalid
// is 1 and a rowspan of 0 means to the end of the row group; both are
// clamped to the standard's maximums.
func spans(cell *html.Node) (colspan, rowspan int) {
	colspan, rowspan = 1, 1
	if v, ok := parseNonNegative(htmltag.Attr(cell, "colspan")); ok && v > 0 {
		colspan = min(v, maxColspan)
	}
	if v, ok := parseNonNegative(htmltag.Attr(cell, "rowspan")); ok {
		rowspan = min(v, maxRowspan)
	}
	return colspan, rowspan
}

// parseNonNegative follows the HTML rules for parsing non-negative
// integers: leading whitespace, an optional sign, then digits up to the
// first non-digit ("3px" is 3). Large values saturate just above
// maxRowspan, which every caller clamps to anyway.
func parseNonNegative(s string) (int, bool) {
	s = strings.TrimLeft(s, "\t\n\f\r ")
	neg := strings.HasPrefix(s, "-")
	if neg || strings.HasPrefix(s, "+") {
		s = s[1:]
	}
	n, digits := 0, 0
	for digits < len(s) && '0' <= s[digits] && s[digits] <= '9' {
		n = min(n*10+int(s[digits]-'0'), maxRowspan+1)
		digits++
	}
	if digits == 0 || (neg && n != 0) {
		return 0, false
	}
	return n, true
}
