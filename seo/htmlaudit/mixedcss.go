package htmlaudit

import (
	"strings"

	"golang.org/x/net/html"

	"github.com/webinfra/webinfra/seo/htmlaudit/auditkit"
)

// CSS limits of MixedContent: a <style> element or style attribute is read
// up to maxCSSPerBlock bytes, and all of a page's CSS up to maxCSSBytes.
const (
	maxCSSPerBlock = 256 << 10
	maxCSSBytes    = 2 << 20
)

// css checks the url() references of a style sheet (attr "") or a style
// attribute (attr "style").
func (m *mixedAudit) css(n *html.Node, css, attr string) {
	if len(css) > maxCSSPerBlock {
		css, m.cssCut = css[:maxCSSPerBlock], true
	}
	if len(css) > m.cssBudget {
		css, m.cssCut = css[:m.cssBudget], true
	}
	m.cssBudget -= len(css)
	scanCSS(css, func(ref, kind string, start, end int) {
		rq := request{kind: kind, dest: "image", attr: attr, ref: ref, snippet: cssSnippet(css, start, end)}
		switch kind {
		case KindFont:
			rq.dest = "font"
		case KindStylesheet:
			rq.dest = "style"
		}
		m.check(n, rq)
	})
}

// cssSnippet is the CSS around css[start:end], up to 60 bytes before it,
// white space collapsed.
func cssSnippet(css string, start, end int) string {
	from := max(0, start-60)
	if i := strings.LastIndexAny(css[from:start], "{};"); i >= 0 {
		from += i + 1
	} else if i := strings.IndexAny(css[from:start], " \t\n,"); from > 0 && i >= 0 {
		from += i + 1 // start at a word
	}
	s := strings.ToValidUTF8(css[from:end], "")
	return auditkit.Clip(auditkit.CollapseSpace(s), auditkit.SnippetRunes)
}

// scanCSS calls found for every URL a style sheet references, with its kind
// (KindStylesheet for @import, KindFont inside @font-face, else
// KindImage) and the byte range of the reference. It skips comments and
// strings, and reads url(...) quoted or not.
func scanCSS(css string, found func(ref, kind string, start, end int)) {
	fontEnd := -1 // the end of the @font-face block being read
	for i := 0; i < len(css); i++ {
		switch c := css[i]; {
		case c == '/' && strings.HasPrefix(css[i:], "/*"):
			end := strings.Index(css[i+2:], "*/")
			if end < 0 {
				return
			}
			i += end + 3
		case c == '"' || c == '\'':
			_, i = cssString(css, i)
		case (c == 'u' || c == 'U') && prefixFold(css[i:], "url(") && (i == 0 || !identByte(css[i-1])):
			ref, end := cssURL(css, i+4)
			kind := KindImage
			if i < fontEnd {
				kind = KindFont
			}
			found(ref, kind, i, end)
			i = end - 1
		case c == '@' && prefixFold(css[i:], "@import"):
			j := skipCSSSpace(css, i+7)
			var ref string
			end := j
			switch {
			case j < len(css) && (css[j] == '"' || css[j] == '\''):
				ref, end = cssString(css, j)
				end++
			case prefixFold(css[j:], "url("):
				ref, end = cssURL(css, j+4)
			default:
				continue
			}
			found(ref, KindStylesheet, i, min(end, len(css)))
			i = end - 1
		case c == '@' && prefixFold(css[i:], "@font-face"):
			if open := strings.IndexByte(css[i:], '{'); open >= 0 {
				if close := strings.IndexByte(css[i+open:], '}'); close >= 0 {
					fontEnd = i + open + close
				} else {
					fontEnd = len(css)
				}
			}
		}
	}
}

// cssURL reads the argument of url( starting at i, quoted or not, and
// returns it with the index just past the closing parenthesis.
func cssURL(css string, i int) (ref string, end int) {
	i = skipCSSSpace(css, i)
	if i < len(css) && (css[i] == '"' || css[i] == '\'') {
		ref, i = cssString(css, i)
		i++
		if j := strings.IndexByte(css[min(i, len(css)):], ')'); j >= 0 {
			return ref, i + j + 1
		}
		return ref, len(css)
	}
	j := strings.IndexByte(css[i:], ')')
	if j < 0 {
		return strings.TrimSpace(css[i:]), len(css)
	}
	return strings.TrimSpace(css[i : i+j]), i + j + 1
}

// cssString reads the quoted string opening at css[i] and returns its
// content and the index of the closing quote (len(css) when unclosed).
func cssString(css string, i int) (string, int) {
	quote := css[i]
	var b strings.Builder
	for j := i + 1; j < len(css); j++ {
		switch css[j] {
		case '\\':
			if j+1 < len(css) {
				j++
				b.WriteByte(css[j])
			}
		case quote:
			return b.String(), j
		case '\n':
			return b.String(), j // an unclosed string ends at the line
		default:
			b.WriteByte(css[j])
		}
	}
	return b.String(), len(css)
}

func skipCSSSpace(css string, i int) int {
	for i < len(css) && (css[i] == ' ' || css[i] == '\t' || css[i] == '\n' || css[i] == '\r' || css[i] == '\f') {
		i++
	}
	return i
}

func identByte(c byte) bool {
	return c == '-' || c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// prefixFold reports whether s starts with the lower-case ASCII prefix,
// compared without case.
func prefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

// srcsetURLs returns the image URLs of a srcset attribute, following the
// HTML standard's parsing: candidates separated by commas, each a URL then
// optional descriptors ("1x", "480w"); a URL's own trailing commas end the
// candidate; commas inside parentheses of descriptors do not.
func srcsetURLs(srcset string) []string {
	var out []string
	s := srcset
	for {
		s = strings.TrimLeft(s, " \t\n\r\f,")
		if s == "" {
			return out
		}
		end := strings.IndexAny(s, " \t\n\r\f")
		if end < 0 {
			end = len(s)
		}
		ref := s[:end]
		s = s[end:]
		if trimmed := strings.TrimRight(ref, ","); trimmed != ref {
			out = append(out, trimmed)
			continue
		}
		out = append(out, ref)
		depth := 0 // skip the descriptors, up to a comma outside parentheses
		i := 0
		for ; i < len(s); i++ {
			if s[i] == '(' {
				depth++
			} else if s[i] == ')' && depth > 0 {
				depth--
			} else if s[i] == ',' && depth == 0 {
				break
			}
		}
		s = s[i:]
	}
}
