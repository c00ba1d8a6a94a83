package readability

import (
	_ "embed"
	"strings"
	"sync"
)

// hyphEnUS is pyphen's American English hyphenation dictionary
// (hyph_en_US.dic, the file pyphen ships on PyPI; Liang's TeX patterns as
// converted by László Németh; BSD-style licence, see hyph_en_US.README.txt).
//
//go:embed hyph_en_US.dic
var hyphEnUS string

// patternNode is one node of a trie over hyphenation patterns (runes).
type patternNode struct {
	next   map[rune]*patternNode
	start  int     // offset of values from the start of the pattern
	values []uint8 // inter-letter values, leading and trailing zeros cut
	ok     bool    // a pattern ends here
}

var (
	patternsOnce sync.Once
	patternRoot  *patternNode
)

// patterns returns the parsed dictionary, parsing it on first use.
func patterns() *patternNode {
	patternsOnce.Do(func() { patternRoot = parsePatterns(hyphEnUS) })
	return patternRoot
}

// parsePatterns reads a hunspell/LibreOffice hyph_*.dic as pyphen 0.13
// does: the first line names the charset, comment and *HYPHENMIN lines are
// skipped, a pattern with only zeros is dropped, and a later duplicate
// replaces an earlier one.
func parsePatterns(dic string) *patternNode {
	root := &patternNode{}
	lines := strings.Split(dic, "\n")
	for _, line := range lines[1:] {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "%") || strings.HasPrefix(line, "#") ||
			strings.Contains(line, "HYPHENMIN") {
			continue
		}
		chars, values := splitPattern(line)
		start, end := 0, len(values)
		for start < end && values[start] == 0 {
			start++
		}
		if start == end {
			continue
		}
		for values[end-1] == 0 {
			end--
		}
		n := root
		for _, c := range chars {
			child := n.next[c]
			if child == nil {
				if n.next == nil {
					n.next = make(map[rune]*patternNode, 2)
				}
				child = &patternNode{}
				n.next[c] = child
			}
			n = child
		}
		n.ok, n.start, n.values = true, start, values[start:end]
	}
	return root
}

// splitPattern splits a Liang pattern such as ".a2ch4" into its letters
// (".ach") and the value before each letter and after the last (0 0 2 0 4).
func splitPattern(p string) (chars []rune, values []uint8) {
	var pending uint8
	for _, r := range p {
		if r >= '0' && r <= '9' {
			pending = uint8(r - '0')
			continue
		}
		chars = append(chars, r)
		values = append(values, pending)
		pending = 0
	}
	return chars, append(values, pending)
}

// hyphenPoints counts the hyphenation points pyphen's Pyphen(lang="en_US")
// .positions(word) returns for a lower-cased word: Liang's odd values, kept
// only at least two letters from either end (pyphen's left=2, right=2).
func hyphenPoints(word []rune, buf []uint8) (int, []uint8) {
	n := len(word) + 2 // the word between two dots
	if cap(buf) < n+1 {
		buf = make([]uint8, n+1)
	}
	refs := buf[:n+1]
	clear(refs)
	at := func(i int) rune {
		if i == 0 || i == n-1 {
			return '.'
		}
		return word[i-1]
	}
	root := patterns()
	for i := 0; i < n-1; i++ {
		node := root
		for j := i; j < n; j++ {
			node = node.next[at(j)]
			if node == nil {
				break
			}
			if node.ok {
				for k, v := range node.values {
					if p := i + node.start + k; v > refs[p] {
						refs[p] = v
					}
				}
			}
		}
	}
	count := 0
	right := len(word) - 2
	for i, v := range refs {
		// pyphen reports point i-1 of the dotted word: a cut before word[i-1].
		if pos := i - 1; v%2 == 1 && pos >= 2 && pos <= right {
			count++
		}
	}
	return count, refs
}

// syllables counts the syllables of one word as textstat 0.7.4 does:
// pyphen's hyphenation points plus one. word must already be lower-cased
// and free of punctuation; the empty word has none.
func syllables(word string, buf []uint8) (int, []uint8) {
	if word == "" {
		return 0, buf
	}
	runes := []rune(word)
	n, buf := hyphenPoints(runes, buf)
	return n + 1, buf
}
