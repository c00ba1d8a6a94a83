package pageinfo

import (
	"slices"
	"strings"

	"github.com/webinfra/webinfra/extract/structured"
)

// StructuredData summarises the page's structured data (package
// extract/structured reads it whole).
type StructuredData struct {
	Types          []string `json:"types" example:"[\"Article\",\"BreadcrumbList\",\"Organization\"]" doc:"The @types of the JSON-LD, microdata and RDFa items, nested ones included, sorted and unique; schema.org types by their short name, others as written."`
	JSONLDBlocks   int      `json:"json_ld_blocks" doc:"JSON-LD script blocks (type application/ld+json)."`
	JSONLDItems    int      `json:"json_ld_items" doc:"Items read from them (arrays and @graph flattened)."`
	JSONLDErrors   int      `json:"json_ld_errors" doc:"Blocks, or parts of blocks, that could not be read."`
	MicrodataItems int      `json:"microdata_items" doc:"Top-level microdata items."`
	RDFaItems      int      `json:"rdfa_items" doc:"Top-level RDFa Lite items."`
	OpenGraph      bool     `json:"opengraph" doc:"The page has OpenGraph properties."`
	OpenGraphType  string   `json:"opengraph_type,omitempty" example:"website" doc:"og:type."`
	TwitterCard    string   `json:"twitter_card,omitempty" example:"summary_large_image" doc:"twitter:card."`
}

// maxTypes caps StructuredData.Types.
const maxTypes = 200

func structuredData(sd *structured.Result, blocks int) StructuredData {
	out := StructuredData{JSONLDBlocks: blocks, Types: []string{}}
	seen := map[string]bool{}
	add := func(t string) {
		if t = shortType(t); t != "" && !seen[t] && len(seen) < maxTypes {
			seen[t] = true
			out.Types = append(out.Types, t)
		}
	}
	if j := sd.JSONLD; j != nil {
		out.JSONLDItems, out.JSONLDErrors = len(j.Items), len(j.Errors)
		for _, t := range j.Types {
			add(t)
		}
	}
	out.MicrodataItems, out.RDFaItems = len(sd.Microdata), len(sd.RDFa)
	for _, items := range [][]*structured.Item{sd.Microdata, sd.RDFa} {
		for _, it := range items {
			itemTypes(it, add, 0)
		}
	}
	slices.Sort(out.Types)
	out.OpenGraph = len(sd.OpenGraph) > 0
	out.OpenGraphType = ogString(sd.OpenGraph, "og:type")
	out.TwitterCard = strings.TrimSpace(sd.Twitter["twitter:card"])
	return out
}

// itemTypes calls add for the types of it and of the items nested in it.
func itemTypes(it *structured.Item, add func(string), depth int) {
	if it == nil || depth > 16 { // package structured caps nesting at 16 too
		return
	}
	for _, t := range it.Type {
		add(t)
	}
	for _, values := range it.Properties {
		for _, v := range values {
			if nested, ok := v.(*structured.Item); ok {
				itemTypes(nested, add, depth+1)
			}
		}
	}
}

// shortType writes a schema.org type by its name ("Organization" for
// https://schema.org/Organization, http://schema.org/Organization and
// schema:Organization); other vocabularies' types stay as written.
func shortType(t string) string {
	t = strings.TrimSpace(t)
	for _, prefix := range []string{"https://schema.org/", "http://schema.org/", "https://www.schema.org/", "http://www.schema.org/", "schema:"} {
		if len(t) > len(prefix) && strings.EqualFold(t[:len(prefix)], prefix) {
			return strings.TrimSuffix(t[len(prefix):], "/")
		}
	}
	return t
}
