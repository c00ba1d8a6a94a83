package citation

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"golang.org/x/net/html"

	"github.com/webinfra/webinfra/aeo/freshness"
	"github.com/webinfra/webinfra/aeo/internal/pagedata"
	"github.com/webinfra/webinfra/extract/content"
	"github.com/webinfra/webinfra/extract/structured"
	"github.com/webinfra/webinfra/seo/htmlaudit/auditkit"
)

// Limits of the report.
const (
	maxExamples         = 10   // statistics quoted
	maxEntities         = 20   // entity candidates listed
	maxEntityCandidates = 5000 // distinct candidates tracked
	maxLinks            = 50   // authoritative links listed
	maxTextBytes        = 1 << 20
	maxRecommendations  = 4
)

// Page carries extractions of the page the caller already made (see
// Options.Page); it is the same type in aeo/freshness and aeo/schemacov.
type Page = pagedata.Page

// Input is the page to score; it is the body of
// POST /v1/aeo/citation-readiness.
type Input struct {
	HTML string `json:"html" minLength:"1" maxLength:"10485760" example:"<html><body><article><h1>Herons</h1><p class=\"byline\">By Ann Lee</p><p>Grey herons hunt in 73% of UK wetlands, the British Trust for Ornithology reports.</p></article></body></html>" doc:"The page's HTML, UTF-8."`
	URL  string `json:"url,omitempty" maxLength:"8192" example:"https://example.com/birds/herons" doc:"The page's URL, optional: an absolute http(s) URL; it resolves relative links and tells outbound links from the site's own (without it the canonical URL is used)."`
}

// Options tune Check. Nil means defaults.
type Options struct {
	// Page, when set, holds the page already parsed and extracted (from
	// the same HTML); Check reads Doc, Structured and Content from it
	// instead of redoing them. Content extraction is most of the cost.
	Page *Page
	// ContentMode is the article extraction's mode when Page holds no
	// Content: content.ModeFast by default (readability alone, about
	// twice as fast as accurate mode for 0.2 points of F1), or
	// content.ModeAccurate.
	ContentMode content.Mode
}

// Component names, in report order, with their weights (they sum to 100).
var components = []struct {
	name   string
	weight int
	advice string
}{
	{"statistics", 20, "Add specific numbers with their units and sources: percentages, amounts, counts, dates of measurement. Answer engines quote figures."},
	{"entities", 15, "Name the people, organisations, places, products and standards involved instead of describing them generically."},
	{"authoritative_links", 20, "Link the claims to primary sources: studies (doi.org, journals), government and university pages, standards, reference works."},
	{"author", 15, "Show a byline with the author's name and mark it up (Article.author as a Person with name and url)."},
	{"last_updated", 10, "State when the page was last updated, visibly (\"Updated May 3, 2025\") and in dateModified / article:modified_time."},
	{"content_length", 10, "Give the topic a full treatment: pages under a few hundred words rarely hold a passage worth citing."},
	{"quotes", 10, "Quote experts and sources (blockquote or q with cite), and add references or footnotes."},
}

// Report is the answer of citation-readiness.
type Report struct {
	Score           int              `json:"score" minimum:"0" maximum:"100" doc:"The weighted sum of the components' scores."`
	Grade           string           `json:"grade" enum:"A,B,C,D,F"`
	Components      []Component      `json:"components" doc:"The seven components, each 0-100 with its weight."`
	Recommendations []Recommendation `json:"recommendations" doc:"What would raise the score most: the weakest components by points lost, at most 4."`
	Words           int              `json:"words" doc:"Words of the text scored."`
	TextSource      string           `json:"text_source" enum:"article,page" doc:"article: the main content as extract/content found it; page: the page's visible text, when no article was found."`
	Numbers         NumberStats      `json:"numbers"`
	Entities        EntityStats      `json:"entities"`
	Links           LinkStats        `json:"links"`
	Author          AuthorStats      `json:"author"`
	LastUpdated     DateStats        `json:"last_updated"`
	Quotes          QuoteStats       `json:"quotes"`
	Truncated       bool             `json:"truncated" doc:"The text or a list was cut at its cap."`
}

// Component is one part of the score.
type Component struct {
	Name   string  `json:"name" enum:"statistics,entities,authoritative_links,author,last_updated,content_length,quotes"`
	Score  int     `json:"score" minimum:"0" maximum:"100"`
	Weight int     `json:"weight" doc:"Its share of the total, in points."`
	Points float64 `json:"points" doc:"score × weight / 100: what it adds to the total."`
	Detail string  `json:"detail" doc:"What the score rests on."`
}

