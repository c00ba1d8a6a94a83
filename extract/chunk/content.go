package chunk

import (
	"strings"
)

// blockKind is what a block of the content is.
type blockKind uint8

const (
	kindPara    blockKind = iota
	kindHeading           // an ATX or setext heading, or a line that is an h1–h6 of the page
	kindItem              // a list item, text starting "- "
	kindRow               // a table row, cells joined by " | "
	kindCode              // a fenced code block, verbatim
)

// block is a paragraph-level piece of the content as readable text: the
// markdown syntax is gone (links keep their text, images are dropped) and
// words are found in text.
type block struct {
	kind  blockKind
	level int // heading level 1–6
	text  string
}

// Content formats of Options.Format.
const (
	FormatMarkdown = "markdown"
	FormatText     = "text"
)

// parseContent splits the content into blocks.
func parseContent(content, format string) []block {
	content = strings.ReplaceAll(content, "\r\n", "\n")
	content = strings.ReplaceAll(content, "\r", "\n")
	if format == FormatText {
		var out []block
		for _, line := range strings.Split(content, "\n") {
			if t := strings.TrimSpace(line); t != "" {
				out = append(out, block{kind: kindPara, text: t})
			}
		}
		return out
	}
	return parseMarkdown(content)
}

// mdParser turns markdown into blocks, one line at a time. It knows the
// CommonMark block structure well enough for extractor output: ATX and
// setext headings, fenced code, lists, block quotes, pipe tables,
// thematic breaks, link reference definitions and paragraphs.
type mdParser struct {
	out   []block
	kind  blockKind
	lines []string // raw lines of the open paragraph or item
	open  bool
	fence string // the open code fence, "" when none
	code  []string
}

func parseMarkdown(content string) []block {
	p := &mdParser{}
	for _, line := range strings.Split(content, "\n") {
		p.line(line)
	}
	if p.fence != "" {
		p.closeCode()
	}
	p.close()
	return p.out
}

// close ends the open paragraph or list item.
func (p *mdParser) close() {
	if !p.open {
		return
	}
	for i, l := range p.lines {
		p.lines[i] = strings.TrimRight(l, " \t")
	}
	text := strings.TrimSpace(cleanInline(strings.Join(p.lines, "\n")))
	if p.kind == kindItem {
		text = "- " + text
	}
	if text != "" && text != "-" {
		p.out = append(p.out, block{kind: p.kind, text: text})
	}
	p.open, p.lines = false, p.lines[:0]
}

func (p *mdParser) closeCode() {
	text := strings.Join(p.code, "\n")
	if strings.TrimSpace(text) != "" {
		p.out = append(p.out, block{kind: kindCode, text: strings.Trim(text, "\n")})
	}
	p.fence, p.code = "", p.code[:0]
}

func (p *mdParser) line(line string) {
	if p.fence != "" {
		if t := strings.TrimLeft(line, " "); len(line)-len(t) <= 3 && strings.HasPrefix(t, p.fence) &&
			strings.Trim(t, p.fence[:1]+" \t") == "" {
			p.closeCode()
			return
		}
		p.code = append(p.code, line)
		return
	}
	// Block quote markers only nest; the quoted text is ordinary text.
	for {
		t := strings.TrimLeft(line, " ")
		if len(line)-len(t) > 3 || !strings.HasPrefix(t, ">") {
			break
		}
		line = strings.TrimPrefix(t[1:], " ")
	}
	t := strings.TrimLeft(line, " \t")
	indent := len(line) - len(t)
	if t == "" {
		p.close()
		return
	}
	if indent <= 3 {
		if f := fenceOf(t); f != "" {
			p.close()
			p.fence = f
			return
		}
		if lvl, text, ok := atxHeading(t); ok {
			p.close()
			if text = strings.TrimSpace(cleanInline(text)); text != "" {
				p.out = append(p.out, block{kind: kindHeading, level: lvl, text: text})
			}
			return
		}
		if p.open && p.kind == kindPara && isUnderline(t, '=') {
			p.setext(1)
			return
		}
		if p.open && p.kind == kindPara && isUnderline(t, '-') {
			p.setext(2)
			return
		}
		if isThematicBreak(t) {
			p.close()
			return
		}
		if isRefDefinition(t) {
			return
		}
		if t[0] == '|' {
			p.close()
			if !isTableRule(t) {
				if text := tableRow(t); text != "" {
					p.out = append(p.out, block{kind: kindRow, text: text})
				}
			}
			return
		}
	}
	if rest, ok := listItem(t); ok {
		p.close()
		p.open, p.kind = true, kindItem
		p.lines = append(p.lines, rest)
		return
	}
	if !p.open {
		p.open, p.kind = true, kindPara
	}
	p.lines = append(p.lines, t)
}

