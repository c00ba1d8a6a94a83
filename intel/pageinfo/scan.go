package pageinfo

import (
	"net/url"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/webinfra/webinfra/internal/htmltag"
	"github.com/webinfra/webinfra/internal/words"
)

// Caps on what one walk keeps for the technology rules: a hostile page
// cannot make the report or the matching grow without bound.
const (
	maxKeptURLs    = 500     // script, stylesheet and iframe URLs, each
	maxMetaNames   = 300     // distinct <meta name>s
	maxMetaValues  = 10      // contents kept per name
	maxInlineBytes = 1 << 20 // inline script and style text, all together
	maxInlineBlock = 64 << 10
	maxH1          = 10
	maxHosts       = 10_000 // distinct link hosts counted
)

// ImageCounts count the page's <img> elements.
type ImageCounts struct {
	Total      int `json:"total"`
	WithoutAlt int `json:"without_alt" doc:"Images with no alt attribute (alt=\"\" marks a decorative image and counts as present)."`
}

// ScriptCounts count the page's <script> elements that run code (JSON-LD
// and other data blocks left out).
type ScriptCounts struct {
	External int `json:"external" doc:"Scripts loaded from a src URL."`
	Inline   int `json:"inline" doc:"Scripts written in the page."`
}

// StyleCounts count the page's style sheets.
type StyleCounts struct {
	External int `json:"external" doc:"<link rel=stylesheet> elements."`
	Inline   int `json:"inline" doc:"<style> elements."`
}

// Headings count h1–h6 and keep the h1 texts.
type Headings struct {
	H1     int      `json:"h1"`
	H2     int      `json:"h2"`
	H3     int      `json:"h3"`
	H4     int      `json:"h4"`
	H5     int      `json:"h5"`
	H6     int      `json:"h6"`
	H1Text []string `json:"h1_text,omitempty" doc:"The text of the first ten h1 elements."`
}

// scan is what one walk over the document collects.
type scan struct {
	htmlLang        string
	generators      []string
	metas           map[string][]string // <meta name> (lower case) → contents
	links           linkCounter
	images          ImageCounts
	scripts         ScriptCounts
	styles          StyleCounts
	headings        Headings
	words           int
	jsonLDBlocks    int
	scriptSrcs      []string
	stylesheetHrefs []string
	iframeSrcs      []string
	inline          []string // inline script and style text, capped
	inlineBytes     int
	dom             map[ruleRef]hit // markup rules that matched
}

// walker walks the document once.
type walker struct {
	s       *scan
	base    *url.URL
	rules   []ruleRef // markup rules not yet matched
	baseSet bool      // a <base href> was applied
}

// walk reads the document: counts, meta tags, URLs and markup for the
// technology rules (rules are the markup rules to test).
func walk(doc *html.Node, base *url.URL, rules []ruleRef) *scan {
	w := &walker{
		s:     &scan{metas: map[string][]string{}, dom: map[ruleRef]hit{}, links: linkCounter{page: base, base: base, hosts: map[string]bool{}}},
		base:  base,
		rules: append([]ruleRef(nil), rules...),
	}
	w.node(doc)
	return w.s
}

func (w *walker) node(n *html.Node) {
	switch n.Type {
	case html.TextNode:
		w.s.words += words.Count(n.Data)
		return
	case html.ElementNode:
		if len(w.rules) > 0 {
			w.markup(n)
		}
		if !w.element(n) {
			return
		}
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		w.node(c)
	}
}

// element reads one element and says whether to walk into it.
func (w *walker) element(n *html.Node) bool {
	s := w.s
	switch n.DataAtom {
	case atom.Html:
		if s.htmlLang == "" {
			s.htmlLang = strings.TrimSpace(htmltag.Attr(n, "lang"))
		}
	case atom.Base:
		w.setBase(htmltag.Attr(n, "href"))
	case atom.Meta:
		w.meta(n)
	case atom.A, atom.Area:
		if href, ok := htmltag.LookupAttr(n.Attr, "href"); ok {
			s.links.add(href, htmltag.Attr(n, "rel"))
		}
	case atom.Img:
		s.images.Total++
		if !htmltag.HasAttr(n, "alt") {
			s.images.WithoutAlt++
		}
	case atom.Script:
		w.script(n)
		return false
	case atom.Style:
		s.styles.Inline++
		w.keepInline(htmltag.RawText(n))
		return false
	case atom.Link:
		if htmltag.HasToken(htmltag.Attr(n, "rel"), "stylesheet") {
			s.styles.External++
			keep(&s.stylesheetHrefs, w.abs(htmltag.Attr(n, "href")))
		}
	case atom.Iframe:
		keep(&s.iframeSrcs, w.abs(htmltag.Attr(n, "src")))
	case atom.Template, atom.Title: // not visible in the page (the title is read by package structured)
		return false
	case atom.H1:
		s.headings.H1++
		if len(s.headings.H1Text) < maxH1 {
			s.headings.H1Text = append(s.headings.H1Text, quote(strings.Join(strings.Fields(nodeText(n)), " ")))
		}
	case atom.H2:
		s.headings.H2++
	case atom.H3:
		s.headings.H3++
	case atom.H4:
		s.headings.H4++
	case atom.H5:
		s.headings.H5++
	case atom.H6:
		s.headings.H6++
	}
	return true
}

