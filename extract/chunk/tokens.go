package chunk

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// TokenizerName names the token estimate in Result.Tokenizer.
const TokenizerName = "cl100k_base-estimate-v1"

// CountTokens estimates how many tokens OpenAI's cl100k_base BPE (the
// vocabulary of text-embedding-3-* and GPT-4) makes of text, without the
// vocabulary; doc.go says how and how well. Split counts the same way but
// decides once for the whole content whether it is English (see
// newEstimator), so its counts of a short piece may differ a little from
// CountTokens of that piece alone.
func CountTokens(text string) int {
	return newEstimator(text).tokens(text)
}

// estimator estimates cl100k_base token counts in thousandths of a token
// (milli), summed over runs of word characters (split by script), of
// punctuation, of symbols and of whitespace. Each run's cost depends only
// on the run and on the first character after it, so the cost of a text is
// never more than the sum of the costs of pieces it is cut into between
// runs: that is what lets Split add up costs word by word.
type estimator struct {
	en int // how English the Latin-script text is, 0–1000
}

// englishWords are frequent English words: their share of a text's Latin
// words tells English (15–30 % on the benchmark's English pages) from
// other languages written in Latin script (under 4 %), whose words
// cl100k_base cuts into about twice as many pieces.
var englishWords = map[string]bool{"the": true, "and": true, "of": true, "to": true, "in": true,
	"is": true, "that": true, "for": true, "it": true, "with": true, "as": true, "was": true, "on": true}

// newEstimator sizes up the language of text.
func newEstimator(text string) estimator {
	var latin, english int
	for i := 0; i < len(text); {
		c := text[i]
		if !('a' <= c|0x20 && c|0x20 <= 'z') {
			i++
			continue
		}
		j := i + 1
		for j < len(text) && 'a' <= text[j]|0x20 && text[j]|0x20 <= 'z' {
			j++
		}
		latin++
		if j-i <= 4 && englishWords[strings.ToLower(text[i:j])] {
			english++
		}
		i = j
	}
	// share 4 % or less: not English; 10 % or more: English. A short
	// text leans English: a prior of 8 words at 10 %.
	share := (english*1000 + 800) / (latin + 8)
	en := (share - 40) * 1000 / 60
	return estimator{en: min(max(en, 0), 1000)}
}

// tokens is the estimate of text in whole tokens, rounded to the nearest
// (at least 1 for any text). Split's budgets compare the thousandths.
func (e estimator) tokens(text string) int {
	if text == "" {
		return 0
	}
	return max(1, (e.milli(text)+500)/1000)
}

// milli estimates text in thousandths of a token.
func (e estimator) milli(text string) int {
	n := 0
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		j := i + size
		switch runeClass(r) {
		case classSpace:
			nl, last := 0, i // last: just after the last line feed
			if r == '\n' {
				nl, last = 1, j
			}
			for j < len(text) {
				r2, s2 := utf8.DecodeRuneInString(text[j:])
				if runeClass(r2) != classSpace {
					break
				}
				j += s2
				if r2 == '\n' {
					nl, last = nl+1, j
				}
			}
			n += spaceCost(j-i, nl, j-last, text[j:])
		case classPunct:
			if (r == '\'' || r == '’') && j < len(text) && isLetterAt(text, j) {
				// an apostrophe before letters: cl100k_base reads "'s",
				// "’t" and the like as one token with the letters
				n += 200
				i = j
				continue
			}
			n += 1000
			for j < len(text) {
				r2, s2 := utf8.DecodeRuneInString(text[j:])
				if runeClass(r2) != classPunct {
					break
				}
				if r2 < utf8.RuneSelf {
					n += 500
				} else {
					n += 800
				}
				j += s2
			}
		case classSymbol:
			n += 1500 // emoji and the like: one to three tokens each
		default:
			var c int
			c, j = e.word(text, i)
			n += c
		}
		i = j
	}
	return n
}

// Run classes.
const (
	classSpace = iota
	classPunct
	classSymbol
	classWord
)

func runeClass(r rune) int {
	switch {
	case r < utf8.RuneSelf:
		switch {
		case r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\f' || r == '\v':
			return classSpace
		case wordASCII[r] && r != '_':
			return classWord
		default:
			return classPunct
		}
	case isWordRune(r):
		return classWord
	case unicode.IsSpace(r):
		return classSpace
	case unicode.IsPunct(r) || r < 0x2000:
		return classPunct
	default:
		return classSymbol
	}
}

// spaceCost is the cost of a whitespace run of n bytes holding nl line
// feeds and ending in indent bytes after the last one, followed by next.
// One space is part of the next word's token, except before a digit
// (cl100k_base never joins a space to a number); line breaks make one
// token, and so does other whitespace.
func spaceCost(n, nl, indent int, next string) int {
	switch {
	case nl > 0 && indent > 1:
		return 2000
	case nl > 0:
		return 1000
	case n > 1:
		return 1000
	case next != "" && next[0] >= '0' && next[0] <= '9':
		return 1000
	}
	return 0
}

