package readability

import (
	_ "embed"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// easyWordsText is textstat 0.7.4's resources/en/easy_words.txt, the
// Dale-Chall list of familiar words (MIT licence, textstat authors).
//
//go:embed easy_words.txt
var easyWordsText string

var (
	easyOnce  sync.Once
	easyWords map[string]bool
)

func isEasy(word string) bool {
	easyOnce.Do(func() {
		easyWords = make(map[string]bool, 3000)
		for _, line := range strings.Split(easyWordsText, "\n") {
			if w := strings.TrimSpace(line); w != "" {
				easyWords[w] = true
			}
		}
	})
	return easyWords[word]
}

// isSpace is Python's str.isspace, which \s, str.split() and textstat use:
// Go's white space plus the four information separators U+001C-U+001F.
func isSpace(r rune) bool { return unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f) }

// isWord is Python's \w on str: a letter, a number or the underscore
// (combining marks are not word characters, as in Python).
func isWord(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) || r == '_' }

// isDifficultRune is the character class of textstat's difficult-word
// tokens, [\w\='‘’].
func isDifficultRune(r rune) bool {
	return isWord(r) || r == '=' || r == '\'' || r == '‘' || r == '’'
}

// keepWord returns s with every rune that is neither \w nor \s removed, as
// textstat's remove_punctuation (with its default rm_apostrophe=True).
func keepWord(s string) string {
	clean := true
	for _, r := range s {
		if !isWord(r) && !isSpace(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		if isWord(r) || isSpace(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func hasWordRune(s string) bool {
	for _, r := range s {
		if isWord(r) {
			return true
		}
	}
	return false
}

// tally accumulates textstat's counts over one or more segments of text.
// A plain text is one segment; an HTML page gives one per block, so that
// sentences never run across two blocks.
type tally struct {
	msPerChar float64

	sentences  int // before textstat's max(1, n)
	words      int
	syllables  int
	characters int
	letters    int
	poly       int
	readingMs  float64
	diffTokens map[string]bool // textstat's set of [\w='‘’]+ tokens, lower-cased

	sylCache map[string]int
	buf      []uint8
}

func newTally(msPerChar float64) *tally {
	return &tally{msPerChar: msPerChar, diffTokens: map[string]bool{}, sylCache: map[string]int{}}
}

// syllablesOf counts the syllables of a lower-cased, punctuation-free
// token, with a cache: text repeats its words.
func (t *tally) syllablesOf(word string) int {
	if n, ok := t.sylCache[word]; ok {
		return n
	}
	n, buf := syllables(word, t.buf)
	t.buf = buf
	t.sylCache[word] = n
	return n
}

// add counts one segment.
func (t *tally) add(seg string) {
	for _, tok := range strings.FieldsFunc(seg, isSpace) {
		runes := utf8.RuneCountInString(tok)
		t.readingMs += float64(runes) * t.msPerChar
		t.characters += runes
		letters := 0
		for _, r := range tok {
			if isWord(r) {
				letters++
			}
		}
		t.letters += letters
		if letters == 0 {
			continue
		}
		t.words++
		n := t.syllablesOf(keepWord(strings.ToLower(tok)))
		t.syllables += n
		if n >= 3 {
			t.poly++
		}
	}
	t.sentences += countSentences(seg)
	t.collectDifficult(strings.ToLower(seg))
}

// countSentences counts the matches of textstat's \b[^.!?]+[.!?]* that hold
// more than two words. Each match starts at a word character (the previous
// one being a non-word character or the start) and runs through the next
// run of terminators.
func countSentences(s string) int {
	n := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if !isWord(r) {
			i += size
			continue
		}
		start := i
		if j := strings.IndexAny(s[i:], ".!?"); j < 0 {
			i = len(s)
		} else {
			i += j
			for i < len(s) && (s[i] == '.' || s[i] == '!' || s[i] == '?') {
				i++
			}
		}
		if countWords(s[start:i]) > 2 {
			n++
		}
	}
	return n
}

// countWords is textstat's lexicon_count: white-space separated tokens that
// keep at least one character once punctuation is removed.
func countWords(s string) int {
	n := 0
	for _, tok := range strings.FieldsFunc(s, isSpace) {
		if hasWordRune(tok) {
			n++
		}
	}
	return n
}

func (t *tally) collectDifficult(lower string) {
	start := -1
	for i, r := range lower {
		if isDifficultRune(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			t.diffTokens[lower[start:i]] = true
			start = -1
		}
	}
	if start >= 0 {
		t.diffTokens[lower[start:]] = true
	}
}

// difficult counts textstat's difficult words at three syllable
// thresholds: 0 (Dale-Chall), 2 (difficult_words) and 3 (Gunning fog).
// A token is difficult when it is not on the easy list and has at least
// threshold syllables.
func (t *tally) difficult() (zero, two, three int) {
	for tok := range t.diffTokens {
		if isEasy(tok) {
			continue
		}
		n := 0
		for _, w := range strings.FieldsFunc(keepWord(tok), isSpace) {
			n += t.syllablesOf(w)
		}
		zero++
		if n >= 2 {
			two++
		}
		if n >= 3 {
			three++
		}
	}
	return zero, two, three
}
