package pagetype

import (
	"math"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/webinfra/webinfra/internal/htmltag"
	"github.com/webinfra/webinfra/internal/words"
)

// maxText bounds the visible text the phrase features read: enough for
// any page's signals, and the scan stays linear in a bounded size.
const maxText = 64 << 10

// countedTags are the elements whose numbers are features.
var countedTags = []atom.Atom{
	atom.P, atom.H1, atom.H2, atom.H3, atom.H4, atom.Li, atom.Ul, atom.Ol, atom.Table, atom.Tr,
	atom.Pre, atom.Code, atom.Article, atom.Section, atom.Time, atom.Img, atom.Form, atom.Input,
	atom.Button, atom.Select, atom.A, atom.Blockquote, atom.Dl, atom.Nav, atom.Aside, atom.Iframe,
	atom.Svg, atom.Video, atom.Figure, atom.Footer, atom.Main, atom.Kbd, atom.Dt,
}

// scan is what one walk over a page gathers.
type scan struct {
	tags     map[atom.Atom]int
	class    []int // per classGroups
	platform []int // per platformGroups
	schema   []int // per schemaGroups
	text     strings.Builder

	words, linkWords, pWords, liWords, tableWords, preWords, headingWords int
	longParagraphs                                                        int

	repeatGroups, repeatItems, repeatMax, cards, repeatTimes int
	repeatWords, repeatPriced, repeatHeaded                  int

	bodyWords int // the most words of paragraphs in one element
}

// subtree is what the walk reports of an element's subtree to its parent.
type subtree struct {
	img, link, time, price, heading bool
	words                           int
	paragraph                       bool // the subtree is a <p>
}

var (
	jsonLDType = regexp.MustCompile(`"@type"\s*:\s*(\[[^\]]*\]|"[^"]*")`)
	quoted     = regexp.MustCompile(`"([^"]*)"`)
	priceRE    = regexp.MustCompile(`[$€£¥₹]\s?\d|\d[\d.,]*\s?(?:€|eur\b|usd\b|kr\b|zł)`)
)

// Features is the page's feature vector, in FeatureNames' order: what
// a Model reads, and what Train fits one to. doc is not modified.
func Features(doc *html.Node, pageURL *url.URL) []float64 {
	var v vector
	s := walkPage(doc)
	v.page(s)
	v.url(pageURL)
	return v.vals
}

// FeatureNames names the features of Features, in order.
func FeatureNames() []string { return slices.Clone(featureNames()) }

// featureNames is FeatureNames, recorded once (Check compares a model's
// names with it on every call).
var featureNames = sync.OnceValue(func() []string {
	v := vector{record: true}
	v.page(walkPage(&html.Node{Type: html.DocumentNode}))
	v.url(nil)
	return v.names
})

// vector builds a feature vector, recording the names when asked.
type vector struct {
	record bool
	names  []string
	vals   []float64
}

func (v *vector) add(name string, x float64) {
	if v.record {
		v.names = append(v.names, name)
	}
	v.vals = append(v.vals, x)
}

// count adds log(1+n): counts matter by their order of magnitude.
func (v *vector) count(name string, n int) { v.add(name, math.Log1p(float64(n))) }

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

func (v *vector) page(s *scan) {
	for _, a := range countedTags {
		v.count("tag:"+a.String(), s.tags[a])
	}
	for i, g := range classGroups {
		v.count("class:"+g.name, s.class[i])
	}
	for i, g := range platformGroups {
		v.add("platform:"+g.name, math.Min(1, float64(s.platform[i])))
	}
	for i, g := range schemaGroups {
		v.count("schema:"+g.name, s.schema[i])
	}
	text := strings.ToLower(s.text.String())
	phrases := textPhrases.count(text)
	for i, g := range textGroups {
		v.count("text:"+g.name, phrases[i])
	}
	prices, years, calls := textMarks(text)
	v.count("text:prices", prices)
	v.count("text:years", years)
	v.count("text:ago", strings.Count(text, " ago "))
	v.count("text:calls", calls)
	v.count("words", s.words)
	v.add("share:link", ratio(s.linkWords, s.words))
	v.add("share:p", ratio(s.pWords, s.words))
	v.add("share:li", ratio(s.liWords, s.words))
	v.add("share:table", ratio(s.tableWords, s.words))
	v.add("share:pre", ratio(s.preWords, s.words))
	v.add("share:heading", ratio(s.headingWords, s.words))
	v.count("paragraphs:long", s.longParagraphs)
	v.add("paragraph:words", math.Log1p(ratio(s.pWords, s.tags[atom.P])))
	v.count("repeat:groups", s.repeatGroups)
	v.count("repeat:items", s.repeatItems)
	v.count("repeat:max", s.repeatMax)
	v.count("repeat:cards", s.cards)
	v.count("repeat:times", s.repeatTimes)
	v.add("repeat:words", math.Log1p(ratio(s.repeatWords, s.repeatItems)))
	v.add("repeat:share", ratio(s.repeatWords, s.words))
	v.count("repeat:priced", s.repeatPriced)
	v.count("repeat:headed", s.repeatHeaded)
	v.count("body:words", s.bodyWords)
	v.add("body:share", ratio(s.bodyWords, s.words))
}