// Recommendation is what to do about one weak component.
type Recommendation struct {
	Component  string  `json:"component"`
	PointsLost float64 `json:"points_lost"`
	Message    string  `json:"message"`
}

// NumberStats counts numbers in the text.
type NumberStats struct {
	Numbers     int      `json:"numbers" doc:"Numbers, years and digits inside words left out."`
	Statistics  int      `json:"statistics" doc:"Numbers with a currency, percent or magnitude, a decimal or a thousands separator."`
	Per100Words float64  `json:"per_100_words" doc:"Numbers per 100 words."`
	Examples    []string `json:"examples" doc:"Up to 10 statistics as written."`
}

// EntityStats counts named-entity candidates (a mechanical proxy; see the
// package doc).
type EntityStats struct {
	Mentions    int           `json:"mentions"`
	Distinct    int           `json:"distinct"`
	Per100Words float64       `json:"per_100_words" doc:"Mentions per 100 words."`
	Top         []EntityCount `json:"top" doc:"The most mentioned, at most 20."`
}

// EntityCount is one entity candidate.
type EntityCount struct {
	Text  string `json:"text"`
	Kind  string `json:"kind" enum:"name,acronym"`
	Count int    `json:"count"`
}

// LinkStats counts the article's outbound links.
type LinkStats struct {
	Outbound      int         `json:"outbound" doc:"Distinct links to other sites."`
	Authoritative int         `json:"authoritative" doc:"Outbound links to authoritative domains or marked as citations."`
	Citations     int         `json:"citations" doc:"Outbound links marked as citations: rel=cite, inside <cite>, or a blockquote or q cite attribute."`
	Cited         []CitedLink `json:"cited" doc:"The authoritative links, at most 50."`
}

// CitedLink is one authoritative link.
type CitedLink struct {
	URL    string `json:"url"`
	Host   string `json:"host"`
	Reason string `json:"reason" doc:"The domain or suffix that makes it authoritative, or \"marked as a citation\"."`
}

// AuthorStats is who the page says wrote it.
type AuthorStats struct {
	Byline       string `json:"byline,omitempty" doc:"The byline extract/content found: on the page, or in its metadata when the page shows none."`
	SchemaAuthor string `json:"schema_author,omitempty" doc:"The author named in JSON-LD (author.name) or microdata."`
	MetaAuthor   string `json:"meta_author,omitempty" doc:"<meta name=author>."`
}

// DateStats is the newest date the page states (from aeo/freshness).
type DateStats struct {
	Kind   string `json:"kind" enum:"modified,published,weak,none" doc:"modified: an update date in the page; published: only a publication date; weak: only a Last-Modified header or copyright year; none."`
	Date   string `json:"date,omitempty"`
	Source string `json:"source,omitempty" doc:"The freshness signal's source."`
}

// QuoteStats counts quotations and references.
type QuoteStats struct {
	Blockquotes    int `json:"blockquotes"`
	InlineQuotes   int `json:"inline_quotes" doc:"<q> elements."`
	Cites          int `json:"cites" doc:"<cite> elements."`
	Footnotes      int `json:"footnotes" doc:"Links to in-page notes or references (#fn1, #cite_note-3...)."`
	QuotedPassages int `json:"quoted_passages" doc:"Passages of 4 words or more in quotation marks."`
	Total          int `json:"total"`
}

