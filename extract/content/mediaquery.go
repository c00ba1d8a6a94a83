package content

import (
	"strconv"
	"strings"
	"unicode"
)

// displayRule is what one CSS rule that sets display on a class says,
// where it stands.
type displayRule struct {
	none       bool // display: none
	important  bool // !important
	applies    bool // its media queries hold at desktopWidth (or it has none)
	widthQuery bool // it lies inside a media query on the viewport's width
}

// sheetDisplays calls f for each rule of a stylesheet whose selector
// (or one of whose selectors) is one class alone and which declares
// display, with the class and what the rule says. Rules inside @media
// are read with their queries (see mediaQueries); @supports and @layer
// are looked through; rules inside any other at-rule (@container,
// @keyframes, …) or nested in a rule are not read.
//
// The sheet is scanned once, byte by byte, skipping comments and
// strings, and only the rules that mention display are read further, so
// the work is linear in the sheet. It is written here rather than run
// through tdewolff/parse's CSS parser (which stylesheet.go uses on the
// few rules it reads): that parser took 1.2% of accurate mode's time
// on whole sheets, and what is needed here is only the nesting of
// blocks, at-rules' preludes and one declaration.
func sheetDisplays(sheet string, f func(class string, r displayRule)) {
	stack := []sheetContext{{read: true, applies: true}}
	start := 0 // where the current rule's prelude starts
	for i := 0; i < len(sheet); i++ {
		switch sheet[i] {
		case '/':
			if i+1 < len(sheet) && sheet[i+1] == '*' {
				end := strings.Index(sheet[i+2:], "*/")
				if end < 0 {
					return
				}
				at := i
				i += end + 3
				if strings.TrimSpace(sheet[start:at]) == "" {
					start = i + 1 // a comment before a rule is not its prelude
				}
			}
		case '"', '\'':
			i = stringEnd(sheet, i)
		case ';':
			start = i + 1
		case '}':
			if len(stack) > 1 {
				stack = stack[:len(stack)-1]
			}
			start = i + 1
		case '{':
			if len(stack) > maxSheetDepth {
				return // no stylesheet nests so deep: not one to read
			}
			top := stack[len(stack)-1]
			prelude := strings.TrimSpace(sheet[start:i])
			if strings.HasPrefix(prelude, "@") {
				stack = append(stack, atRuleContext(prelude, top))
				start = i + 1
				continue
			}
			end := declarationsEnd(sheet, i+1)
			if end < len(sheet) && sheet[end] == '{' { // a nested rule: not read
				stack = append(stack, sheetContext{})
				start = i + 1
				i = end - 1
				continue
			}
			if top.read {
				decls := sheet[i+1 : end]
				if strings.Contains(decls, "display") {
					readDisplayRule(prelude, decls, top.applies, top.widthQuery, f)
				}
			}
			i, start = end, end+1
		}
	}
}

// maxSheetDepth bounds the blocks sheetDisplays reads inside one
// another: @media in @supports in @layer is three.
const maxSheetDepth = 32

// sheetContext is where a rule of a stylesheet stands: whether it is
// read (not inside an at-rule sheetDisplays does not look into), whether
// the media queries around it hold at desktopWidth, and whether one of
// them is on the viewport's width.
type sheetContext struct {
	read, applies, widthQuery bool
}

// atRuleContext is the context an at-rule opens inside top.
func atRuleContext(prelude string, top sheetContext) sheetContext {
	body := prelude[1:]
	end := strings.IndexFunc(body, func(r rune) bool { return r == '(' || unicode.IsSpace(r) })
	if end < 0 {
		end = len(body)
	}
	name, rest := strings.ToLower(body[:end]), body[end:] // "@media(min-width: 810px)" too
	switch name {
	case "media":
		applies, width, known := mediaQueries(rest)
		if !known {
			return sheetContext{}
		}
		return sheetContext{top.read, top.applies && applies, top.widthQuery || width}
	case "supports", "layer":
		return top
	}
	return sheetContext{}
}

// stringEnd returns the index of the quote that closes the string
// opening at sheet[i], or the sheet's last index.
func stringEnd(sheet string, i int) int {
	quote := sheet[i]
	for j := i + 1; j < len(sheet); j++ {
		switch sheet[j] {
		case '\\':
			j++
		case quote, '\n':
			return j
		}
	}
	return len(sheet) - 1
}

// declarationsEnd returns the index of the '}' that closes the
// declarations starting at sheet[from], or of a '{' that opens a nested
// rule first, or len(sheet).
func declarationsEnd(sheet string, from int) int {
	for j := from; j < len(sheet); j++ {
		switch sheet[j] {
		case '"', '\'':
			j = stringEnd(sheet, j)
		case '}', '{':
			return j
		}
	}
	return len(sheet)
}

// readDisplayRule calls f for each one-class selector of a rule whose
// last display declaration decls holds.
func readDisplayRule(selectors, decls string, applies, widthQuery bool, f func(class string, r displayRule)) {
	var value string
	found := false
	for decl := range strings.SplitSeq(decls, ";") {
		prop, v, ok := strings.Cut(decl, ":")
		if ok && strings.EqualFold(strings.TrimSpace(prop), "display") {
			value, found = strings.ToLower(strings.TrimSpace(v)), true
		}
	}
	if !found {
		return
	}
	r := displayRule{applies: applies, widthQuery: widthQuery}
	if v, ok := strings.CutSuffix(value, "important"); ok {
		value = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "!"))
		r.important = true
	}
	r.none = value == "none"
	for sel := range strings.SplitSeq(selectors, ",") {
		if class := soleClass(strings.TrimSpace(sel)); class != "" {
			f(class, r)
		}
	}
}

