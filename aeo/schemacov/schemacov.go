package schemacov

import (
	"context"
	"math"
	"slices"

	"github.com/webinfra/webinfra/aeo/internal/pagedata"
	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/extract/pagetype"
	"github.com/webinfra/webinfra/extract/structured"
	"github.com/webinfra/webinfra/seo/htmlaudit/auditkit"
	"github.com/webinfra/webinfra/seo/schema"
)

// Sources of a type.
const (
	SourceJSONLD    = "json_ld"
	SourceMicrodata = "microdata"
	SourceRDFa      = "rdfa"
)

// Limits.
const (
	maxObjects    = 20_000 // objects visited in the structured data
	maxDepth      = 16
	maxMatched    = 10 // matched type names listed per AEO type
	maxOtherTypes = 50
)

// Score weights: the types' share and OpenGraph's.
const (
	typesPoints     = 90.0
	openGraphPoints = 10.0
)

// Page carries extractions of the page the caller already made (see
// Options.Page); it is the same type in aeo/freshness and aeo/citation.
type Page = pagedata.Page

// Input is the page to audit; it is the body of
// POST /v1/aeo/schema-coverage.
type Input struct {
	HTML     string `json:"html" minLength:"1" maxLength:"10485760" example:"<html><head><script type=\"application/ld+json\">{\"@context\":\"https://schema.org\",\"@type\":\"Article\",\"headline\":\"Herons\",\"author\":{\"@type\":\"Person\",\"name\":\"Ann\"}}</script></head><body><article><p>Herons...</p></article></body></html>" doc:"The page's HTML, UTF-8."`
	URL      string `json:"url,omitempty" maxLength:"8192" example:"https://example.com/birds/herons" doc:"The page's URL, optional: an absolute http(s) URL; it helps detect the page type."`
	PageType string `json:"page_type,omitempty" enum:"article,forum,product,collection,listing,documentation,service" doc:"The kind of page, when the caller knows it; omitted: detected from the page (extract/pagetype)."`
}

// Options tune Check. Nil means defaults.
type Options struct {
	// Page, when set, holds the page already parsed and extracted (from
	// the same HTML); Check reads Doc and Structured from it, and the page
	// type from Content when that is set.
	Page *Page
}

// Report is the answer of schema-coverage.
type Report struct {
	Score               int               `json:"score" minimum:"0" maximum:"100" doc:"90 points shared by the 12 types in proportion to their relevance to the page type (found ones earn theirs), plus 2 points per OpenGraph essential."`
	Grade               string            `json:"grade" enum:"A,B,C,D,F"`
	PageType            string            `json:"page_type" enum:"article,forum,product,collection,listing,documentation,service" doc:"The page type that weighs the types."`
	PageTypeSource      string            `json:"page_type_source" enum:"given,content,detected" doc:"given in the request, from the caller's content extraction, or detected here."`
	PageTypeConfidence  float64           `json:"page_type_confidence,omitempty" doc:"The detector's probability, when detected."`
	Types               []TypeCoverage    `json:"types" doc:"The 12 AEO-critical types, in a fixed order."`
	Found               int               `json:"found" doc:"How many of the 12 are present."`
	Expected            int               `json:"expected" doc:"How many are expected for this page type (relevance 2 or 3)."`
	ExpectedFound       int               `json:"expected_found"`
	Missing             []Recommendation  `json:"missing" doc:"The expected types the page lacks, most relevant first, each with what to add."`
	OpenGraph           OpenGraphCoverage `json:"open_graph"`
	Items               SourceCounts      `json:"items" doc:"Top-level items per source."`
	OtherTypes          []string          `json:"other_types" doc:"Types found that are none of the 12, at most 50."`
	InvalidJSONLDBlocks int               `json:"invalid_json_ld_blocks" doc:"JSON-LD blocks that could not be read (their items are not counted)."`
	Truncated           bool              `json:"truncated" doc:"The structured data was too large to read whole."`
}

// TypeCoverage is one AEO-critical type on the page.
type TypeCoverage struct {
	Type      string   `json:"type" example:"Article"`
	Found     bool     `json:"found"`
	Sources   []string `json:"sources" doc:"Where it was found: json_ld, microdata, rdfa."`
	Matched   []string `json:"matched" example:"[\"NewsArticle\"]" doc:"The schema.org types that counted as it (subtypes included), at most 10."`
	Count     int      `json:"count" doc:"Objects of the type, nested ones included."`
	Relevance int      `json:"relevance" minimum:"0" maximum:"3" doc:"To this page type: 0 not relevant, 1 useful, 2 expected site-wide, 3 expected for this kind of page."`
	Expected  bool     `json:"expected" doc:"Relevance 2 or 3."`
	Points    float64  `json:"points" doc:"Points it earns (0 when missing) of the 90 the types share."`
	MaxPoints float64  `json:"max_points"`
}

