package keywords

import (
	"math"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// fold lower-cases a word and writes typographic apostrophes as "'".
func fold(w string) string {
	w = strings.ToLower(w)
	if strings.ContainsAny(w, "’ʼ") {
		w = strings.NewReplacer("’", "'", "ʼ", "'").Replace(w)
	}
	return w
}

func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsNumber(r)
}

// isJoiner reports runes that stay inside a word when a word rune is on
// both sides: apostrophes (don't, l'homme), hyphens (well-known), the
// underscore, and a full stop or comma between digits (3.14, 1,000).
func isJoiner(r, prev, next rune) bool {
	switch r {
	case '\'', '’', 'ʼ', '-', '‐', '‑', '_':
		return true
	case '.', ',':
		return unicode.IsDigit(prev) && unicode.IsDigit(next)
	}
	return false
}

func hasLetter(w string) bool {
	for _, r := range w {
		if unicode.IsLetter(r) {
			return true
		}
	}
	return false
}

// scanner splits text into candidate phrases: runs of words between phrase
// delimiters (punctuation, symbols, a blank line) and stop words.
type scanner struct {
	stop     map[string]bool
	minWords int
	maxWords int
	maxCands int

	ids     map[string]int32 // folded word → id
	words   []string         // id → folded word
	freq    []int
	deg     []int
	phrases []int32 // the kept candidates' word ids, back to back
	ends    []int   // end offset in phrases of each kept candidate
	cur     []int32 // the phrase under way
	full    bool    // maxCands reached
}

func newScanner(stop map[string]bool, minWords, maxWords, maxCands int) *scanner {
	return &scanner{stop: stop, minWords: minWords, maxWords: maxWords, maxCands: maxCands, ids: map[string]int32{}}
}

// scan reads text; it stops early once maxCands candidates are kept.
func (s *scanner) scan(text string) {
	newlines := 0
	for i := 0; i < len(text) && !s.full; {
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case isWordRune(r):
			end := wordEnd(text, i)
			s.word(text[i:end])
			i, newlines = end, 0
			continue
		case unicode.IsSpace(r):
			if r == '\n' {
				if newlines++; newlines == 2 {
					s.delimit() // a blank line ends a paragraph
				}
			}
		default:
			s.delimit()
			newlines = 0
		}
		i += size
	}
	s.delimit()
}

// wordEnd returns the end of the word starting at i.
func wordEnd(text string, i int) int {
	prev := rune(0)
	for i < len(text) {
		r, size := utf8.DecodeRuneInString(text[i:])
		if isWordRune(r) {
			prev, i = r, i+size
			continue
		}
		next, _ := utf8.DecodeRuneInString(text[i+size:])
		if i+size < len(text) && isWordRune(next) && isJoiner(r, prev, next) {
			prev, i = r, i+size
			continue
		}
		break
	}
	return i
}

// word handles one word: a stop word or a word without a letter (a
// number) ends the phrase; an elided stop word ("l'", "d'") is cut off.
func (s *scanner) word(raw string) {
	w := fold(raw)
	if s.stop[w] || !hasLetter(w) {
		s.delimit()
		return
	}
	if i := strings.IndexByte(w, '\''); i > 0 && (s.stop[w[:i]] || s.stop[w[:i+1]]) {
		s.delimit()
		w = w[i+1:]
		if s.stop[w] || !hasLetter(w) {
			s.delimit()
			return
		}
	}
	id, ok := s.ids[w]
	if !ok {
		id = int32(len(s.words))
		s.ids[w] = id
		s.words = append(s.words, w)
		s.freq = append(s.freq, 0)
		s.deg = append(s.deg, 0)
	}
	s.cur = append(s.cur, id)
}

// delimit ends the phrase under way and keeps it when its length is in
// range: every word of a kept phrase of n words gains frequency 1 and
// degree n (co-occurrence with itself and the n-1 others).
func (s *scanner) delimit() {
	n := len(s.cur)
	if n == 0 {
		return
	}
	if n >= s.minWords && n <= s.maxWords {
		for _, id := range s.cur {
			s.freq[id]++
			s.deg[id] += n
		}
		s.phrases = append(s.phrases, s.cur...)
		s.ends = append(s.ends, len(s.phrases))
		if len(s.ends) >= s.maxCands {
			s.full = true
		}
	}
	s.cur = s.cur[:0]
}

// ranked is one distinct candidate phrase.
type ranked struct {
	phrase string
	score  float64
	count  int
	first  int // index of its first occurrence
}

// rank scores the distinct candidates, best first; ties keep the order of
// first occurrence.
func (s *scanner) rank() []ranked {
	wordScore := make([]float64, len(s.words))
	for id := range s.words {
		wordScore[id] = float64(s.deg[id]) / float64(s.freq[id])
	}
	index := map[string]int{}
	var out []ranked
	start := 0
	var b strings.Builder
	for k, end := range s.ends {
		ids := s.phrases[start:end]
		start = end
		b.Reset()
		score := 0.0
		for j, id := range ids {
			if j > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(s.words[id])
			score += wordScore[id]
		}
		key := b.String()
		if i, ok := index[key]; ok {
			out[i].count++
			continue
		}
		index[key] = len(out)
		out = append(out, ranked{phrase: key, score: score, count: 1, first: k})
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := quantize(out[i].score), quantize(out[j].score)
		if a != b {
			return a > b
		}
		return out[i].first < out[j].first
	})
	return out
}

// quantize compares scores to 9 decimals, so that sums of the same word
// scores in a different order still tie.
func quantize(x float64) float64 { return math.Round(x * 1e9) }

// wordScores lists every candidate word with its degree, frequency and
// score, best first, ties in order of first appearance.
func (s *scanner) wordScores() []WordScore {
	out := make([]WordScore, len(s.words))
	for id, w := range s.words {
		out[id] = WordScore{Word: w, Degree: s.deg[id], Frequency: s.freq[id], Score: float64(s.deg[id]) / float64(s.freq[id])}
	}
	kept := out[:0]
	for _, ws := range out {
		if ws.Frequency > 0 { // words seen only in dropped phrases
			kept = append(kept, ws)
		}
	}
	sort.SliceStable(kept, func(i, j int) bool {
		return quantize(kept[i].Score) > quantize(kept[j].Score)
	})
	return kept
}