func (w *walker) meta(n *html.Node) {
	name := strings.ToLower(strings.TrimSpace(htmltag.Attr(n, "name")))
	if name == "" {
		return
	}
	content := strings.TrimSpace(htmltag.Attr(n, "content"))
	if name == "generator" && content != "" && len(w.s.generators) < maxMetaValues {
		w.s.generators = append(w.s.generators, quote(content))
	}
	values, seen := w.s.metas[name]
	if (seen || len(w.s.metas) < maxMetaNames) && len(values) < maxMetaValues {
		w.s.metas[name] = append(values, content)
	}
}

func (w *walker) script(n *html.Node) {
	typ := strings.ToLower(strings.TrimSpace(htmltag.Attr(n, "type")))
	if mediaType, _, _ := strings.Cut(typ, ";"); strings.TrimSpace(mediaType) == "application/ld+json" {
		w.s.jsonLDBlocks++
		return
	}
	if !runsCode(typ) {
		return
	}
	if src, ok := htmltag.LookupAttr(n.Attr, "src"); ok {
		w.s.scripts.External++
		keep(&w.s.scriptSrcs, w.abs(src))
		return
	}
	w.s.scripts.Inline++
	w.keepInline(htmltag.RawText(n))
}

// runsCode is true for a <script> type browsers run: none, a JavaScript
// MIME type, or module.
func runsCode(typ string) bool {
	switch typ {
	case "", "module", "text/javascript", "application/javascript", "text/ecmascript", "application/ecmascript", "text/babel", "text/jsx":
		return true
	}
	return false
}

// keepInline keeps the start of one inline block while the total allows.
func (w *walker) keepInline(text string) {
	room := min(maxInlineBytes-w.s.inlineBytes, maxInlineBlock)
	if room <= 0 || strings.TrimSpace(text) == "" {
		return
	}
	if len(text) > room {
		text = string(cutUTF8([]byte(text), room))
	}
	w.s.inline = append(w.s.inline, text)
	w.s.inlineBytes += len(text)
}

// markup tests the markup rules not yet matched against one element.
func (w *walker) markup(n *html.Node) {
	kept := w.rules[:0]
	for _, ref := range w.rules {
		if h, ok := markupHit(technologies[ref.tech].rules[ref.rule], n); ok {
			w.s.dom[ref] = h
		} else {
			kept = append(kept, ref)
		}
	}
	w.rules = kept
}

// markupHit tests one markup rule against one element.
func markupHit(ru rule, n *html.Node) (hit, bool) {
	switch ru.where {
	case inTag:
		if n.Data == ru.key {
			return hit{evidence: "element <" + ru.key + ">"}, true
		}
	case inID:
		if htmltag.Attr(n, "id") == ru.key {
			return hit{evidence: `element id="` + ru.key + `"`}, true
		}
	case inAttr:
		if v, ok := htmltag.LookupAttr(n.Attr, ru.key); ok && matches(ru, v) {
			return hit{`attribute ` + ru.key + `="` + quote(v) + `"`, version(ru, v)}, true
		}
	case inAttrName:
		for _, a := range n.Attr {
			if a.Namespace == "" && ru.pattern.MatchString(a.Key) {
				return hit{evidence: "attribute " + quote(a.Key)}, true
			}
		}
	case inClass:
		class := htmltag.Attr(n, "class")
		if !strings.Contains(class, ru.key) {
			return hit{}, false
		}
		for name := range strings.FieldsSeq(class) {
			if strings.HasPrefix(name, ru.key) && matches(ru, name) {
				return hit{evidence: "class " + quote(name)}, true
			}
		}
	}
	return hit{}, false
}

// setBase applies the first <base href>.
func (w *walker) setBase(href string) {
	if w.baseSet || strings.TrimSpace(href) == "" {
		return
	}
	w.baseSet = true
	ref, err := url.Parse(strings.TrimSpace(href))
	switch {
	case err != nil:
	case w.base != nil:
		w.base = w.base.ResolveReference(ref)
	case ref.IsAbs():
		w.base = ref
	}
	w.s.links.base = w.base
}

// abs makes a URL absolute against the page (as written when it cannot).
func (w *walker) abs(ref string) string { return htmltag.ResolveURL(w.base, ref) }

// keep appends a non-empty value to a capped list.
func keep(list *[]string, v string) {
	if v != "" && len(*list) < maxKeptURLs {
		*list = append(*list, v)
	}
}

// nodeText is the text under n, scripts and styles left out.
func nodeText(n *html.Node) string {
	var b strings.Builder
	var rec func(*html.Node)
	rec = func(n *html.Node) {
		switch {
		case n.Type == html.TextNode:
			b.WriteString(n.Data)
			b.WriteByte(' ')
		case n.Type == html.ElementNode && (n.DataAtom == atom.Script || n.DataAtom == atom.Style):
			return
		}
		for c := n.FirstChild; c != nil && b.Len() < maxQuote*4; c = c.NextSibling {
			rec(c)
		}
	}
	rec(n)
	return b.String()
}
