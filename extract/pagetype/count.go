package pagetype

import (
	"strings"
	"unicode/utf8"
)

// The counting helpers below give exactly what the plain strings calls
// would (strings.Count, the class tokens), without
// allocating and, for the phrases, in one pass over the text instead of
// one per phrase: page-type detection runs on every page extracted.

// phraseSet counts the phrases of textGroups in a text.
type phraseSet struct {
	words  []string
	group  []int                // each word's index in textGroups
	byByte [][]int              // the words starting with each byte
	starts [1 << 16 / 64]uint64 // the words' first two bytes, a bit each
}

// textPhrases is textGroups as a phraseSet.
var textPhrases = func() *phraseSet {
	p := &phraseSet{byByte: make([][]int, 256)}
	for gi, g := range textGroups {
		for _, w := range g.words {
			if len(w) < 2 {
				panic("pagetype: a text phrase of one byte: " + w)
			}
			p.byByte[w[0]] = append(p.byByte[w[0]], len(p.words))
			pair := uint16(w[0])<<8 | uint16(w[1])
			p.starts[pair/64] |= 1 << (pair % 64)
			p.words = append(p.words, w)
			p.group = append(p.group, gi)
		}
	}
	return p
}()

// count returns, per group, the sum over its words of
// strings.Count(text, word): each word's non-overlapping occurrences,
// leftmost first.
func (p *phraseSet) count(text string) []int {
	n := make([]int, len(textGroups))
	next := make([]int, len(p.words)) // where each word may match again
	for i := 0; i+1 < len(text); i++ {
		if pair := uint16(text[i])<<8 | uint16(text[i+1]); p.starts[pair/64]&(1<<(pair%64)) == 0 {
			continue // no phrase starts with these two bytes
		}
		for _, w := range p.byByte[text[i]] {
			if i >= next[w] && strings.HasPrefix(text[i:], p.words[w]) {
				n[p.group[w]]++
				next[w] = i + len(p.words[w])
			}
		}
	}
	return n
}

// eachClassToken calls f with each token of a class or id value, as
// strings.FieldsFunc(strings.ToLower(val), not a-z) splits it: runs of
// ASCII letters, lower-cased. tok is only valid during the call.
func eachClassToken(val string, f func(tok []byte)) {
	for i := 0; i < len(val); i++ {
		if val[i] >= utf8.RuneSelf {
			// Lower-casing outside ASCII can make ASCII letters (the
			// Kelvin sign is k): the plain way, rare.
			for _, tok := range strings.FieldsFunc(strings.ToLower(val), func(r rune) bool { return r < 'a' || r > 'z' }) {
				f([]byte(tok))
			}
			return
		}
	}
	var buf [64]byte
	start := -1
	for i := 0; i <= len(val); i++ {
		letter := i < len(val) && (val[i]|0x20 >= 'a' && val[i]|0x20 <= 'z')
		switch {
		case letter && start < 0:
			start = i
		case !letter && start >= 0:
			b := buf[:0]
			if i-start > len(buf) {
				b = make([]byte, 0, i-start)
			}
			for k := start; k < i; k++ {
				b = append(b, val[k]|0x20)
			}
			f(b)
			start = -1
		}
	}
}