// Recommendation is what to add for one missing type.
type Recommendation struct {
	Type      string  `json:"type"`
	Relevance int     `json:"relevance"`
	Points    float64 `json:"points" doc:"What adding it would earn."`
	Message   string  `json:"message"`
}

// OpenGraphCoverage is the page's OpenGraph.
type OpenGraphCoverage struct {
	Present    bool     `json:"present" doc:"The page has OpenGraph properties."`
	Properties int      `json:"properties" doc:"How many OpenGraph properties it has."`
	Essentials []string `json:"essentials" doc:"The essentials present, of og:title, og:type, og:image, og:url, og:description."`
	Missing    []string `json:"missing" doc:"The essentials missing."`
	Points     float64  `json:"points" doc:"2 per essential present."`
}

// SourceCounts counts top-level items per source.
type SourceCounts struct {
	JSONLD    int `json:"json_ld"`
	Microdata int `json:"microdata"`
	RDFa      int `json:"rdfa"`
}

// Check scores how well a page's structured data covers the 12 AEO-critical
// types for its page type (see the package doc). Errors: blank html
// (without opts.Page holding the page), a url that is not an absolute
// http(s) URL or an unknown page_type is errs.KindInvalid; html over 10 MiB
// errs.KindTooLarge.
func Check(ctx context.Context, in Input, opts *Options) (*Report, error) {
	if in.PageType != "" && !slices.Contains(pagetype.Types, pagetype.Type(in.PageType)) {
		return nil, errs.Invalid("page_type", "must be one of article, forum, product, collection, listing, documentation, service; got %q", in.PageType)
	}
	var given *Page
	if opts != nil {
		given = opts.Page
	}
	p, err := pagedata.Load(ctx, in.HTML, in.URL, given, pagedata.Need{})
	if err != nil {
		return nil, err
	}
	r := &Report{Missing: []Recommendation{}, OtherTypes: []string{}}
	switch {
	case in.PageType != "":
		r.PageType, r.PageTypeSource = in.PageType, "given"
	case p.Content != nil && p.Content.PageType != "":
		r.PageType, r.PageTypeSource = string(p.Content.PageType), "content"
	default:
		g := pagetype.Detect(p.Doc, p.URL)
		r.PageType, r.PageTypeSource, r.PageTypeConfidence = string(g.Type), "detected", math.Round(g.Confidence*1000)/1000
	}
	found := collect(p.Structured)
	r.Truncated = found.truncated || len(p.Structured.Truncated) > 0
	if j := p.Structured.JSONLD; j != nil {
		r.Items.JSONLD, r.InvalidJSONLDBlocks = len(j.Items), len(j.Errors)
	}
	r.Items.Microdata, r.Items.RDFa = len(p.Structured.Microdata), len(p.Structured.RDFa)
	r.tally(found, pagetype.Type(r.PageType))
	r.openGraph(p.Structured.OpenGraph)
	r.Score = auditkit.Clamp(int(math.Round(r.OpenGraph.Points + sumPoints(r.Types))))
	r.Grade = auditkit.Grade(r.Score)
	return r, ctx.Err()
}

// tally fills Types, the counts and Missing from what was found.
func (r *Report) tally(f *found, pt pagetype.Type) {
	total := 0
	for _, t := range aeoTypes {
		total += t.relevance[pt]
	}
	for i, t := range aeoTypes {
		rel := t.relevance[pt]
		tc := TypeCoverage{Type: t.name, Sources: []string{}, Matched: []string{}, Relevance: rel, Expected: rel >= siteWide}
		if total > 0 {
			tc.MaxPoints = round2(typesPoints * float64(rel) / float64(total))
		}
		for _, src := range []string{SourceJSONLD, SourceMicrodata, SourceRDFa} {
			if f.sources[i][src] {
				tc.Sources = append(tc.Sources, src)
			}
		}
		tc.Matched, tc.Count = append([]string{}, f.matched[i]...), f.counts[i]
		slices.Sort(tc.Matched) // the JSON-LD walk meets them in map order
		tc.Found = tc.Count > 0
		if tc.Found {
			tc.Points = tc.MaxPoints
			r.Found++
		}
		if tc.Expected {
			r.Expected++
			if tc.Found {
				r.ExpectedFound++
			} else {
				r.Missing = append(r.Missing, Recommendation{Type: t.name, Relevance: rel, Points: tc.MaxPoints, Message: t.advice})
			}
		}
		r.Types = append(r.Types, tc)
	}
	slices.SortStableFunc(r.Missing, func(a, b Recommendation) int { return b.Relevance - a.Relevance })
	r.OtherTypes = append(r.OtherTypes, f.other...)
	slices.Sort(r.OtherTypes)
}