// Check scores how ready a page is to be cited by an answer engine (see
// the package doc). It extracts the article unless opts.Page carries it.
// Errors: blank html (without opts.Page holding the page) or a url that
// is not an absolute http(s) URL is errs.KindInvalid; html over 10 MiB
// errs.KindTooLarge.
func Check(ctx context.Context, in Input, opts *Options) (*Report, error) {
	var given *Page
	mode := content.ModeFast
	if opts != nil {
		given = opts.Page
		if opts.ContentMode != "" {
			mode = opts.ContentMode
		}
	}
	p, err := pagedata.Load(ctx, in.HTML, in.URL, given, pagedata.Need{Content: true, Mode: mode})
	if err != nil {
		return nil, err
	}
	fresh, err := freshness.Check(ctx, freshness.Input{HTML: in.HTML, URL: in.URL}, &freshness.Options{Page: &p.Page})
	if err != nil {
		return nil, err
	}
	r := &Report{}
	root, text, source := articleText(p)
	r.TextSource = source
	if len(text) > maxTextBytes {
		text, r.Truncated = strings.ToValidUTF8(text[:maxTextBytes], ""), true
	}
	r.Words = auditkit.Words(text)
	base := p.URL
	if base == nil && p.Structured.Links != nil {
		base, _ = pagedata.ParseURL(p.Structured.Links.Canonical)
	}
	self := ""
	if base != nil {
		self = domainOf(strings.TrimPrefix(strings.ToLower(base.Hostname()), "www."))
	}
	links := scanLinks(root, base, self)
	r.Truncated = r.Truncated || links.truncated
	r.fillText(text)
	r.fillLinks(links, text)
	r.fillAuthor(p.Content.Byline, p.Structured)
	r.fillDate(fresh)
	r.score()
	return r, ctx.Err()
}

// articleText is the element and text scored: the article, or the page's
// body when extract/content found none, rendered alike (the article's
// Text marks list items "- " and "1. ", which are no statistics).
func articleText(p *pagedata.Loaded) (root *html.Node, text, source string) {
	if c := p.Content; c != nil && !c.NoContent && c.Node != nil && strings.TrimSpace(c.Text) != "" {
		return c.Node, auditkit.Text(c.Node, maxTextBytes), "article"
	}
	body := pagedata.Body(p.Doc)
	return body, auditkit.Text(body, maxTextBytes), "page"
}

func per100(n, words int) float64 {
	if words == 0 {
		return 0
	}
	return math.Round(float64(n)*10000/float64(words)) / 100
}

func (r *Report) fillText(text string) {
	n := &r.Numbers
	n.Numbers, n.Statistics, n.Examples = countNumbers(text)
	if n.Examples == nil {
		n.Examples = []string{}
	}
	n.Per100Words = per100(n.Numbers, r.Words)
	e := &r.Entities
	var found []entityCount
	e.Mentions, found = namedEntities(text)
	e.Distinct, e.Per100Words, e.Top = len(found), per100(e.Mentions, r.Words), []EntityCount{}
	for _, f := range found[:min(len(found), maxEntities)] {
		kind := "name"
		if f.acronym {
			kind = "acronym"
		}
		e.Top = append(e.Top, EntityCount{Text: f.text, Kind: kind, Count: f.count})
	}
}

func (r *Report) fillLinks(l *linkScan, text string) {
	r.Links = LinkStats{Outbound: l.outbound, Authoritative: l.authoritative, Citations: l.citations, Cited: l.cited}
	if r.Links.Cited == nil {
		r.Links.Cited = []CitedLink{}
	}
	q := &r.Quotes
	q.Blockquotes, q.InlineQuotes, q.Cites, q.Footnotes = l.blockquotes, l.inlineQuotes, l.cites, l.footnotes
	q.QuotedPassages = quotedPassages(text)
	q.Total = q.Blockquotes + q.InlineQuotes + q.Cites + q.Footnotes + q.QuotedPassages
}

// fillAuthor reads the byline, the schema author and the meta author.
func (r *Report) fillAuthor(byline string, st *structured.Result) {
	r.Author.Byline = auditkit.Clip(strings.TrimSpace(byline), 200)
	if st.Meta != nil {
		r.Author.MetaAuthor = auditkit.Clip(st.Meta.Author, 200)
	}
	r.Author.SchemaAuthor = auditkit.Clip(schemaAuthor(st), 200)
}

