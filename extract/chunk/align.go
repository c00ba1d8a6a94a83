package chunk

import (
	"sort"

	"golang.org/x/text/unicode/norm"
)

// Alignment of the content's words with the page's words.
//
// Words are interned to ids. Anchors are positions whose 4-word sequence
// occurs exactly once in the page and once in the content; the longest
// chain of anchors increasing on both sides pins those words. Between two
// pinned words (and before the first and after the last) the words left
// are aligned inside the gap by dynamic programming: most matches first,
// then fewest page words skipped between them (and between them and the
// anchors), so a paragraph that the page repeats (a teaser, a pull quote)
// is matched where the content's neighbours are; a gap too large for that
// is aligned greedily. A last pass (repair) maps runs of words still
// unmatched onto words the page splits or joins differently ("foo bar"
// against "foobar" across markup, and back). Every match keeps both
// sequences in order.

const (
	anchorLen = 4       // words in an anchor
	maxCells  = 1 << 22 // largest dynamic programming table (words × words) per gap
	window    = 4096    // greedy search window, in page words
)

// match is where a content word was found: page words [lo, hi]. apart
// says that those page words have text between them: the content word
// glued them (table cells run together) and is to be cut into one word
// per page word.
type match struct {
	lo, hi int32
	apart  bool
}

const none = -1

// align returns, for each content word, the page words it matched
// (lo = none when it was not found).
func align(cw []string, sw []srcWord) []match {
	ids := make(map[string]int32, len(sw)/4)
	intern := func(s string) int32 {
		// Words compare in NFC: a page may compose "é" as e and a
		// combining accent where the extractor (extract/content
		// normalizes) has one code point.
		if !norm.NFC.IsNormalString(s) {
			s = norm.NFC.String(s)
		}
		id, ok := ids[s]
		if !ok {
			id = int32(len(ids))
			ids[s] = id
		}
		return id
	}
	a := make([]int32, len(cw))
	for i, w := range cw {
		a[i] = intern(w)
	}
	b := make([]int32, len(sw))
	for j := range sw {
		b[j] = intern(sw[j].text)
	}
	m := make([]match, len(cw))
	for i := range m {
		m[i] = match{lo: none, hi: none}
	}

	pins := anchors(a, b)
	prevI, prevJ := -1, -1
	for _, p := range pins {
		m[p[0]] = match{lo: int32(p[1]), hi: int32(p[1])}
		alignGap(a, b, m, prevI+1, p[0], prevJ+1, p[1], prevI < 0, false)
		prevI, prevJ = p[0], p[1]
	}
	alignGap(a, b, m, prevI+1, len(a), prevJ+1, len(b), false, true)
	repair(cw, sw, m)
	return m
}

// anchors returns the longest chain of (content index, page index) pairs
// of unique 4-grams, increasing on both sides.
func anchors(a, b []int32) [][2]int {
	if len(a) < anchorLen || len(b) < anchorLen {
		return nil
	}
	key := func(s []int32, i int) uint64 {
		h := uint64(14695981039346656037)
		for _, x := range s[i : i+anchorLen] {
			h ^= uint64(uint32(x))
			h *= 1099511628211
		}
		return h
	}
	type seen struct {
		n   int32
		pos int32
	}
	inA := make(map[uint64]seen, len(a))
	for i := 0; i+anchorLen <= len(a); i++ {
		k := key(a, i)
		s := inA[k]
		inA[k] = seen{s.n + 1, int32(i)}
	}
	inB := make(map[uint64]seen, len(a))
	for j := 0; j+anchorLen <= len(b); j++ {
		k := key(b, j)
		if s, ok := inA[k]; ok && s.n == 1 {
			t := inB[k]
			inB[k] = seen{t.n + 1, int32(j)}
		}
	}
	var pairs [][2]int
	for k, t := range inB {
		if t.n == 1 {
			i := int(inA[k].pos)
			j := int(t.pos)
			if equal4(a[i:i+anchorLen], b[j:j+anchorLen]) {
				pairs = append(pairs, [2]int{i, j})
			}
		}
	}
	sort.Slice(pairs, func(x, y int) bool { return pairs[x][0] < pairs[y][0] })
	return lis(pairs)
}

func equal4(x, y []int32) bool {
	for k := range x {
		if x[k] != y[k] {
			return false
		}
	}
	return true
}

// lis returns the longest subsequence of pairs (sorted by [0]) whose [1]
// strictly increases.
func lis(pairs [][2]int) [][2]int {
	if len(pairs) == 0 {
		return nil
	}
	tails := make([]int, 0, len(pairs)) // indices into pairs
	prev := make([]int, len(pairs))
	for k, p := range pairs {
		n := sort.Search(len(tails), func(x int) bool { return pairs[tails[x]][1] >= p[1] })
		if n > 0 {
			prev[k] = tails[n-1]
		} else {
			prev[k] = -1
		}
		if n == len(tails) {
			tails = append(tails, k)
		} else {
			tails[n] = k
		}
	}
	out := make([][2]int, len(tails))
	for k, x := len(tails)-1, tails[len(tails)-1]; k >= 0; k, x = k-1, prev[x] {
		out[k] = pairs[x]
	}
	return out
}

// alignGap aligns content words [i0, i1) with page words [j0, j1).
// freeLead and freeTrail say whether page words skipped before the first
// and after the last match are free: they are at the ends of the page
// range that have no anchor.
func alignGap(a, b []int32, m []match, i0, i1, j0, j1 int, freeLead, freeTrail bool) {
	if i0 >= i1 || j0 >= j1 {
		return
	}
	if (i1-i0)*(j1-j0) <= maxCells {
		dp(a[i0:i1], b[j0:j1], m[i0:i1], j0, freeLead, freeTrail)
		return
	}
	greedy(a[i0:i1], b[j0:j1], m[i0:i1], j0, freeLead && !freeTrail)
}