// setext turns the open paragraph into a heading.
func (p *mdParser) setext(level int) {
	text := strings.TrimSpace(cleanInline(strings.Join(p.lines, "\n")))
	p.open, p.lines = false, p.lines[:0]
	if text != "" {
		p.out = append(p.out, block{kind: kindHeading, level: level, text: text})
	}
}

// fenceOf returns the fence that t opens ("```" or "~~~", as long as
// given), or "".
func fenceOf(t string) string {
	if len(t) < 3 || (t[0] != '`' && t[0] != '~') {
		return ""
	}
	n := 0
	for n < len(t) && t[n] == t[0] {
		n++
	}
	if n < 3 || (t[0] == '`' && strings.Contains(t[n:], "`")) {
		return ""
	}
	return t[:n]
}

// atxHeading parses "## text ##".
func atxHeading(t string) (int, string, bool) {
	n := 0
	for n < len(t) && t[n] == '#' {
		n++
	}
	if n == 0 || n > 6 || (n < len(t) && t[n] != ' ' && t[n] != '\t') {
		return 0, "", false
	}
	text := strings.TrimSpace(t[n:])
	// a closing sequence of #s after a space
	if j := strings.TrimRight(text, "#"); j != text && (j == "" || strings.HasSuffix(j, " ") || strings.HasSuffix(j, "\t")) {
		text = strings.TrimSpace(j)
	}
	return n, text, true
}

func isUnderline(t string, c byte) bool {
	t = strings.TrimRight(t, " \t")
	return t != "" && strings.Trim(t, string(c)) == ""
}

func isThematicBreak(t string) bool {
	c := t[0]
	if c != '-' && c != '*' && c != '_' {
		return false
	}
	n := 0
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case c:
			n++
		case ' ', '\t':
		default:
			return false
		}
	}
	return n >= 3
}

// isRefDefinition reports a link reference definition "[label]: url".
func isRefDefinition(t string) bool {
	if t[0] != '[' {
		return false
	}
	end := strings.Index(t, "]:")
	return end > 1 && !strings.Contains(t[1:end], "]") && strings.TrimSpace(t[end+2:]) != "" &&
		!strings.ContainsAny(strings.TrimSpace(t[end+2:]), " \t")
}

// listItem parses a bullet or ordered list marker and returns the rest.
func listItem(t string) (string, bool) {
	if len(t) >= 2 && (t[0] == '-' || t[0] == '*' || t[0] == '+') && (t[1] == ' ' || t[1] == '\t') {
		return strings.TrimLeft(t[2:], " \t"), true
	}
	if len(t) == 1 && (t[0] == '-' || t[0] == '*' || t[0] == '+') {
		return "", true
	}
	n := 0
	for n < len(t) && n < 9 && t[n] >= '0' && t[n] <= '9' {
		n++
	}
	if n == 0 || n >= len(t) || (t[n] != '.' && t[n] != ')') {
		return "", false
	}
	if n+1 == len(t) {
		return "", true
	}
	if t[n+1] != ' ' && t[n+1] != '\t' {
		return "", false
	}
	return strings.TrimLeft(t[n+2:], " \t"), true
}

// isTableRule reports a pipe table's delimiter row "|---|:--:|".
func isTableRule(t string) bool {
	t = strings.TrimSpace(t)
	return strings.Trim(t, "|-: \t") == "" && strings.Contains(t, "-")
}

// tableRow returns a row's cells joined by " | ".
func tableRow(t string) string {
	t = strings.TrimSpace(t)
	t = strings.TrimPrefix(t, "|")
	if strings.HasSuffix(t, "|") && !strings.HasSuffix(t, `\|`) {
		t = t[:len(t)-1]
	}
	var cells []string
	start := 0
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case '\\':
			i++
		case '|':
			cells = append(cells, t[start:i])
			start = i + 1
		}
	}
	cells = append(cells, t[start:])
	out := make([]string, 0, len(cells))
	for _, c := range cells {
		if c = strings.TrimSpace(cleanInline(c)); c != "" {
			out = append(out, c)
		}
	}
	return strings.Join(out, " | ")
}