// soleClass returns the class a selector is when it is one class alone
// (".hidden-bnz77l", Tailwind's ".lg\:hidden" read as "lg:hidden"), else
// "".
func soleClass(sel string) string {
	name, ok := strings.CutPrefix(sel, ".")
	if !ok || name == "" {
		return ""
	}
	var b strings.Builder
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c == '\\' && i+1 < len(name) && !isHex(name[i+1]):
			i++
			b.WriteByte(name[i])
		case c == '-' || c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80:
			b.WriteByte(c)
		default:
			return "" // a compound, a combinator, a pseudo-class, a hex escape
		}
	}
	return b.String()
}

// isHex reports whether c is a hexadecimal digit.
func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// mediaQueries reads an @media rule's query list: whether it holds for
// a screen desktopWidth pixels wide, whether it asks about the
// viewport's width, and whether it could be read at all (a query on
// anything else, its orientation, hover, a preference, is not).
func mediaQueries(list string) (applies, width, known bool) {
	for query := range strings.SplitSeq(strings.ToLower(list), ",") {
		a, w, k := mediaQuery(query)
		if !k {
			return false, false, false
		}
		applies, width = applies || a, width || w
	}
	return applies, width, true
}

// mediaQuery reads one query of a list (see mediaQueries): an optional
// media type, then conditions in parentheses joined by "and".
func mediaQuery(q string) (applies, width, known bool) {
	applies = true
	rest := strings.TrimSpace(q)
	for rest != "" {
		if rest[0] == '(' {
			end := strings.IndexByte(rest, ')')
			if end < 0 {
				return false, false, false
			}
			holds, ok := widthCondition(rest[1:end])
			if !ok {
				return false, false, false
			}
			applies, width = applies && holds, true
			rest = strings.TrimSpace(rest[end+1:])
			continue
		}
		word, after, _ := strings.Cut(rest, " ")
		if i := strings.IndexByte(word, '('); i > 0 { // "and(min-width:…)"
			word, after = word[:i], rest[i:]
		}
		switch word {
		case "and", "only", "all", "screen":
		case "print", "speech", "tv", "handheld", "projection", "aural", "braille", "embossed", "tty":
			applies = false
		default: // "not", "or", an unknown type
			return false, false, false
		}
		rest = strings.TrimSpace(after)
	}
	return applies, width, true
}

// widthCondition reads a media feature on the viewport's width,
// "min-width: 810px", "max-width:74.9375em", "width >= 64rem" or
// "48rem <= width < 64rem", and says whether it holds at desktopWidth.
func widthCondition(c string) (holds, ok bool) {
	c = strings.TrimSpace(c)
	if name, value, found := strings.Cut(c, ":"); found {
		px, ok := cssPixels(value)
		if !ok {
			return false, false
		}
		switch strings.TrimSpace(name) {
		case "min-width":
			return desktopWidth >= px, true
		case "max-width":
			return desktopWidth <= px, true
		}
		return false, false
	}
	// Range syntax: operands and comparisons, "width" among the operands.
	var operands, ops []string
	for c != "" {
		i := strings.IndexAny(c, "<>=")
		if i < 0 {
			operands = append(operands, strings.TrimSpace(c))
			break
		}
		j := i + 1
		for j < len(c) && strings.IndexByte("<>=", c[j]) >= 0 {
			j++
		}
		operands, ops = append(operands, strings.TrimSpace(c[:i])), append(ops, c[i:j])
		c = c[j:]
	}
	if len(operands) != len(ops)+1 || len(ops) == 0 || len(ops) > 2 {
		return false, false
	}
	values := make([]float64, len(operands))
	sawWidth := false
	for i, o := range operands {
		if o == "width" {
			values[i], sawWidth = desktopWidth, true
			continue
		}
		px, ok := cssPixels(o)
		if !ok {
			return false, false
		}
		values[i] = px
	}
	if !sawWidth {
		return false, false
	}
	holds = true
	for i, op := range ops {
		a, b := values[i], values[i+1]
		switch op {
		case "<":
			holds = holds && a < b
		case "<=":
			holds = holds && a <= b
		case ">":
			holds = holds && a > b
		case ">=":
			holds = holds && a >= b
		case "=":
			holds = holds && a == b
		default:
			return false, false
		}
	}
	return holds, true
}

// cssPixels reads a length in px, em or rem (16 pixels each, the
// default font size media queries read ems in) as pixels.
func cssPixels(v string) (float64, bool) {
	v = strings.TrimSpace(v)
	scale := 1.0
	switch {
	case strings.HasSuffix(v, "rem"):
		v, scale = v[:len(v)-3], 16
	case strings.HasSuffix(v, "em"):
		v, scale = v[:len(v)-2], 16
	case strings.HasSuffix(v, "px"):
		v = v[:len(v)-2]
	case v != "0":
		return 0, false
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil {
		return 0, false
	}
	return f * scale, true
}
