package citation

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// numberRx finds a number with what makes it a statistic around it: a
// currency sign before, a percent sign, "percent" or a magnitude after.
var numberRx = regexp.MustCompile(`(?i)([$€£¥₹]\s?)?(\d(?:[\d,]*\d)?(?:\.\d+)?)(\s?(?:%|percent\b|per cent\b|thousand\b|million\b|billion\b|trillion\b|bn\b))?`)

// countNumbers counts the numbers in text and, among them, the
// statistics: a number with a currency sign, a percent or a magnitude
// word, a decimal or a thousands separator. Years (a bare 1900-2099) and
// digits inside words (COVID-19, H2O, A4) are not numbers. It returns up
// to maxExamples statistics as written.
func countNumbers(text string) (numbers, statistics int, examples []string) {
	for _, m := range numberRx.FindAllStringSubmatchIndex(text, -1) {
		start := m[0]
		if r, _ := utf8.DecodeLastRuneInString(text[:start]); unicode.IsLetter(r) || r == '-' && start > 1 && unicode.IsLetter(rune(text[start-2])) {
			continue // inside a word
		}
		if r, _ := utf8.DecodeRuneInString(text[m[1]:]); unicode.IsLetter(r) {
			continue // 3D, 4K, 5G
		}
		digits := text[m[4]:m[5]]
		decorated := m[2] >= 0 || m[6] >= 0
		if !decorated && len(digits) == 4 && (strings.HasPrefix(digits, "19") || strings.HasPrefix(digits, "20")) {
			continue // a year
		}
		numbers++
		if decorated || strings.ContainsAny(digits, ".,") {
			statistics++
			if len(examples) < maxExamples {
				examples = append(examples, strings.TrimSpace(text[m[0]:m[1]]))
			}
		}
	}
	return numbers, statistics, examples
}

// connectors may join the capitalised words of one name ("Bank of
// England", "Ludwig van Beethoven"); "and" does not, as it joins two names
// more often than it sits in one.
var connectors = map[string]bool{"of": true, "the": true, "for": true, "de": true, "van": true,
	"von": true, "der": true, "la": true, "le": true, "du": true, "&": true}

// notAcronyms are capitalised tokens that name nothing.
var notAcronyms = map[string]bool{"AM": true, "PM": true, "OK": true, "ID": true, "TV": true, "FAQ": true}

// entityCount is one named-entity candidate and its mentions.
type entityCount struct {
	text    string
	acronym bool
	count   int
}

// namedEntities finds named-entity candidates mechanically: runs of two or
// more capitalised words (joined by of, the, for, van...) that do not open
// a sentence (an opening word is dropped from the run), and acronyms (2 to
// 6 capitals or digits, at least two capitals). Sentences mostly in
// capitals (shouted headings) are skipped. It is a proxy, tuned for
// English: languages that capitalise every noun (German) score high.
func namedEntities(text string) (mentions int, found []entityCount) {
	counts := map[string]*entityCount{}
	note := func(s string, acronym bool) {
		mentions++
		if e := counts[s]; e != nil {
			e.count++
			return
		}
		if len(counts) < maxEntityCandidates {
			counts[s] = &entityCount{text: s, acronym: acronym, count: 1}
		}
	}
	for _, sentence := range sentences(text) {
		words := strings.Fields(sentence)
		if shouted(words) {
			continue
		}
		var run []string
		flush := func() {
			for len(run) > 0 && connectors[strings.ToLower(run[len(run)-1])] {
				run = run[:len(run)-1]
			}
			if len(run) >= 2 {
				note(strings.Join(run, " "), false)
			}
			run = run[:0]
		}
		for i, raw := range words {
			w := strings.TrimFunc(raw, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '&' })
			switch {
			case acronym(w):
				flush()
				if !notAcronyms[w] {
					note(w, true)
				}
			case capitalised(w) && i > 0:
				run = append(run, w)
			case len(run) > 0 && connectors[strings.ToLower(w)] && w == strings.ToLower(w):
				run = append(run, w)
			default:
				flush()
			}
			if last, _ := utf8.DecodeLastRuneInString(raw); strings.ContainsRune(",;:)\"”", last) {
				flush() // punctuation ends a name
			}
		}
		flush()
	}
	for _, e := range counts {
		found = append(found, *e)
	}
	slices.SortFunc(found, func(a, b entityCount) int {
		if a.count != b.count {
			return b.count - a.count
		}
		return strings.Compare(a.text, b.text)
	})
	return mentions, found
}

// sentences splits text at sentence ends and line breaks.
func sentences(text string) []string {
	var out []string
	start := 0
	for i := 0; i < len(text); i++ {
		c := text[i]
		end := c == '\n' || (c == '.' || c == '!' || c == '?') && (i+1 == len(text) || text[i+1] == ' ' || text[i+1] == '\n')
		if end {
			if s := strings.TrimSpace(text[start:i]); s != "" {
				out = append(out, s)
			}
			start = i + 1
		}
	}
	if s := strings.TrimSpace(text[start:]); s != "" {
		out = append(out, s)
	}
	return out
}

// capitalised: an upper-case letter followed by at least one lower-case
// one ("Paris", "McKinsey"; not "I", not "NASA").
func capitalised(w string) bool {
	r, size := utf8.DecodeRuneInString(w)
	if !unicode.IsUpper(r) {
		return false
	}
	return strings.IndexFunc(w[size:], unicode.IsLower) >= 0
}

// acronym: 2 to 6 capitals or digits, starting with a capital, at least
// two capitals (NASA, G7, WHO; not "A", not "3D").
func acronym(w string) bool {
	if len(w) < 2 || len(w) > 6 {
		return false
	}
	upper := 0
	for i, r := range w {
		switch {
		case r >= 'A' && r <= 'Z':
			upper++
		case r >= '0' && r <= '9' && i > 0:
		default:
			return false
		}
	}
	return upper >= 2
}

// shouted reports whether most words of a sentence are in capitals.
func shouted(words []string) bool {
	if len(words) < 3 {
		return false
	}
	caps := 0
	for _, w := range words {
		if strings.ToUpper(w) == w && strings.IndexFunc(w, unicode.IsLetter) >= 0 {
			caps++
		}
	}
	return caps*10 > len(words)*6
}

// quotedRx finds passages in quotation marks, each kind of mark paired
// with its own closing mark.
var quotedRx = regexp.MustCompile(`"([^"\n]{12,400})"|“([^”\n]{12,400})”|«([^»\n]{12,400})»|„([^“\n]{12,400})“`)

// quotedPassages counts quoted passages of four words or more.
func quotedPassages(text string) int {
	n := 0
	for _, m := range quotedRx.FindAllStringSubmatch(text, -1) {
		if len(strings.Fields(m[1]+m[2]+m[3]+m[4])) >= 4 {
			n++
		}
	}
	return n
}