// openGraph fills the OpenGraph coverage.
func (r *Report) openGraph(og map[string]any) {
	r.OpenGraph = OpenGraphCoverage{Present: len(og) > 0, Properties: len(og), Essentials: []string{}, Missing: []string{}}
	for _, k := range openGraphEssentials {
		if _, ok := og[k]; ok {
			r.OpenGraph.Essentials = append(r.OpenGraph.Essentials, k)
		} else {
			r.OpenGraph.Missing = append(r.OpenGraph.Missing, k)
		}
	}
	r.OpenGraph.Points = openGraphPoints * float64(len(r.OpenGraph.Essentials)) / float64(len(openGraphEssentials))
}

func sumPoints(types []TypeCoverage) float64 {
	s := 0.0
	for _, t := range types {
		s += t.Points
	}
	return s
}

func round2(f float64) float64 { return math.Round(f*100) / 100 }

// found is what collect saw: per AEO type (index into aeoTypes) its
// sources, matched names and count; and the other types.
type found struct {
	sources   []map[string]bool
	matched   [][]string
	counts    []int
	other     []string
	seen      map[string]bool
	objects   int
	truncated bool
}

// collect walks the JSON-LD, microdata and RDFa, nested objects included,
// and files every type it meets.
func collect(st *structured.Result) *found {
	f := &found{sources: make([]map[string]bool, len(aeoTypes)), matched: make([][]string, len(aeoTypes)),
		counts: make([]int, len(aeoTypes)), seen: map[string]bool{}}
	for i := range f.sources {
		f.sources[i] = map[string]bool{}
	}
	if st.JSONLD != nil {
		for _, it := range st.JSONLD.Items {
			f.jsonLD(it, 0)
		}
	}
	for _, it := range st.Microdata {
		f.item(it, SourceMicrodata, 0)
	}
	for _, it := range st.RDFa {
		f.item(it, SourceRDFa, 0)
	}
	return f
}

// budget counts one object; false once the walk is over its limits.
func (f *found) budget(depth int) bool {
	f.objects++
	if f.objects > maxObjects || depth > maxDepth {
		f.truncated = true
		return false
	}
	return true
}

func (f *found) jsonLD(v any, depth int) {
	switch v := v.(type) {
	case map[string]any:
		if !f.budget(depth) {
			return
		}
		f.file(schema.ItemTypes(v), SourceJSONLD)
		for k, e := range v {
			if k != "@context" && k != "@type" {
				f.jsonLD(e, depth+1)
			}
		}
	case []any:
		for _, e := range v {
			f.jsonLD(e, depth+1)
		}
	}
}

func (f *found) item(it *structured.Item, source string, depth int) {
	if !f.budget(depth) {
		return
	}
	types := make([]string, 0, len(it.Type))
	for _, t := range it.Type {
		types = append(types, schema.ShortType(t))
	}
	f.file(types, source)
	for _, values := range it.Properties {
		for _, v := range values {
			if child, ok := v.(*structured.Item); ok {
				f.item(child, source, depth+1)
			}
		}
	}
}

// file counts one object of the given types towards every AEO type they
// match (an object counts once per AEO type), and lists the others.
func (f *found) file(types []string, source string) {
	for i, at := range aeoTypes {
		hit := false
		for _, t := range types {
			if at.matches(t) {
				hit = true
				if !slices.Contains(f.matched[i], t) && len(f.matched[i]) < maxMatched {
					f.matched[i] = append(f.matched[i], t)
				}
			}
		}
		if hit {
			f.counts[i]++
			f.sources[i][source] = true
		}
	}
	for _, t := range types {
		if !f.seen[t] && !slices.ContainsFunc(aeoTypes, func(at aeoType) bool { return at.matches(t) }) {
			f.seen[t] = true
			if len(f.other) < maxOtherTypes {
				f.other = append(f.other, t)
			}
		}
	}
}