// schemaAuthor is the first author name in the JSON-LD items (a Person
// or Organization object, or a plain string), else in microdata.
func schemaAuthor(st *structured.Result) string {
	name := func(v any) string {
		switch v := v.(type) {
		case string:
			return strings.TrimSpace(v)
		case map[string]any:
			s, _ := v["name"].(string)
			return strings.TrimSpace(s)
		case []any:
			for _, e := range v {
				if m, ok := e.(map[string]any); ok {
					if s, _ := m["name"].(string); strings.TrimSpace(s) != "" {
						return strings.TrimSpace(s)
					}
				} else if s, ok := e.(string); ok && strings.TrimSpace(s) != "" {
					return strings.TrimSpace(s)
				}
			}
		}
		return ""
	}
	if st.JSONLD != nil {
		ids := map[string]map[string]any{}
		for _, it := range st.JSONLD.Items {
			if id, ok := it["@id"].(string); ok {
				ids[id] = it
			}
		}
		for _, it := range st.JSONLD.Items {
			a := it["author"]
			if m, ok := a.(map[string]any); ok && m["name"] == nil {
				if id, _ := m["@id"].(string); ids[id] != nil {
					a = ids[id] // a @graph reference
				}
			}
			if s := name(a); s != "" {
				return s
			}
		}
	}
	for _, it := range st.Microdata {
		for _, v := range it.Properties["author"] {
			switch v := v.(type) {
			case string:
				return strings.TrimSpace(v)
			case *structured.Item:
				for _, n := range v.Properties["name"] {
					if s, ok := n.(string); ok && strings.TrimSpace(s) != "" {
						return strings.TrimSpace(s)
					}
				}
			}
		}
	}
	return ""
}

func (r *Report) fillDate(f *freshness.Report) {
	r.LastUpdated.Kind = "none"
	var best *freshness.Signal
	for i := range f.Signals {
		s := &f.Signals[i]
		if s.Date == "" || s.Future {
			continue
		}
		rank := dateRank(s)
		if best == nil || rank > dateRank(best) {
			best = s
		}
	}
	if best != nil {
		r.LastUpdated = DateStats{Kind: dateKind(best), Date: best.Date, Source: best.Source}
	}
}

// dateRank orders signals: an in-page update, an in-page publication, a
// header or copyright.
func dateRank(s *freshness.Signal) int {
	switch dateKind(s) {
	case "modified":
		return 3
	case "published":
		return 2
	}
	return 1
}

func dateKind(s *freshness.Signal) string {
	if s.Source == freshness.SourceHeader || s.Source == freshness.SourceCopyright {
		return "weak"
	}
	return s.Kind
}

// score computes the components, the total and the recommendations.
func (r *Report) score() {
	scores := map[string]int{
		"statistics":          numbersScore(r.Numbers),
		"entities":            entitiesScore(r.Entities),
		"authoritative_links": linksScore(r.Links),
		"author":              authorScore(r.Author),
		"last_updated":        map[string]int{"modified": 100, "published": 70, "weak": 30, "none": 0}[r.LastUpdated.Kind],
		"content_length":      lengthScore(r.Words),
		"quotes":              stepScore(r.Quotes.Total),
	}
	total := 0.0
	r.Components, r.Recommendations = []Component{}, []Recommendation{}
	for _, c := range components {
		s := scores[c.name]
		pts := float64(s*c.weight) / 100
		total += pts
		r.Components = append(r.Components, Component{Name: c.name, Score: s, Weight: c.weight, Points: pts, Detail: r.detail(c.name)})
		if s < 70 {
			r.Recommendations = append(r.Recommendations, Recommendation{Component: c.name, PointsLost: float64(c.weight) - pts, Message: c.advice})
		}
	}
	slices.SortStableFunc(r.Recommendations, func(a, b Recommendation) int {
		return int(math.Round((b.PointsLost - a.PointsLost) * 100))
	})
	r.Recommendations = r.Recommendations[:min(len(r.Recommendations), maxRecommendations)]
	r.Score = auditkit.Clamp(int(math.Round(total)))
	r.Grade = auditkit.Grade(r.Score)
}

// detail says what a component's score rests on.
func (r *Report) detail(name string) string {
	switch name {
	case "statistics":
		return fmt.Sprintf("%d numbers (%.2f per 100 words), %d statistics", r.Numbers.Numbers, r.Numbers.Per100Words, r.Numbers.Statistics)
	case "entities":
		return fmt.Sprintf("%d distinct named-entity candidates, %.2f mentions per 100 words", r.Entities.Distinct, r.Entities.Per100Words)
	case "authoritative_links":
		return fmt.Sprintf("%d authoritative of %d outbound links", r.Links.Authoritative, r.Links.Outbound)
	case "author":
		return fmt.Sprintf("byline %q, schema author %q", r.Author.Byline, r.Author.SchemaAuthor)
	case "last_updated":
		return fmt.Sprintf("%s %s", r.LastUpdated.Kind, r.LastUpdated.Date)
	case "content_length":
		return fmt.Sprintf("%d words (%s)", r.Words, r.TextSource)
	}
	return fmt.Sprintf("%d quotations, cites and references", r.Quotes.Total)
}
