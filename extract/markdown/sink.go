package markdown

import (
	"bytes"
	"strings"
)

// mode says how a sink treats text.
type mode uint8

const (
	flowMode mode = iota // the page: blocks, line prefixes, escaping
	cellMode             // a table cell: one line, escaping, | escaped
	codeMode             // inline code: whitespace collapsed, no escaping
	preMode              // a code block: text verbatim
)

// sink is where converted text goes: the page itself, or a capture (a
// table cell, a code span or block) whose text is finished when it ends.
//
// Breaks, spaces and openers (a heading's #, emphasis markers, a link's
// bracket) stay pending until text follows, so empty elements leave
// nothing and no line ends in spaces.
type sink struct {
	buf     []byte
	mode    mode
	wrote   bool   // text written since the sink began
	breaks  int    // pending line breaks (2: a blank line)
	hard    bool   // the pending break is a <br>
	space   bool   // a pending space
	pending []byte // openers waiting for the first text
	heading bool   // inside a heading: breaks are spaces
	lang    string // preMode: the code block's language
}

func newSink(m mode) *sink { return &sink{mode: m} }

// raw reports whether text is kept without escaping.
func (s *sink) raw() bool { return s.mode == codeMode || s.mode == preMode }

func (s *sink) leadLen() int { return len(s.pending) }

func (s *sink) lead(marker string) { s.pending = append(s.pending, marker...) }

// dropLead discards openers pending since mark; it reports whether the
// element they opened is empty (nothing was written since).
func (s *sink) dropLead(mark int) bool {
	if len(s.pending) > mark {
		s.pending = s.pending[:mark]
		return true
	}
	return false
}

func (s *sink) breakLines(c *converter, n int) {
	if s.heading || s.mode != flowMode {
		s.space = true
		return
	}
	if k := len(c.boxes); k > 0 && !c.boxes[k-1].quote && !c.boxes[k-1].done {
		n = 1 // an item's first block starts on the marker's line
	}
	if n > s.breaks {
		s.breaks, s.hard = n, false
	}
}

// lineBreak is a <br>: a hard line break in a paragraph, a space where a
// line cannot break (headings, links, cells), a newline in a code block.
func (s *sink) lineBreak(inLink bool) {
	switch {
	case s.mode == preMode:
		s.buf = append(s.buf, '\n')
	case s.mode != flowMode || s.heading || inLink:
		s.space = true
	case s.wrote && s.breaks == 0:
		s.breaks, s.hard = 1, true
	}
}

// flush writes what is pending before new text and reports whether the
// text starts a line.
func (s *sink) flush(c *converter) (lineStart bool) {
	switch {
	case !s.wrote:
		lineStart = true
	case s.breaks > 0:
		if s.hard {
			s.buf = append(s.buf, "  "...)
		}
		for i := 1; i < s.breaks; i++ {
			s.buf = append(s.buf, '\n')
			s.buf = c.appendPrefix(s.buf, true)
		}
		s.buf = append(s.buf, '\n')
		lineStart = true
	case s.space:
		s.buf = append(s.buf, ' ')
	}
	if lineStart && s.mode == flowMode {
		s.buf = c.appendPrefix(s.buf, false)
	}
	s.breaks, s.hard, s.space, s.wrote = 0, false, false, true
	s.buf = append(s.buf, s.pending...)
	s.pending = s.pending[:0]
	return lineStart
}

// writeRaw appends markup (a closing marker) right after the last text.
func (s *sink) writeRaw(markup string) { s.buf = append(s.buf, markup...) }

// writeInline writes finished markup (an image, a code span) as text.
func (s *sink) writeInline(c *converter, markup string) {
	s.flush(c)
	s.buf = append(s.buf, markup...)
}

// writeBlock writes a finished block (a code block, a table) with the
// line prefixes of the quotes and list items around it.
func (s *sink) writeBlock(c *converter, block string) {
	for i, line := range strings.Split(block, "\n") {
		if i == 0 {
			s.flush(c)
		} else {
			s.buf = append(s.buf, '\n')
			s.buf = c.appendPrefix(s.buf, line == "")
		}
		s.buf = append(s.buf, line...)
	}
}

