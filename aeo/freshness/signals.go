package freshness

import (
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/webinfra/webinfra/extract/structured"
	"github.com/webinfra/webinfra/internal/htmltag"
	"github.com/webinfra/webinfra/seo/htmlaudit/auditkit"
)

// Limits of the signal search.
const (
	maxSignalsPerSource = 20        // signals kept per source
	maxTextBytes        = 512 << 10 // visible text read for update labels
	maxElements         = 200_000   // elements walked
	maxFooters          = 20        // footer elements read for a copyright
	footerTailBytes     = 3000      // without a footer: the end of the text read for it
	rawRunes            = 160       // raw text kept per signal
	lookAheadBytes      = 48        // how far after a label a date may start
)

// collector gathers the signals of one page.
type collector struct {
	now       time.Time
	signals   []Signal
	perSource map[string]int
	truncated bool
	// timeTexts are the visible texts of the <time> elements read as
	// signals: the text scan leaves them to their datetime.
	timeTexts map[string]bool
}

func (c *collector) add(s Signal) {
	if c.perSource[s.Source] >= maxSignalsPerSource {
		c.truncated = true
		return
	}
	for _, o := range c.signals { // the same date stated twice by one source counts once
		if o.Source == s.Source && o.Kind == s.Kind && o.t.Equal(s.t) && o.Property == s.Property && o.dated == s.dated {
			return
		}
	}
	c.perSource[s.Source]++
	s.Raw = auditkit.Clip(auditkit.CollapseSpace(s.Raw), rawRunes)
	c.signals = append(c.signals, s)
}

// stated adds a signal for a date stated in metadata; an unreadable value
// is kept, undated, so the report shows it.
func (c *collector) stated(source, kind, property, path, raw string) {
	s := Signal{Source: source, Kind: kind, Property: property, Path: path, Raw: raw}
	if t, ok := statedDate(raw); ok {
		s.t, s.dated, s.dayOnly = t, true, len(strings.TrimSpace(raw)) <= 10
	}
	c.add(s)
}

// jsonLD reads dateModified and datePublished from the JSON-LD items and
// the objects nested in them (two levels: WebPage.mainEntity.dateModified),
// leaving out reviews, comments and citations, whose dates are theirs.
func (c *collector) jsonLD(j *structured.JSONLD) {
	if j == nil {
		return
	}
	var walk func(v any, path string, depth int)
	walk = func(v any, path string, depth int) {
		switch v := v.(type) {
		case []any:
			for i, e := range v {
				walk(e, path+"["+strconv.Itoa(i)+"]", depth)
			}
		case map[string]any:
			for _, p := range []struct{ key, kind string }{{"dateModified", KindModified}, {"datePublished", KindPublished}} {
				if s, ok := v[p.key].(string); ok && strings.TrimSpace(s) != "" {
					c.stated(SourceJSONLD, p.kind, p.key, path+"."+p.key, s)
				}
			}
			if depth >= 2 {
				return
			}
			for k, e := range v {
				switch k {
				case "review", "comment", "citation", "@context", "isBasedOn", "subjectOf", "hasPart":
					continue
				}
				walk(e, path+"."+k, depth+1)
			}
		}
	}
	for i, it := range j.Items {
		walk(it, "$["+strconv.Itoa(i)+"]", 0)
	}
}

// microdata reads dateModified and datePublished of top-level microdata
// items (itemprop on <meta>, <time> and the like).
func (c *collector) microdata(items []*structured.Item) {
	for _, it := range items {
		for _, p := range []struct{ key, kind string }{{"dateModified", KindModified}, {"datePublished", KindPublished}} {
			for _, v := range it.Properties[p.key] {
				if s, ok := v.(string); ok && strings.TrimSpace(s) != "" {
					c.stated(SourceMicrodata, p.kind, p.key, "", s)
				}
			}
		}
	}
}

