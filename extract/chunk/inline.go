package chunk

import (
	"strings"
	"unicode"
	"unicode/utf8"

	xhtml "golang.org/x/net/html"
)

// cleanInline turns markdown inline syntax into readable text: links keep
// their text and lose their destination, images are dropped (their alt
// text is not page text), code spans keep their content, emphasis and
// strikethrough markers, inline HTML tags and backslash escapes are
// removed, and character references are decoded.
func cleanInline(s string) string {
	if !strings.ContainsAny(s, "\\`![]<&*_~") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	cleanInto(&b, s)
	return b.String()
}

func cleanInto(b *strings.Builder, s string) {
	for i := 0; i < len(s); {
		c := s[i]
		switch c {
		case '\\':
			if i+1 < len(s) && isASCIIPunct(s[i+1]) {
				b.WriteByte(s[i+1])
				i += 2
				continue
			}
			if i+1 < len(s) && s[i+1] == '\n' {
				b.WriteByte('\n')
				i += 2
				continue
			}
		case '`':
			n := runOf(s, i, '`')
			if end := closingBackticks(s, i+n, n); end >= 0 {
				code := s[i+n : end]
				if len(code) >= 2 && code[0] == ' ' && code[len(code)-1] == ' ' && strings.Trim(code, " ") != "" {
					code = code[1 : len(code)-1]
				}
				b.WriteString(code)
				i = end + n
				continue
			}
			b.WriteString(s[i : i+n])
			i += n
			continue
		case '!':
			if i+1 < len(s) && s[i+1] == '[' {
				if _, end, ok := linkAt(s, i+1); ok {
					i = end // an image: dropped
					continue
				}
			}
		case '[':
			if text, end, ok := linkAt(s, i); ok {
				cleanInto(b, text)
				i = end
				continue
			}
		case '<':
			if end := htmlTagAt(s, i); end > 0 {
				if inner, ok := autolink(s[i:end]); ok {
					b.WriteString(inner)
				}
				i = end
				continue
			}
		case '&':
			if end := strings.IndexByte(s[i:], ';'); end > 1 && end < 40 && isRefName(s[i+1:i+end]) {
				ref := s[i : i+end+1]
				if dec := xhtml.UnescapeString(ref); dec != ref {
					b.WriteString(dec)
					i += end + 1
					continue
				}
			}
		case '*', '_', '~':
			n := runOf(s, i, c)
			if delimiter(s, i, n, c) {
				i += n
				continue
			}
			b.WriteString(s[i : i+n])
			i += n
			continue
		}
		b.WriteByte(c)
		i++
	}
}

func isASCIIPunct(c byte) bool {
	return c >= '!' && c <= '/' || c >= ':' && c <= '@' || c >= '[' && c <= '`' || c >= '{' && c <= '~'
}

func runOf(s string, i int, c byte) int {
	n := 0
	for i+n < len(s) && s[i+n] == c {
		n++
	}
	return n
}

// closingBackticks finds a run of exactly n backticks from i.
func closingBackticks(s string, i, n int) int {
	for i < len(s) {
		j := strings.IndexByte(s[i:], '`')
		if j < 0 {
			return -1
		}
		j += i
		m := runOf(s, j, '`')
		if m == n {
			return j
		}
		i = j + m
	}
	return -1
}

// linkAt parses "[text](dest "title")", "[text][ref]" or "[text][]" at
// s[i] == '[' and returns the text and the end of the link.
func linkAt(s string, i int) (string, int, bool) {
	depth := 0
	j := i
	for ; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
			continue
		case '`':
			n := runOf(s, j, '`')
			if end := closingBackticks(s, j+n, n); end >= 0 {
				j = end + n - 1
			} else {
				j += n - 1
			}
			continue
		case '[':
			depth++
		case ']':
			depth--
		}
		if depth == 0 {
			break
		}
	}
	if j >= len(s) || j+1 >= len(s) {
		return "", 0, false
	}
	text := s[i+1 : j]
	switch s[j+1] {
	case '(':
		k, paren := j+1, 0
		for ; k < len(s); k++ {
			switch s[k] {
			case '\\':
				k++
				continue
			case '(':
				paren++
			case ')':
				paren--
			case '\n':
				if paren > 0 && k+1 < len(s) && s[k+1] == '\n' {
					return "", 0, false
				}
			}
			if paren == 0 {
				return text, k + 1, true
			}
		}
	case '[':
		if end := strings.IndexByte(s[j+2:], ']'); end >= 0 && !strings.ContainsAny(s[j+2:j+2+end], "[\n") {
			return text, j + 2 + end + 1, true
		}
	}
	return "", 0, false
}

// htmlTagAt returns the end of an HTML tag, comment or autolink at s[i]
// == '<', or 0.
func htmlTagAt(s string, i int) int {
	if i+1 >= len(s) {
		return 0
	}
	if strings.HasPrefix(s[i:], "<!--") {
		if end := strings.Index(s[i+4:], "-->"); end >= 0 {
			return i + 4 + end + 3
		}
		return 0
	}
	c := s[i+1]
	if c == '/' && i+2 < len(s) {
		c = s[i+2]
	}
	if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
		return 0
	}
	end := strings.IndexAny(s[i+1:], "<>\n")
	if end < 0 || s[i+1+end] != '>' {
		return 0
	}
	return i + 1 + end + 1
}

// autolink returns the text of "<https://...>" or "<a@b.c>".
func autolink(tag string) (string, bool) {
	inner := tag[1 : len(tag)-1]
	if strings.ContainsAny(inner, " \t") {
		return "", false
	}
	if k := strings.Index(inner, ":"); k > 1 && !strings.HasPrefix(inner, "/") {
		return inner, true
	}
	if strings.Contains(inner, "@") && !strings.HasPrefix(inner, "/") {
		return inner, true
	}
	return "", false
}

func isRefName(s string) bool {
	if s == "" {
		return false
	}
	if s[0] == '#' {
		s = s[1:]
		if s != "" && (s[0] == 'x' || s[0] == 'X') {
			s = s[1:]
		}
	}
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i] | 0x20
		if !(c >= 'a' && c <= 'z' || s[i] >= '0' && s[i] <= '9') {
			return false
		}
	}
	return true
}

// delimiter reports whether the run of n c's at s[i] is emphasis or
// strikethrough syntax to drop: it must touch text on one side (CommonMark
// flanking), '_' must not sit inside a word (snake_case stays), a single
// '*' not between two word characters (5*3 stays; "for**Mason**" is
// strong emphasis) and '~' must come in pairs.
func delimiter(s string, i, n int, c byte) bool {
	if c == '~' && n != 2 {
		return false
	}
	before, _ := utf8.DecodeLastRuneInString(s[:i])
	after, _ := utf8.DecodeRuneInString(s[i+n:])
	if i == 0 {
		before = ' '
	}
	if i+n == len(s) {
		after = ' '
	}
	spaceBefore, spaceAfter := unicode.IsSpace(before), unicode.IsSpace(after)
	if spaceBefore && spaceAfter {
		return false
	}
	if isWordRune(before) && isWordRune(after) {
		return c == '*' && n >= 2
	}
	return true
}
