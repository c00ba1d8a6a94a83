package mojibake

import (
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
)

// Repair returns s with its mojibake sequences (see the package doc)
// turned back into the characters they were. s is returned as it is,
// without copying, when it has none. Once s has one, the text went
// through the mix-up, and the sequences that could be meant ("Ã©") are
// repaired too.
func Repair(s string) string {
	if next(s, 0, false) < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		at := next(s, i, true)
		if at < 0 {
			b.WriteString(s[i:])
			break
		}
		b.WriteString(s[i:at])
		r, read := decode(s[at:], true)
		b.WriteRune(r)
		i = at + read
	}
	return b.String()
}

// next is the index of the first lead character (U+00C2–U+00F4, encoded
// C3 82 to C3 B4) at or after i that starts a mojibake sequence (one
// that may be meant too, if plausible), or -1.
func next(s string, i int, plausible bool) int {
	for i < len(s) {
		k := strings.IndexByte(s[i:], 0xC3)
		if k < 0 {
			return -1
		}
		at := i + k
		if _, read := decode(s[at:], plausible); read > 0 {
			return at
		}
		i = at + 1
	}
	return -1
}

// decode reads a mojibake sequence at the start of s: the character it
// stands for and the bytes it takes, or 0 bytes when s does not start
// with one (of those that cannot be meant, unless plausible).
func decode(s string, plausible bool) (rune, int) {
	lead, size := utf8.DecodeRuneInString(s)
	var n int
	switch {
	case lead >= 0xC2 && lead <= 0xDF:
		n = 2
	case lead >= 0xE0 && lead <= 0xEF:
		n = 3
	case lead >= 0xF0 && lead <= 0xF4:
		n = 4
	default:
		return 0, 0
	}
	var raw [4]byte
	raw[0] = byte(lead)
	read, control, special := size, false, false
	for k := 1; k < n; k++ {
		c, size := utf8.DecodeRuneInString(s[read:])
		b, ok := continuation(c)
		if !ok {
			return 0, 0
		}
		raw[k] = b
		read += size
		control = control || c >= 0x80 && c <= 0x9F || lead == 0xC2 && c == 0xA0
		special = special || c > 0xFF
	}
	r, width := utf8.DecodeRune(raw[:n])
	if r == utf8.RuneError || width != n || r >= 0x80 && r <= 0x9F {
		return 0, 0
	}
	switch {
	case control:
	case n == 2 && !twoByteTarget(r):
		// An accented capital before punctuation ("CAFÉ’S", "É…")
		// reads as a letter of the IPA or Latin Extended-B: meant.
		return 0, 0
	case !special && !plausible:
		return 0, 0
	}
	return r, read
}

// twoByteTarget reports whether r, what a two-byte sequence stands for,
// is a character text is written in: Latin-1's and Latin Extended-A's
// letters and signs, Greek, basic Cyrillic, Hebrew or Arabic.
func twoByteTarget(r rune) bool {
	return r >= 0xA0 && r <= 0x17F || r >= 0x370 && r <= 0x45F || r >= 0x590 && r <= 0x6FF
}

// continuation is the byte, 0x80–0xBF, that Latin-1 or Windows-1252
// reads as c, if there is one. (The five bytes Windows-1252 leaves
// undefined, 0x81, 0x8D, 0x8F, 0x90 and 0x9D, a browser reads as the C1
// controls of the same value, as Latin-1 does.)
func continuation(c rune) (byte, bool) {
	if c >= 0x80 && c <= 0xBF {
		return byte(c), true
	}
	b, ok := charmap.Windows1252.EncodeRune(c)
	return b, ok && b >= 0x80 && b <= 0x9F
}