// meta reads the page's modified and published <meta> dates as
// extract/structured picked them (article:modified_time, og:updated_time,
// dcterms.modified and the like).
func (c *collector) meta(st *structured.Result) {
	if st.Meta == nil {
		return
	}
	name := func(raw string, names ...string) string {
		for _, n := range names {
			if s, ok := st.OpenGraph[n].(string); ok && s == raw {
				return n
			}
			if st.Meta.Other[n] == raw {
				return n
			}
		}
		return "meta"
	}
	if raw := st.Meta.Modified; raw != "" {
		c.stated(SourceMeta, KindModified, name(raw, "article:modified_time", "og:updated_time", "datemodified", "last-modified"), "", raw)
	}
	if raw := st.Meta.Published; raw != "" {
		c.stated(SourceMeta, KindPublished, name(raw, "article:published_time", "datepublished", "date", "pubdate"), "", raw)
	}
}

// header reads the Last-Modified response header.
func (c *collector) header(h http.Header, lastModified string) {
	raw := strings.TrimSpace(lastModified)
	if raw == "" && h != nil {
		raw = strings.TrimSpace(h.Get("Last-Modified"))
	}
	if raw == "" {
		return
	}
	s := Signal{Source: SourceHeader, Kind: KindModified, Property: "Last-Modified", Raw: raw}
	if t, err := http.ParseTime(raw); err == nil {
		s.t, s.dated = t, true
	} else if t, ok := statedDate(raw); ok {
		s.t, s.dated = t, true
	}
	c.add(s)
}

// labelRx finds the words that introduce a date in visible text.
var labelRx = regexp.MustCompile(`(?i)\b(last[\s-]+(?:updated|modified|reviewed|revised)|first\s+published|updated|modified|revised|reviewed|published|posted)\b(?:\s+(?:on|at|in))?\s*[:\-–—]?`)

// labelKind is the kind of date a label introduces.
func labelKind(label string) string {
	l := strings.ToLower(label)
	if strings.Contains(l, "published") || strings.Contains(l, "posted") {
		return KindPublished
	}
	return KindModified
}

// visibleText finds dates after update and publication labels in the
// page's visible text ("Last updated: March 3, 2024", "Updated 2 days
// ago", "Published 2024-03-01").
func (c *collector) visibleText(text string) {
	for _, loc := range labelRx.FindAllStringSubmatchIndex(text, -1) {
		if c.perSource[SourceText] >= maxSignalsPerSource {
			c.truncated = true
			return
		}
		label := text[loc[2]:loc[3]]
		after := text[loc[1]:min(len(text), loc[1]+lookAheadBytes+40)]
		if i := strings.Index(after, ". "); i >= 0 {
			after = after[:i] // the date is in the label's sentence
		}
		if next := labelRx.FindStringIndex(after); next != nil && next[0] > 0 {
			after = after[:next[0]] // or before the next label
		}
		// the date may follow a few words ("Published by Ann on May 3, 2024")
		for off := 0; off < len(after) && off <= lookAheadBytes; {
			if t, raw, ok := textDate(after[off:], c.now); ok {
				if c.timeTexts[strings.ToLower(raw)] {
					break // a <time datetime> says it better
				}
				c.add(Signal{Source: SourceText, Kind: labelKind(label), Property: strings.Join(strings.Fields(label), " "),
					Raw: text[loc[0]:loc[1]] + " " + after[:off] + raw, t: t, dated: true, dayOnly: t.Equal(midnight(t))})
				break
			}
			next := strings.IndexByte(after[off:], ' ')
			if next < 0 {
				break
			}
			off += next + 1
		}
	}
}

