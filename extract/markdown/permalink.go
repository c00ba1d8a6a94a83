package markdown

import (
	"strings"
	"unicode"
)

// A permalink is the anchor documentation generators and blogs put
// beside a heading so a reader can copy a link to it (Sphinx's
// headerlink "¶", "§", "#", a link emoji, Docusaurus's zero-width
// space): a link to a fragment of the page itself whose text is one such
// mark or nothing visible. It is chrome, not text, and
// in Markdown it would glue "[¶](…#quickstart)" to every heading, so the
// converter leaves it out. Only links to the same page are candidates:
// a "#" linking elsewhere (a hashtag, say) is kept.

// permalink is what the converter saved when a candidate opened: the
// sink's state, to be put back if the link turns out to be a permalink,
// and the link's text so far.
type permalink struct {
	sink    *sink
	buf     int
	wrote   bool
	breaks  int
	hard    bool
	space   bool
	pending string
	text    []byte // capped at maxPermalinkText+1 bytes
	image   bool   // an image was written inside: not a permalink
}

// maxPermalinkText bounds the text collected from a candidate link; a
// permalink's mark is a few bytes.
const maxPermalinkText = 16

// permalinkMarks are the texts of permalink anchors.
var permalinkMarks = map[string]bool{
	"¶": true, "§": true, "#": true, "🔗": true, "⚓": true, "⚓\uFE0E": true,
	"⚓\uFE0F": true, "🔗\uFE0F": true, "∞": true,
}

// samePage reports whether a link's href points into the page itself:
// a bare fragment, or the page's own URL with one.
func (c *converter) samePage(href, resolved string) bool {
	href = strings.TrimSpace(href)
	if strings.HasPrefix(href, "#") {
		return true
	}
	if c.base == nil || !strings.Contains(href, "#") {
		return false
	}
	page, _, _ := strings.Cut(c.base.String(), "#")
	return strings.HasPrefix(resolved, page+"#")
}

// openPermalink saves the sink's state as a candidate link opens.
func (c *converter) openPermalink() {
	s := c.top()
	c.anchor = &permalink{sink: s, buf: len(s.buf), wrote: s.wrote, breaks: s.breaks,
		hard: s.hard, space: s.space, pending: string(s.pending)}
}

// noteText records text written inside a candidate link.
func noteText[T string | []byte](p *permalink, t T) {
	if len(p.text) <= maxPermalinkText {
		n := min(len(t), maxPermalinkText+1-len(p.text))
		p.text = append(p.text, t[:n]...)
	}
}

// closePermalink ends a candidate link and reports whether it was a
// permalink, in which case everything it wrote is undone.
func (c *converter) closePermalink() bool {
	p := c.anchor
	c.anchor = nil
	if p == nil || p.image || p.sink != c.top() {
		return false
	}
	if mark := strings.TrimFunc(string(p.text), invisible); mark != "" && !permalinkMarks[mark] {
		return false
	}
	s := p.sink
	s.buf = s.buf[:p.buf]
	s.wrote, s.breaks, s.hard, s.space = p.wrote, p.breaks, p.hard, p.space
	s.pending = append(s.pending[:0], p.pending...)
	return true
}

// invisible reports whether r shows nothing: a space or a zero-width
// character.
func invisible(r rune) bool {
	return unicode.IsSpace(r) || r == '\u200B' || r == '\u200C' || r == '\u200D' || r == '\u2060' || r == '\uFEFF'
}