// textMarks counts, in one pass over the lowercased text, prices (a
// currency sign before a digit), years (19xx or 20xx standing alone)
// and calls (an identifier followed by "(", as code reads).
func textMarks(text string) (prices, years, calls int) {
	isDigit := func(i int) bool { return i >= 0 && i < len(text) && text[i] >= '0' && text[i] <= '9' }
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c == '$':
			if isDigit(i+1) || (i+2 < len(text) && text[i+1] == ' ' && isDigit(i+2)) {
				prices++
			}
		case c >= 0xC2: // a multi-byte sign: €, £, ¥, ₹
			for _, sign := range []string{"€", "£", "¥", "₹"} {
				if strings.HasPrefix(text[i:], sign) && (isDigit(i+len(sign)) || isDigit(i-1) || isDigit(i-2)) {
					prices++
				}
			}
		case c == '(':
			if i > 0 && (text[i-1] == '_' || (text[i-1] >= 'a' && text[i-1] <= 'z')) {
				calls++
			}
		case (c == '1' || c == '2') && !isDigit(i-1) && isDigit(i+3) && !isDigit(i+4):
			if y := text[i : i+2]; y == "19" || y == "20" {
				if isDigit(i + 2) {
					years++
				}
			}
		}
	}
	return prices, years, calls
}