// timeElements reads <time datetime> elements the page marks as an update
// or publication: a label just before them, or itemprop or class saying
// so (<time class="updated" datetime="...">).
func (c *collector) timeElements(times []*html.Node) {
	for _, n := range times {
		dt := strings.TrimSpace(htmltag.Attr(n, "datetime"))
		t, ok := statedDate(dt)
		if !ok {
			continue
		}
		hint := strings.ToLower(htmltag.Attr(n, "itemprop") + " " + htmltag.Attr(n, "class"))
		label := ""
		switch {
		case strings.Contains(hint, "modified") || strings.Contains(hint, "updated"):
			label = "updated"
		case strings.Contains(hint, "published"):
			label = "published"
		case n.Parent != nil:
			before := auditkit.Text(n.Parent, 400)
			if own := auditkit.Text(n, 200); own != "" {
				if i := strings.Index(before, own); i >= 0 {
					before = before[:i]
				}
			}
			before = before[max(0, len(before)-40):]
			if m := labelRx.FindAllStringSubmatch(before, -1); m != nil {
				label = m[len(m)-1][1]
			}
		}
		if label == "" {
			continue
		}
		own := auditkit.Text(n, 200)
		if c.timeTexts == nil {
			c.timeTexts = map[string]bool{}
		}
		c.timeTexts[strings.ToLower(own)] = true
		c.add(Signal{Source: SourceText, Kind: labelKind(label), Property: strings.Join(strings.Fields(label), " "),
			Raw: label + " " + own + " (datetime=" + dt + ")", t: t, dated: true, dayOnly: len(dt) <= 10})
	}
}

// The copyright notices: "© 2019-2024", "Copyright (c) 2024", "2010–2024 ©".
var (
	copyrightRx     = regexp.MustCompile(`(?i)(?:©|\(c\)|copyright)\s*(?:(?:19|20)\d{2}\s*(?:[-–—/]|to)\s*)?((?:19|20)\d{2})\b`)
	copyrightPostRx = regexp.MustCompile(`(?i)\b((?:19|20)\d{2})\s*(?:©|\(c\))`)
)

// copyright reads the newest copyright year in the page's footers (or, with
// none, the end of its text).
func (c *collector) copyright(footers []string, text string) {
	if len(footers) == 0 {
		footers = []string{text[max(0, len(text)-footerTailBytes):]}
	}
	best, raw := 0, ""
	for _, f := range footers {
		for _, rx := range []*regexp.Regexp{copyrightRx, copyrightPostRx} {
			for _, m := range rx.FindAllStringSubmatch(f, 10) {
				y, _ := strconv.Atoi(m[1])
				if y > best && y <= c.now.Year()+1 {
					best, raw = y, m[0]
				}
			}
		}
	}
	if best == 0 {
		return
	}
	c.add(Signal{Source: SourceCopyright, Kind: KindCopyright, Property: "©", Raw: raw,
		t: time.Date(best, 12, 31, 0, 0, 0, 0, time.UTC), dated: true, year: true})
}

// pageParts walks the page once for what the text signals need: the body,
// the <time datetime> elements and the footers' text.
func pageParts(doc *html.Node) (body *html.Node, times []*html.Node, footers []string, cut bool) {
	cut = auditkit.Walk(doc, maxElements, func(n *html.Node) bool {
		if n.Namespace != "" {
			return false
		}
		switch n.DataAtom {
		case atom.Body:
			if body == nil {
				body = n
			}
		case atom.Time:
			if htmltag.HasAttr(n, "datetime") && len(times) < 200 {
				times = append(times, n)
			}
		case atom.Script, atom.Style, atom.Template, atom.Head:
			return n.DataAtom == atom.Head
		}
		if isFooter(n) && len(footers) < maxFooters {
			footers = append(footers, auditkit.Text(n, 8<<10))
			return false
		}
		return true
	})
	if body == nil {
		body = doc
	}
	return body, times, footers, cut
}

// isFooter reports whether an element is a page footer: <footer>,
// role=contentinfo, or an id or class naming a footer.
func isFooter(n *html.Node) bool {
	if n.DataAtom == atom.Footer || strings.EqualFold(htmltag.Attr(n, "role"), "contentinfo") {
		return true
	}
	for _, a := range []string{"id", "class"} {
		if v := strings.ToLower(htmltag.Attr(n, a)); strings.Contains(v, "footer") && !strings.Contains(v, "article-footer") {
			return true
		}
	}
	return false
}
