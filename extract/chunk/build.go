package chunk

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// cword is a word of the content.
type cword struct {
	block int32
	span  span // in the block's text
	m     match
}

// unit is a content word that was found in the page: the atom of
// chunking. Its text is rendered with lead before it.
type unit struct {
	block       int32
	word        string
	lead        string // the block's text since the previous unit of the block (or its start), unfound words removed
	tail        string // for the block's last unit, the text after it, unfound words removed
	first, last bool   // first or last unit of its block
	start, end  int    // in the page
	hi          int32  // the last page word it matched
	cost        int    // milli-tokens of lead, word and (when last) tail, plus 1000 when first
	trail       int    // milli-tokens of what render adds after the word when a chunk ends here
	strength    int8   // how good a place to cut the boundary before this unit is
}

// doc is the content ready to be chunked.
type doc struct {
	est    estimator
	blocks []block
	units  []unit
	paths  [][]string // heading path of each block
	sums   []int      // sums[u] is the cost of units [0, u), in milli-tokens
}

// markHeadings makes a heading of each block whose found words all lie in
// one h1–h6 element of the page.
func markHeadings(blocks []block, cws []cword, src *source) {
	for i := 0; i < len(cws); {
		b := cws[i].block
		j := i
		h, bad := int32(0), false
		for ; j < len(cws) && cws[j].block == b; j++ {
			m := cws[j].m
			if m.lo == none {
				continue
			}
			lo, hi := src.words[m.lo].heading, src.words[m.hi].heading
			if lo == 0 || lo != hi || (h != 0 && lo != h) {
				bad = true
			}
			h = lo
		}
		if !bad && h > 0 && blocks[b].kind == kindPara {
			blocks[b].kind = kindHeading
			blocks[b].level = src.headings[h-1].level
		}
		i = j
	}
}

// newDoc builds the units and heading paths.
func newDoc(blocks []block, cws []cword, src *source) *doc {
	texts := make([]string, len(blocks))
	for i := range blocks {
		texts[i] = blocks[i].text
	}
	d := &doc{est: newEstimator(strings.Join(texts, "\n")), blocks: blocks, paths: make([][]string, len(blocks))}
	type level struct {
		n    int
		text string
	}
	var stack []level
	cur := []string{}
	for bi := range blocks {
		if blocks[bi].kind == kindHeading {
			for len(stack) > 0 && stack[len(stack)-1].n >= blocks[bi].level {
				stack = stack[:len(stack)-1]
			}
			stack = append(stack, level{blocks[bi].level, headingText(blocks[bi].text)})
			cur = make([]string, len(stack))
			for k, l := range stack {
				cur[k] = l.text
			}
		}
		d.paths[bi] = cur
	}
	for i := 0; i < len(cws); {
		b := cws[i].block
		j := i
		for j < len(cws) && cws[j].block == b {
			j++
		}
		d.addBlock(blocks[b].text, b, cws[i:j], src)
		i = j
	}
	d.sums = make([]int, len(d.units)+1)
	for u := range d.units {
		d.sums[u+1] = d.sums[u] + d.units[u].cost
	}
	return d
}

// headingText is a heading's text on one line, cut to MaxHeadingBytes.
func headingText(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= MaxHeadingBytes {
		return s
	}
	const ellipsis = "…"
	cut := MaxHeadingBytes - len(ellipsis)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	if sp := strings.LastIndexByte(s[:cut], ' '); sp > cut/2 {
		cut = sp
	}
	return s[:cut] + ellipsis
}