// dp aligns a with b by dynamic programming: the most matches, and among
// those the fewest page words skipped between matches (and at an end that
// is not free). So the words of a paragraph that the page repeats are
// matched where they sit closest to the other matches and anchors.
func dp(a, b []int32, m []match, off int, freeLead, freeTrail bool) {
	const (
		dirMatch       = 1
		dirSkipContent = 2
		dirSkipPage    = 3
		reward         = int64(1) << 32 // a match outweighs any skipping
	)
	n, k := len(a), len(b)
	w := k + 1
	dir := make([]uint8, (n+1)*w)
	prev, cur := make([]int64, w), make([]int64, w)
	for y := 1; y <= k; y++ {
		dir[y] = dirSkipPage
		if !freeLead {
			prev[y] = -int64(y)
		}
	}
	for x := 1; x <= n; x++ {
		row := dir[x*w : (x+1)*w]
		cur[0], row[0] = prev[0], dirSkipContent
		ax := a[x-1]
		for y := 1; y <= k; y++ {
			best, d := prev[y], uint8(dirSkipContent)
			if v := cur[y-1] - 1; v > best {
				best, d = v, dirSkipPage
			}
			if ax == b[y-1] {
				if v := prev[y-1] + reward; v >= best {
					best, d = v, dirMatch
				}
			}
			cur[y], row[y] = best, d
		}
		prev, cur = cur, prev
	}
	y := k
	if freeTrail {
		for z := 0; z <= k; z++ {
			if prev[z] > prev[y] || (prev[z] == prev[y] && z < y) {
				y = z
			}
		}
	}
	for x := n; x > 0 && y >= 0; {
		switch dir[x*w+y] {
		case dirMatch:
			m[x-1] = match{lo: int32(off + y - 1), hi: int32(off + y - 1)}
			x, y = x-1, y-1
		case dirSkipContent:
			x--
		default:
			y--
		}
	}
}

// greedy aligns a with b in one pass: each word goes to its next
// occurrence within the window, taken only when the following word also
// matches right after it (or it is next in b, or the last word). late
// runs the pass from the end.
func greedy(a, b []int32, m []match, off int, late bool) {
	n, k := len(a), len(b)
	at := func(x int) int32 {
		if late {
			return a[n-1-x]
		}
		return a[x]
	}
	bt := func(y int) int32 {
		if late {
			return b[k-1-y]
		}
		return b[y]
	}
	y := 0
	for x := 0; x < n && y < k; x++ {
		for z := y; z < k && z < y+window; z++ {
			if bt(z) != at(x) {
				continue
			}
			if z != y && x+1 < n && (z+1 >= k || bt(z+1) != at(x+1)) {
				continue
			}
			p := z
			if late {
				m[n-1-x] = match{lo: int32(off + k - 1 - p), hi: int32(off + k - 1 - p)}
			} else {
				m[x] = match{lo: int32(off + p), hi: int32(off + p)}
			}
			y = z + 1
			break
		}
	}
}

// repair matches runs of content words left unmatched against the page
// words between their matched neighbours, where one side splits what the
// other joins: a content word equal to several consecutive page words
// (joined; when text separates them, the word is cut in pieces later), or
// several consecutive content words whose concatenation is one page word
// (split).
func repair(cw []string, sw []srcWord, m []match) {
	for i := 0; i < len(cw); {
		if m[i].lo != none {
			i++
			continue
		}
		r := i
		for r < len(cw) && m[r].lo == none {
			r++
		}
		lo, hi := 0, len(sw)
		if i > 0 {
			lo = int(m[i-1].hi) + 1
		}
		if r < len(cw) {
			hi = int(m[r].lo)
		}
		if lo < hi {
			repairRun(cw[i:r], sw, m[i:r], lo, min(hi, lo+window))
		}
		i = r
	}
}

func repairRun(cw []string, sw []srcWord, m []match, lo, hi int) {
	y := lo
	for x := 0; x < len(cw) && y < hi; x++ {
		for z := y; z < hi; z++ {
			if q, apart := joined(cw[x], sw, z, hi); q > 0 {
				m[x] = match{lo: int32(z), hi: int32(z + q - 1), apart: apart}
				y = z + q
				break
			}
			if q := split(cw[x:], sw[z].text); q > 0 {
				for d := 0; d < q; d++ {
					m[x+d] = match{lo: int32(z), hi: int32(z)}
				}
				x += q - 1
				y = z + 1
				break
			}
		}
	}
}

// joined returns how many consecutive page words from z spell w (at
// least 2, else 0), and whether any two of them have text between them.
func joined(w string, sw []srcWord, z, hi int) (int, bool) {
	rest := w
	apart := false
	for q := 0; z+q < hi; q++ {
		t := sw[z+q].text
		if len(t) > len(rest) || rest[:len(t)] != t {
			return 0, false
		}
		if q > 0 && !sw[z+q].adj {
			apart = true
		}
		rest = rest[len(t):]
		if rest == "" {
			if q == 0 {
				return 0, false
			}
			return q + 1, apart
		}
	}
	return 0, false
}

// split returns how many content words from cw[0] (at least 2) spell the
// page word t, or 0.
func split(cw []string, t string) int {
	rest := t
	for q := 0; q < len(cw); q++ {
		w := cw[q]
		if len(w) > len(rest) || rest[:len(w)] != w {
			return 0
		}
		rest = rest[len(w):]
		if rest == "" {
			if q == 0 {
				return 0
			}
			return q + 1
		}
	}
	return 0
}