// url adds the URL's features: its path's words by group, its shape.
func (v *vector) url(u *url.URL) {
	var path, query, host string
	if u != nil {
		path, query, host = strings.ToLower(u.EscapedPath()), u.RawQuery, strings.ToLower(u.Hostname())
	}
	// The host's labels before the registrable domain ("docs" in
	// docs.python.org, "forum" in forum.example.com).
	labels := strings.Split(host, ".")
	labels = labels[:max(0, len(labels)-2)]
	for _, g := range pathGroups {
		n := 0
		for _, l := range labels {
			if slices.Contains(g.words, l) {
				n++
			}
		}
		v.add("host:"+g.name, math.Min(1, float64(n)))
	}
	segs := strings.FieldsFunc(path, func(r rune) bool { return r == '/' })
	tokens := strings.FieldsFunc(path, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	for _, g := range pathGroups {
		n := 0
		for _, t := range tokens {
			for _, w := range g.words {
				if t == w {
					n++
				}
			}
		}
		v.add("path:"+g.name, math.Min(2, float64(n)))
	}
	v.add("path:root", bool01(u != nil && len(segs) == 0))
	v.count("path:depth", len(segs))
	v.add("path:query", bool01(query != "" && !strings.HasPrefix(query, "srsltid=")))
	var last string
	if len(segs) > 0 {
		last = segs[len(segs)-1]
	}
	v.count("path:slugwords", len(strings.FieldsFunc(last, func(r rune) bool { return r == '-' || r == '_' })))
	digits := 0
	for _, seg := range segs {
		if len(seg) >= 4 && strings.Trim(seg, "0123456789") == "" {
			digits++
		}
	}
	v.add("path:numeric", math.Min(2, float64(digits)))
	v.add("path:year", bool01(len(segs) > 1 && yearSegment(segs)))
	v.add("path:page", bool01(strings.HasSuffix(last, ".html") || strings.HasSuffix(last, ".htm") || strings.HasSuffix(last, ".php")))
}

func yearSegment(segs []string) bool {
	for _, s := range segs[:len(segs)-1] {
		if len(s) == 4 && (strings.HasPrefix(s, "19") || strings.HasPrefix(s, "20")) && strings.Trim(s, "0123456789") == "" {
			return true
		}
	}
	return false
}

func bool01(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// walkPage gathers the scan of doc in one walk.
func walkPage(doc *html.Node) *scan {
	s := &scan{
		tags:     make(map[atom.Atom]int),
		class:    make([]int, len(classGroups)),
		platform: make([]int, len(platformGroups)),
		schema:   make([]int, len(schemaGroups)),
	}
	w := walker{scan: s}
	w.walk(doc, context{})
	return s
}

// context is where in the page a node sits.
type context struct {
	link, p, li, table, pre, heading bool
}

type walker struct {
	*scan
	pText int // words of the current <p>
}

func (w *walker) walk(n *html.Node, ctx context) subtree {
	switch n.Type {
	case html.TextNode:
		return w.textNode(n, ctx)
	case html.ElementNode, html.DocumentNode:
	default:
		return subtree{}
	}
	if n.Type == html.ElementNode {
		if skip := w.element(n); skip {
			return subtree{}
		}
		switch n.DataAtom {
		case atom.A:
			ctx.link = true
		case atom.P:
			ctx.p = true
		case atom.Li:
			ctx.li = true
		case atom.Table:
			ctx.table = true
		case atom.Pre:
			ctx.pre = true
		}
		if htmltag.IsHeading(n.DataAtom) {
			ctx.heading = true
		}
	}
	outer := w.pText
	if n.DataAtom == atom.P {
		w.pText = 0
	}
	sub := subtree{img: n.DataAtom == atom.Img, link: n.DataAtom == atom.A, time: n.DataAtom == atom.Time,
		heading: htmltag.IsHeading(n.DataAtom), paragraph: n.DataAtom == atom.P}
	// Only an element of four or more element children can hold a run
	// of alike items: only then are the children's summaries kept.
	var kids []subtree
	var sigs []string
	elems := 0
	for c := n.FirstChild; c != nil && elems < 4; c = c.NextSibling {
		if c.Type == html.ElementNode {
			elems++
		}
	}
	body := 0
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		k := w.walk(c, ctx)
		sub.img, sub.link, sub.time = sub.img || k.img, sub.link || k.link, sub.time || k.time
		sub.price, sub.heading = sub.price || k.price, sub.heading || k.heading
		sub.words += k.words
		if k.paragraph {
			body += k.words
		}
		if c.Type == html.ElementNode && elems >= 4 {
			kids = append(kids, k)
			sigs = append(sigs, signature(c))
		}
	}
	w.bodyWords = max(w.bodyWords, body)
	if n.DataAtom == atom.P {
		if w.pText >= 40 {
			w.longParagraphs++
		}
		w.pText = outer
	}
	if len(kids) >= 4 {
		w.repeats(kids, sigs)
	}
	return sub
}

// element counts n's tag, classes and metadata, and says whether its
// subtree holds no visible text.
func (w *walker) element(n *html.Node) (skip bool) {
	w.tags[n.DataAtom]++
	for _, a := range n.Attr {
		switch a.Key {
		case "class", "id":
			w.classes(a.Val)
		case "itemtype", "typeof":
			for _, t := range strings.Fields(a.Val) {
				w.schemaType(t[strings.LastIndexAny(t, "/:")+1:])
			}
		case "src", "href":
			if n.DataAtom == atom.Script || n.DataAtom == atom.Link {
				w.platformIn(a.Val)
			}
		}
	}
	switch n.DataAtom {
	case atom.Meta:
		name := strings.ToLower(htmltag.Attr(n, "name") + htmltag.Attr(n, "property"))
		switch name {
		case "generator":
			w.platformIn(htmltag.Attr(n, "content"))
		case "og:type":
			w.schemaType(htmltag.Attr(n, "content"))
		}
		return true
	case atom.Script:
		if strings.Contains(strings.ToLower(htmltag.Attr(n, "type")), "ld+json") && n.FirstChild != nil {
			w.jsonLD(n.FirstChild.Data)
		}
		return true
	case atom.Style, atom.Noscript, atom.Template, atom.Head, atom.Title:
		// <head> is walked for its metadata only: its children are
		// visited here.
		if n.DataAtom == atom.Head {
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				if c.Type == html.ElementNode {
					w.element(c)
				}
			}
		}
		return true
	}
	return false
}

func (w *walker) textNode(n *html.Node, ctx context) subtree {
	count := words.CountFields(n.Data)
	if count == 0 {
		return subtree{}
	}
	w.words += count
	if ctx.link {
		w.linkWords += count
	}
	if ctx.p {
		w.pWords += count
		w.pText += count
	}
	if ctx.li {
		w.liWords += count
	}
	if ctx.table {
		w.tableWords += count
	}
	if ctx.pre {
		w.preWords += count
	}
	if ctx.heading {
		w.headingWords += count
	}
	if w.text.Len() < maxText {
		w.text.WriteString(n.Data)
		w.text.WriteByte(' ')
	}
	return subtree{words: count, price: count < 20 && mayHavePrice(n.Data) && priceRE.MatchString(n.Data)}
}

