package markdown

import (
	"strings"

	"golang.org/x/net/html/atom"
)

// table collects a table's cells until its end tag; it is written as a
// GitHub table whose first row is the header row.
type table struct {
	rows [][]string
	row  []string
}

func (c *converter) openTable() {
	c.block(2)
	if c.top().mode != flowMode || c.links > 0 {
		// A table in a cell or a link is flattened into it.
		c.frames = append(c.frames, frame{tag: atom.Table, flat: true})
		return
	}
	c.frames = append(c.frames, frame{tag: atom.Table})
	c.tables = append(c.tables, &table{})
}

// currentTable is the table whose rows are being collected; nil outside
// one, or inside a flattened table.
func (c *converter) currentTable() *table {
	for i := len(c.frames) - 1; i >= 0; i-- {
		if f := c.frames[i]; f.tag == atom.Table {
			if f.flat {
				return nil
			}
			return c.tables[len(c.tables)-1]
		}
	}
	return nil
}

func (c *converter) openRow() {
	if c.currentTable() == nil {
		c.block(2)
		return
	}
	c.closeTo(is(atom.Tr), is(atom.Table), true)
	c.frames = append(c.frames, frame{tag: atom.Tr})
}

func (c *converter) openCell(tag atom.Atom) {
	if c.currentTable() == nil {
		c.block(2)
		return
	}
	c.closeTo(is(atom.Td, atom.Th), is(atom.Tr, atom.Table), true)
	if !c.closeTo(is(atom.Tr), is(atom.Table), false) {
		c.frames = append(c.frames, frame{tag: atom.Tr}) // a cell outside a row opens one
	}
	c.frames = append(c.frames, frame{tag: tag})
	c.sinks = append(c.sinks, newSink(cellMode))
}

func (c *converter) closeCell(frame) {
	cell := c.sinks[len(c.sinks)-1]
	c.sinks = c.sinks[:len(c.sinks)-1]
	t := c.tables[len(c.tables)-1]
	t.row = append(t.row, strings.TrimSpace(string(cell.buf)))
}

func (c *converter) closeRow(frame) {
	t := c.tables[len(c.tables)-1]
	if len(t.row) > 0 {
		t.rows = append(t.rows, t.row)
	}
	t.row = nil
}

func (c *converter) closeTable(f frame) {
	if f.flat {
		c.block(2)
		return
	}
	t := c.tables[len(c.tables)-1]
	c.tables = c.tables[:len(c.tables)-1]
	if len(t.row) > 0 {
		t.rows = append(t.rows, t.row)
	}
	c.block(2)
	if md := t.markdown(); md != "" {
		c.top().writeBlock(c, md)
	}
	c.block(2)
}

// markdown renders the table. A one-column table is a layout table, not
// data: its cells become paragraphs.
func (t *table) markdown() string {
	width := 0
	for _, r := range t.rows {
		width = max(width, len(r))
	}
	var b strings.Builder
	if width == 1 {
		for _, r := range t.rows {
			if r[0] != "" {
				if b.Len() > 0 {
					b.WriteString("\n\n")
				}
				b.WriteString(r[0])
			}
		}
		return b.String()
	}
	for i, r := range t.rows {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteByte('|')
		for j := range width {
			cell := ""
			if j < len(r) {
				cell = r[j]
			}
			b.WriteString(" " + cell + " |")
		}
		if i == 0 {
			b.WriteString("\n|")
			for range width {
				b.WriteString(" --- |")
			}
		}
	}
	return b.String()
}