// writeText writes a text token, whitespace collapsed and Markdown's
// punctuation escaped; in a code sink, verbatim.
func writeText[T string | []byte](s *sink, c *converter, t T) {
	if s.mode == preMode {
		s.buf = append(s.buf, t...)
		s.wrote = true
		return
	}
	for i := 0; i < len(t); {
		if n := spaceAt(t, i); n > 0 {
			s.space = true
			i += n
			continue
		}
		j := i + 1
		for j < len(t) && spaceAt(t, j) == 0 {
			j++
		}
		lineStart := s.flush(c)
		if s.mode == codeMode {
			s.buf = append(s.buf, t[i:j]...)
		} else {
			s.buf = appendEscaped(s.buf, t[i:j], lineStart, s.mode == cellMode)
		}
		i = j
	}
}

// spaceAt returns the length of the whitespace character at t[i]: ASCII
// whitespace or a no-break space; 0 if there is none.
func spaceAt[T string | []byte](t T, i int) int {
	switch t[i] {
	case ' ', '\t', '\n', '\r', '\f':
		return 1
	case 0xC2:
		if i+1 < len(t) && t[i+1] == 0xA0 {
			return 2
		}
	}
	return 0
}

// appendEscaped appends a word, escaping what Markdown would read as
// markup: emphasis and code markers, backslashes, raw HTML, and at the
// start of a line what would open a heading, quote, list or rule.
func appendEscaped[T string | []byte](buf []byte, w T, lineStart, cell bool) []byte {
	if lineStart && startsBlock(w) {
		if last := w[len(w)-1]; last == '.' || last == ')' {
			buf = append(buf, w[:len(w)-1]...)
			return append(buf, '\\', last)
		}
		buf = append(buf, '\\')
	}
	plain := 0 // w[plain:i] is pending, copied in one append
	for i := 0; i < len(w); i++ {
		escape := false
		switch w[i] {
		case '*', '`', '\\':
			escape = true
		case '_':
			escape = i == 0 || i == len(w)-1 || !isWordByte(w[i-1]) || !isWordByte(w[i+1])
		case '<':
			escape = i+1 < len(w) && (isLetter(w[i+1]) || w[i+1] == '/' || w[i+1] == '!' || w[i+1] == '?')
		case '|':
			escape = cell
		}
		if escape {
			buf = append(buf, w[plain:i]...)
			buf = append(buf, '\\')
			plain = i
		}
	}
	return append(buf, w[plain:]...)
}

// startsBlock reports whether a word at the start of a line would open a
// block: #, >, a bullet, a rule or setext underline, or "12." / "12)".
func startsBlock[T string | []byte](w T) bool {
	switch w[0] {
	case '>':
		return true
	case '#', '-', '+', '=', '*':
		for i := 1; i < len(w); i++ {
			if w[i] != w[0] {
				return false
			}
		}
		return true
	}
	n := 0
	for n < len(w) && n < 10 && w[n] >= '0' && w[n] <= '9' {
		n++
	}
	return n > 0 && n == len(w)-1 && (w[n] == '.' || w[n] == ')')
}

func isLetter(b byte) bool { return b|0x20 >= 'a' && b|0x20 <= 'z' }

func isWordByte(b byte) bool { return isLetter(b) || (b >= '0' && b <= '9') || b >= 0x80 }

// box is an open quote or list item: a prefix on each of its lines.
type box struct {
	quote  bool
	marker string // list items: "- " or "3. ", written on the first line
	done   bool   // the marker has been written
}

// appendPrefix appends the prefix of a new line: "> " per quote, and per
// list item its marker on its first line and as many spaces after.
// A blank line gets only the quotes' markers.
func (c *converter) appendPrefix(buf []byte, blank bool) []byte {
	start := len(buf)
	for i := range c.boxes {
		b := &c.boxes[i]
		switch {
		case blank && !b.done:
			// A box that has no line yet (and the boxes inside it) puts
			// nothing on the blank line before it.
			return append(buf[:start], bytes.TrimRight(buf[start:], " ")...)
		case b.quote:
			buf = append(buf, "> "...)
			b.done = true
		case !b.done:
			buf = append(buf, b.marker...)
			b.done = true
		default:
			for range len(b.marker) {
				buf = append(buf, ' ')
			}
		}
	}
	if blank {
		buf = append(buf[:start], bytes.TrimRight(buf[start:], " ")...)
	}
	return buf
}