// repeats records the runs of four or more siblings alike (same tag and
// first class): the items of a list, grid, thread or table.
func (w *walker) repeats(kids []subtree, sigs []string) {
	groups := make(map[string][]int)
	for i, s := range sigs {
		groups[s] = append(groups[s], i)
	}
	for _, idx := range groups {
		if len(idx) < 4 {
			continue
		}
		w.repeatGroups++
		w.repeatItems += len(idx)
		w.repeatMax = max(w.repeatMax, len(idx))
		for _, i := range idx {
			k := kids[i]
			if k.img && k.link {
				w.cards++
			}
			if k.time {
				w.repeatTimes++
			}
			if k.price {
				w.repeatPriced++
			}
			if k.heading {
				w.repeatHeaded++
			}
			w.repeatWords += k.words
		}
	}
}

// mayHavePrice is a quick test that s holds a currency sign or code,
// before priceRE looks closer.
func mayHavePrice(s string) bool {
	return strings.ContainsAny(s, "$€£¥₹") || strings.Contains(s, "EUR") || strings.Contains(s, "USD") ||
		strings.Contains(s, "eur") || strings.Contains(s, "usd") || strings.Contains(s, "kr") || strings.Contains(s, "zł")
}

// signature is an element's tag and first class.
func signature(n *html.Node) string {
	class, _, _ := strings.Cut(strings.TrimSpace(htmltag.Attr(n, "class")), " ")
	return n.Data + "." + class
}

// classes counts the word groups of a class or id value.
func (w *walker) classes(val string) {
	eachClassToken(val, func(tok []byte) {
		groups := classWords.prefixGroups(tok)
		for i := range classGroups {
			if groups&(1<<i) != 0 {
				w.class[i]++
			}
		}
	})
}

// classWords is the words of classGroups as a trie.
var classWords = func() *wordTrie {
	t := &wordTrie{next: make([][26]uint16, 1), groups: make([]uint64, 1)}
	for i, g := range classGroups {
		for _, w := range g.words {
			t.add(w, 1<<i)
		}
	}
	return t
}()

// wordTrie is a trie of words of the letters a-z, each word with the
// groups (a bit each) it belongs to. It answers for a token in one pass
// over it which words it starts with, the question a class name asks
// ("navbar" starts with "nav"), where a map of prefixes would hash each
// prefix anew. Node 0 is the root; a child index of 0 means none.
type wordTrie struct {
	next   [][26]uint16
	groups []uint64
}

func (t *wordTrie) add(word string, groups uint64) {
	node := 0
	for i := 0; i < len(word); i++ {
		c := word[i] - 'a'
		if t.next[node][c] == 0 {
			t.next = append(t.next, [26]uint16{})
			t.groups = append(t.groups, 0)
			t.next[node][c] = uint16(len(t.next) - 1)
		}
		node = int(t.next[node][c])
	}
	t.groups[node] |= groups
}

// prefixGroups is the union of the groups of the words tok starts with;
// tok is lower-case letters a-z.
func (t *wordTrie) prefixGroups(tok []byte) uint64 {
	var groups uint64
	node := 0
	for _, c := range tok {
		if node = int(t.next[node][c-'a']); node == 0 {
			break
		}
		groups |= t.groups[node]
	}
	return groups
}

func (w *walker) platformIn(val string) {
	val = strings.ToLower(val)
	for i, g := range platformGroups {
		for _, word := range g.words {
			if strings.Contains(val, word) {
				w.platform[i]++
				break
			}
		}
	}
}

// jsonLD counts the schema.org types a JSON-LD block names. The types
// are read with a pattern rather than by decoding: every "@type" counts,
// nested or not, and a block broken elsewhere still tells its types.
func (w *walker) jsonLD(block string) {
	if len(block) > 1<<20 {
		block = block[:1<<20]
	}
	for _, m := range jsonLDType.FindAllStringSubmatch(block, 500) {
		for _, q := range quoted.FindAllStringSubmatch(m[1], 20) {
			t := q[1]
			w.schemaType(t[strings.LastIndexAny(t, "/:")+1:])
		}
	}
}

func (w *walker) schemaType(t string) {
	t = strings.TrimSpace(t)
	for i, g := range schemaGroups {
		for _, word := range g.words {
			if t == word {
				w.schema[i]++
				break
			}
		}
	}
}
