package words

import (
	"unicode"
	"unicode/utf8"
)

// IndexSpace is strings.IndexFunc(s, unicode.IsSpace). It reads ASCII
// a byte at a time without decoding runes: the extractors split every
// page's text at its spaces several times over, and most of it is ASCII.
func IndexSpace(s string) int {
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if asciiSpace[c] {
				return i
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if unicode.IsSpace(r) {
			return i
		}
		i += n
	}
	return -1
}

// TrimLeftSpace is strings.TrimLeftFunc(s, unicode.IsSpace), faster on
// ASCII (see IndexSpace).
func TrimLeftSpace(s string) string {
	for len(s) > 0 {
		if c := s[0]; c < utf8.RuneSelf {
			if !asciiSpace[c] {
				return s
			}
			s = s[1:]
			continue
		}
		r, n := utf8.DecodeRuneInString(s)
		if !unicode.IsSpace(r) {
			return s
		}
		s = s[n:]
	}
	return s
}

// TrimRightSpace is strings.TrimRightFunc(s, unicode.IsSpace), faster on
// ASCII (see IndexSpace).
func TrimRightSpace(s string) string {
	for len(s) > 0 {
		if c := s[len(s)-1]; c < utf8.RuneSelf {
			if !asciiSpace[c] {
				return s
			}
			s = s[:len(s)-1]
			continue
		}
		r, n := utf8.DecodeLastRuneInString(s)
		if !unicode.IsSpace(r) {
			return s
		}
		s = s[:len(s)-n]
	}
	return s
}

// CountFields is len(strings.Fields(s)), without allocating.
func CountFields(s string) int {
	n := 0
	for s = TrimLeftSpace(s); s != ""; n++ {
		i := IndexSpace(s)
		if i < 0 {
			return n + 1
		}
		s = TrimLeftSpace(s[i:])
	}
	return n
}

// asciiSpace is unicode.IsSpace for ASCII.
var asciiSpace = [utf8.RuneSelf]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true}