// addBlock appends the units of one block.
func (d *doc) addBlock(text string, b int32, ws []cword, src *source) {
	// dropped holds the text since the last unit up to a dropped word;
	// usually empty, so that a lead is a substring of the block's text.
	var dropped string
	cursor := 0
	first := len(d.units)
	for _, w := range ws {
		if w.m.lo == none {
			dropped += text[cursor:w.span.s]
			cursor = w.span.e
			// drop the space after a dropped word when one is already there
			if dropped == "" || strings.HasSuffix(dropped, " ") || strings.HasSuffix(dropped, "\n") {
				for cursor < len(text) && (text[cursor] == ' ' || text[cursor] == '\t') {
					cursor++
				}
			}
			continue
		}
		lead := text[cursor:w.span.s]
		if dropped != "" {
			lead, dropped = dropped+lead, ""
		}
		if lead == "" && len(d.units) > first {
			// Two words with nothing between: in a script without
			// spaces, or where a word was dropped. Unless the page has
			// them side by side too, a space keeps them apart.
			if p := d.units[len(d.units)-1].hi; w.m.lo != p+1 || !src.words[w.m.lo].adj {
				lead = " "
			}
		}
		d.units = append(d.units, unit{
			block: b,
			word:  text[w.span.s:w.span.e],
			lead:  lead,
			start: src.words[w.m.lo].start,
			end:   src.words[w.m.hi].end,
			hi:    w.m.hi,
		})
		cursor = w.span.e
	}
	if len(d.units) == first {
		return
	}
	d.units[first].first = true
	last := &d.units[len(d.units)-1]
	last.last = true
	last.tail = dropped + text[cursor:]
	for u := first; u < len(d.units); u++ {
		x := &d.units[u]
		if x.last {
			x.cost = d.est.milli(x.lead + x.word + x.tail)
		} else {
			x.cost = d.est.milli(x.lead + x.word)
			x.trail = d.est.milli(leadHead(d.units[u+1].lead))
		}
		if x.first {
			x.cost += 1000 // the line break before the block
		}
		x.strength = d.strength(u)
	}
}

// leadHead is what follows a word up to the first space (a full stop, a
// closing quote): a chunk that ends at the word ends with it.
func leadHead(lead string) string {
	if i := strings.IndexFunc(lead, unicode.IsSpace); i >= 0 {
		return lead[:i]
	}
	return lead
}

// leadTail is what precedes a word after the last space (an opening
// bracket or quote): a chunk that starts at the word starts with it.
func leadTail(lead string) string {
	if i := strings.LastIndexFunc(lead, unicode.IsSpace); i >= 0 {
		_, size := utf8.DecodeRuneInString(lead[i:])
		return lead[i+size:]
	}
	return lead
}

// Boundary strengths: where a chunk may end or an overlap start, worst
// first.
const (
	cutInside    = iota // inside a token such as don't, co-working or a URL; also right after a heading
	cutWord             // between two words
	cutClause           // after , ; : or a dash
	cutSentence         // after . ! ? and the like
	cutLine             // a line break inside a block, or between list items or table rows
	cutParagraph        // between blocks
	cutSection          // before a heading
)

// strength rates the boundary before unit u.
func (d *doc) strength(u int) int8 {
	if u == 0 {
		return cutSection
	}
	x, p := &d.units[u], &d.units[u-1]
	if x.block != p.block {
		kx, kp := d.blocks[x.block].kind, d.blocks[p.block].kind
		switch {
		case kx == kindHeading:
			return cutSection
		case kp == kindHeading:
			return cutInside
		case kx == kp && (kx == kindItem || kx == kindRow):
			return cutLine
		default:
			return cutParagraph
		}
	}
	lead := x.lead
	switch {
	case strings.Contains(lead, "\n"):
		return cutLine
	case sentenceEnd(lead):
		return cutSentence
	case strings.ContainsAny(lead, ",;:—–、，；：") || strings.Contains(lead, " - "):
		return cutClause
	case strings.IndexFunc(lead, unicode.IsSpace) >= 0:
		return cutWord
	}
	// No space: inside a token, unless in a script written without spaces.
	r, _ := utf8.DecodeRuneInString(x.word)
	q, _ := utf8.DecodeLastRuneInString(p.word)
	if isUnspaced(r) || isUnspaced(q) {
		return cutWord
	}
	return cutInside
}