// Scripts inside a word run.
const (
	scriptLatin    = iota // ASCII and Latin-1/Extended letters
	scriptDigit           // ASCII digits
	scriptGreek           // Greek and Coptic
	scriptCyrillic        // Cyrillic
	scriptHebrew          // Hebrew
	scriptHan             // Han, kana
	scriptHangul          // Hangul
	scriptOther           // everything else, by UTF-8 length
)

func scriptOf(r rune) int {
	switch {
	case r < utf8.RuneSelf:
		if r <= '9' {
			return scriptDigit
		}
		return scriptLatin
	case r < 0x0370:
		return scriptLatin
	case r < 0x0400:
		return scriptGreek
	case r < 0x0530:
		return scriptCyrillic
	case r >= 0x0590 && r < 0x0600:
		return scriptHebrew
	case r >= 0x1100 && unicode.Is(unicode.Hangul, r):
		return scriptHangul
	case r >= 0x2E80 && (unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r)):
		return scriptHan
	default:
		return scriptOther
	}
}

// word costs the run of word characters at text[i] and returns where it
// ends. '_' (not a letter to cl100k_base) costs a little; every other part
// is costed by script (combining marks stay with the part before them).
func (e estimator) word(text string, i int) (cost, end int) {
	for i < len(text) {
		r, size := utf8.DecodeRuneInString(text[i:])
		if !isWordRune(r) {
			break
		}
		if r == '_' || (unicode.Is(unicode.Pc, r) && r >= utf8.RuneSelf) {
			cost += 300
			i += size
			continue
		}
		sc := scriptOf(r)
		k := i + size
		runes, upper, nonASCII, marks := 1, 0, 0, 0
		if unicode.IsUpper(r) {
			upper++
		}
		if r >= utf8.RuneSelf {
			nonASCII++
		}
		for k < len(text) {
			r2, s2 := utf8.DecodeRuneInString(text[k:])
			if !isWordRune(r2) || r2 == '_' {
				break
			}
			if r2 >= 0x300 && unicode.Is(unicode.Mn, r2) && sc != scriptDigit {
				marks++
				k += s2
				continue
			}
			if scriptOf(r2) != sc {
				break
			}
			runes++
			if unicode.IsUpper(r2) {
				upper++
			}
			if r2 >= utf8.RuneSelf {
				nonASCII++
			}
			k += s2
		}
		switch sc {
		case scriptDigit:
			cost += (runes + 2) / 3 * 1000
		case scriptLatin:
			first, _ := utf8.DecodeRuneInString(text[i:])
			cost += e.latin(runes, upper, unicode.IsUpper(first)) + 400*nonASCII
		case scriptCyrillic:
			cost += max(1000, 300+500*runes)
		case scriptGreek:
			cost += max(1000, 950*runes)
		case scriptHebrew:
			cost += 1200 * runes
		case scriptHan:
			cost += 1050 * runes
		case scriptHangul:
			cost += 1450 * runes
		default:
			// Arabic and other two-byte scripts about 0.9 tokens a
			// character, Indic and other three-byte ones about 1.2.
			cost += 450 * (k - i)
		}
		cost += 500 * marks
		i = k
	}
	return cost, i
}

// Measured mean cl100k_base tokens (thousandths) of a Latin word with a
// space before it, by length 1–14, on the benchmark's pages: English and
// other languages, lower case and capitalized. Past 14 letters each letter
// adds lateLetter.
var (
	enLower = [15]int{0, 1000, 1000, 1010, 1030, 1030, 1080, 1100, 1120, 1170, 1190, 1330, 1470, 1600, 1830}
	enUpper = [15]int{0, 1000, 1010, 1030, 1100, 1170, 1300, 1330, 1440, 1610, 1650, 1900, 2100, 2300, 2600}
	otLower = [15]int{0, 1000, 1020, 1050, 1210, 1330, 1490, 1750, 2140, 2190, 2760, 2940, 3230, 3510, 3600}
	otUpper = [15]int{0, 1000, 1020, 1120, 1390, 1470, 1590, 1840, 2170, 2220, 2300, 2600, 3000, 3270, 3420}
)

const lateLetter = 290

// latin costs a Latin word of n letters, upper of them capitals.
func (e estimator) latin(n, upper int, capital bool) int {
	if upper == n && n > 1 {
		// ALL CAPS: about a token per three letters
		return 200 + 350*n
	}
	table := func(t *[15]int) int {
		if n < len(t) {
			return t[n]
		}
		return t[len(t)-1] + lateLetter*(n-len(t)+1)
	}
	var en, ot int
	if capital {
		en, ot = table(&enUpper), table(&otUpper)
	} else {
		en, ot = table(&enLower), table(&otLower)
	}
	c := (e.en*en + (1000-e.en)*ot) / 1000
	if capital {
		upper--
	}
	return c + 300*upper // camelCase and the like
}

// isLetterAt reports whether text[j] starts a letter.
func isLetterAt(text string, j int) bool {
	c := text[j]
	if c < utf8.RuneSelf {
		return 'a' <= c|0x20 && c|0x20 <= 'z'
	}
	r, _ := utf8.DecodeRuneInString(text[j:])
	return unicode.IsLetter(r)
}
