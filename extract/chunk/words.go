package chunk

import (
	"unicode"
	"unicode/utf8"
)

// A word is a maximal run of letters, digits, non-spacing marks and
// connector punctuation (Python's re.UNICODE \w, the benchmark's
// tokenizer): [\p{L}\p{N}\p{Mn}\p{Pc}]+. Both sides of the alignment use
// this one definition, so a chunk's text holds exactly the words that were
// found in the page.

var wordASCII = func() (t [utf8.RuneSelf]bool) {
	for c := 0; c < utf8.RuneSelf; c++ {
		t[c] = c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
	}
	return t
}()

// isWordRune reports whether r is a word character.
func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return wordASCII[r]
	}
	return unicode.In(r, unicode.L, unicode.N, unicode.Mn, unicode.Pc)
}

// Scripts written without spaces make very long runs: there each
// character (with the marks that follow it) is a word of its own, on both
// sides of the alignment, so that chunks can end inside such a run.
var unspaced = []*unicode.RangeTable{unicode.Han, unicode.Hiragana, unicode.Katakana,
	unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar}

// isUnspaced reports whether r is a character of a script written without
// spaces.
func isUnspaced(r rune) bool { return r >= 0x0E00 && unicode.In(r, unspaced...) }

// breaksWord reports whether a word ends before the word character r
// that follows prev (the last character of the word that is not a mark).
func breaksWord(prev, r rune) bool {
	if r < 0x0E00 && prev < 0x0E00 {
		return false
	}
	return (isUnspaced(r) || isUnspaced(prev)) && !unicode.Is(unicode.Mn, r)
}

// span is a byte range [s, e) of some string.
type span struct{ s, e int }

// wordSpans returns the words of text as byte ranges.
func wordSpans(text string, out []span) []span {
	in := false
	start := 0
	var base rune
	for i, r := range text {
		w := isWordRune(r)
		switch {
		case w && in && breaksWord(base, r):
			out = append(out, span{start, i})
			start = i
		case w && !in:
			in, start = true, i
		case !w && in:
			in = false
			out = append(out, span{start, i})
		}
		if w && !unicode.Is(unicode.Mn, r) {
			base = r
		}
	}
	if in {
		out = append(out, span{start, len(text)})
	}
	return out
}