// sentenceEnd reports whether the text between two words ends a sentence:
// closing marks, then . ! ? … (or their CJK forms, which need no space),
// then closing marks and a space.
func sentenceEnd(lead string) bool {
	s := strings.TrimLeft(lead, `)]"'”’»*`)
	r, size := utf8.DecodeRuneInString(s)
	switch r {
	case '。', '！', '？', '．':
		return true
	case '.', '!', '?', '…':
	default:
		return false
	}
	s = strings.TrimLeft(s[size:], `.!?…)]"'”’»`)
	r, _ = utf8.DecodeRuneInString(s)
	return s == "" || unicode.IsSpace(r)
}

// rng is a chunk: units [from, to), of which [from, own) repeat the end of
// the previous chunk.
type rng struct{ from, own, to int }

// chunks cuts the units into chunks of at most size milli-tokens, each
// starting with up to overlap milli-tokens of the previous one.
func (d *doc) chunks(size, overlap int) []rng {
	var out []rng
	n := len(d.units)
	cost := func(from, to int) int { return d.sums[to] - d.sums[from] + d.units[to-1].trail }
	prevFrom := -1
	for own := 0; own < n; {
		from := own
		if overlap > 0 && prevFrom >= 0 {
			for from > prevFrom+1 && cost(from-1, own) <= overlap {
				from--
			}
			// start at a word, not inside one, when the overlap allows
			for k := from; k < own; k++ {
				if d.units[k].strength >= cutWord {
					from = k
					break
				}
			}
		}
		if cost(from, own+1) > size {
			from = own // drop the overlap to make room
		}
		if cost(own, own+1) > size {
			// One word alone is over the budget: it is a chunk of its own.
			out = append(out, rng{own, own, own + 1})
			prevFrom, own = own, own+1
			continue
		}
		end := own + 1
		for end < n && cost(from, end+1) <= size {
			end++
		}
		if end < n {
			end = d.cut(from, own, end, size)
		}
		out = append(out, rng{from, own, end})
		prevFrom, own = from, end
	}
	return out
}

// cut picks where a full chunk ends: the strongest boundary in (own, end]
// that leaves the chunk at least half of its room for new text, the
// latest of equals.
func (d *doc) cut(from, own, end, size int) int {
	room := size - (d.sums[own] - d.sums[from])
	best, bestS := end, d.units[end].strength
	for c := end - 1; c > own; c-- {
		if 2*(d.sums[c]-d.sums[own]) < room {
			break
		}
		if s := d.units[c].strength; s > bestS {
			best, bestS = c, s
		}
	}
	return best
}

// render is the text of units [from, to).
func (d *doc) render(from, to int) string {
	var b strings.Builder
	for u := from; u < to; u++ {
		x := &d.units[u]
		switch {
		case u == from && x.first:
			b.WriteString(strings.TrimLeftFunc(x.lead, unicode.IsSpace))
		case u == from:
			b.WriteString(leadTail(x.lead))
		case x.first:
			b.WriteString(d.joiner(d.units[u-1].block, x.block))
			b.WriteString(strings.TrimLeftFunc(x.lead, unicode.IsSpace))
		default:
			b.WriteString(x.lead)
		}
		b.WriteString(x.word)
		switch {
		case x.last:
			b.WriteString(strings.TrimRightFunc(x.tail, unicode.IsSpace))
		case u == to-1:
			b.WriteString(leadHead(d.units[u+1].lead))
		}
	}
	return b.String()
}

// joiner separates two blocks: a line break inside a list or table, else
// a blank line.
func (d *doc) joiner(prev, next int32) string {
	kp, kn := d.blocks[prev].kind, d.blocks[next].kind
	if kp == kn && (kn == kindItem || kn == kindRow) {
		return "\n"
	}
	return "\n\n"
}

// path is the heading path of unit u.
func (d *doc) path(u int) []string { return d.paths[d.units[u].block] }
