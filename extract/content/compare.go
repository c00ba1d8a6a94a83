package content

import (
	"hash/maphash"
	"unicode"
)

// shingleSeed keys the shingle hashes; any fixed seed works.
var shingleSeed = maphash.MakeSeed()

// shingles is a text's word 4-grams, hashed, with their counts, and the
// number of words.
type shingles struct {
	set   map[uint64]int32
	words int
}

// shingle splits text into words (runs of letters, digits and marks) and
// counts its word 4-grams. A text of fewer than four words is one
// shingle.
func shingle(text string) shingles {
	var win [4]uint64
	s := shingles{set: make(map[uint64]int32, len(text)/6)}
	eachWord(text, func(w string) {
		win[0], win[1], win[2] = win[1], win[2], win[3]
		win[3] = maphash.String(shingleSeed, w)
		s.words++
		if s.words >= 4 {
			s.set[win[0]*31*31*31+win[1]*31*31+win[2]*31+win[3]]++
		}
	})
	if s.words > 0 && s.words < 4 {
		var h uint64
		for _, w := range win[4-s.words:] {
			h = h*31 + w
		}
		s.set[h]++
	}
	return s
}

// eachWord calls f with each word of text in turn: its runs of letters,
// digits, marks and underscores.
func eachWord(text string, f func(w string)) {
	start := -1
	for i, r := range text {
		word := unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || r == '_'
		switch {
		case word && start < 0:
			start = i
		case !word && start >= 0:
			f(text[start:i])
			start = -1
		}
	}
	if start >= 0 {
		f(text[start:])
	}
}

// coveredBy is the share of a's shingles (counted with multiplicity) that
// b has too: 1 when all of a's text is in b, 0 when none is, or when a is
// empty.
func (a shingles) coveredBy(b shingles) float64 {
	var n, in int32
	for k, c := range a.set {
		n += c
		in += min(c, b.set[k])
	}
	if n == 0 {
		return 0
	}
	return float64(in) / float64(n)
}
