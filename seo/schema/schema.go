package schema

import (
	"context"
	"slices"
	"strings"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/extract/structured"
)

// Defaults of Options.
const (
	DefaultMaxProblems = 500
	DefaultMaxEntities = 200
	// maxSteps caps the JSON values one validation visits.
	maxSteps = 200_000
	// maxNesting caps how deep nested rules and the search for nested rich
	// results go below an item.
	maxNesting = 12
	// valueRunes caps the offending value quoted in a problem.
	valueRunes = 120
)

// Severities of a Problem.
const (
	Error   = "error"   // a required property is missing or a value is invalid: not eligible
	Warning = "warning" // a recommended property is missing or invalid: eligible, but poorer
)

// Input is the page to validate; it is the body of
// POST /v1/seo/schema-validate.
type Input struct {
	HTML string `json:"html" minLength:"1" maxLength:"10485760" example:"<script type=\"application/ld+json\">{\"@context\":\"https://schema.org\",\"@type\":\"Product\",\"name\":\"Anvil\",\"offers\":{\"@type\":\"Offer\",\"price\":\"$10\",\"priceCurrency\":\"usd\"}}</script>" doc:"The page's HTML, UTF-8. Its JSON-LD blocks are validated; nothing is fetched."`
	URL  string `json:"url,omitempty" maxLength:"8192" example:"https://example.com/anvil" doc:"The page's URL, optional: an absolute http(s) URL."`
}

// Options tune Validate. Nil or zero fields mean defaults.
type Options struct {
	// Structured is structured.Extract's result for the same page, when
	// the caller has it; Validate then reads it instead of extracting
	// again (and Input.HTML may be empty).
	Structured *structured.Result
	// MaxProblems caps the problems listed (DefaultMaxProblems); more are
	// still counted.
	MaxProblems int
	// MaxEntities caps the entities validated (DefaultMaxEntities).
	MaxEntities int
}

// Report is the answer of schema-validate.
type Report struct {
	Eligible       []string  `json:"eligible" example:"[\"BreadcrumbList\",\"Article\"]" doc:"The rich-result types (the table's schema.org type names) with at least one entity without errors, in page order."`
	Entities       []Entity  `json:"entities" doc:"Each JSON-LD object validated against a rich-result type, at most max_entities (200 by default)."`
	Problems       []Problem `json:"problems" doc:"Every problem found, in item order, at most max_problems (500 by default)."`
	Errors         int       `json:"errors" doc:"Problems of severity error found, listed or not (in the entities validated)."`
	Warnings       int       `json:"warnings" doc:"Problems of severity warning found, listed or not."`
	Items          int       `json:"items" doc:"JSON-LD items on the page (top-level arrays and @graph flattened): $[i] in a path indexes them."`
	BlocksInvalid  int       `json:"blocks_invalid" doc:"JSON-LD blocks (or parts of blocks) that could not be read."`
	UncheckedTypes []string  `json:"unchecked_types" doc:"Types of top-level items that no rich result covers (WebSite, WebPage, Person...), at most 50."`
	Truncated      bool      `json:"truncated" doc:"Problems or entities were left out, or the items were too large or deep to read whole."`
}

// Entity is one JSON-LD object validated against one rich-result type.
type Entity struct {
	Path       string `json:"path" example:"$[0]" doc:"Where the object is: $[i] is the i-th JSON-LD item, then properties and list indexes ($[1].mainEntity)."`
	Type       string `json:"type" example:"NewsArticle" doc:"The object's @type as written (its schema.org name)."`
	RichResult string `json:"rich_result" example:"Article" doc:"Google's name of the rich result it is checked for."`
	Rule       string `json:"rule" example:"Article" doc:"The rule table's type the object was checked with."`
	Source     string `json:"source" example:"https://developers.google.com/search/docs/appearance/structured-data/article" doc:"The Google Search Central page the rule's lists come from."`
	Errors     int    `json:"errors"`
	Warnings   int    `json:"warnings"`
	Eligible   bool   `json:"eligible" doc:"No errors: the object can show as this rich result."`
	Note       string `json:"note,omitempty" doc:"What Google says of the rich result's availability, when it is restricted or retired."`
}

// Problem is one finding, located by its JSON path.
type Problem struct {
	Path     string `json:"path" example:"$[0].offers.price" doc:"The JSON path of the property (where it should be, when missing)."`
	Property string `json:"property,omitempty" example:"price" doc:"The property as the rule names it; a|b means one of them."`
	Type     string `json:"type,omitempty" example:"Offer" doc:"The rule type whose check found it."`
	Code     string `json:"code" enum:"invalid_json_ld,missing_context,missing_required,missing_one_of,missing_recommended,invalid_value,rating_out_of_range" doc:"What is wrong."`
	Severity string `json:"severity" enum:"error,warning" doc:"error: missing required or invalid, the entity is not eligible; warning: missing or invalid recommended."`
	Message  string `json:"message"`
	Value    string `json:"value,omitempty" doc:"The offending value, at most 120 characters."`
	Block    *int   `json:"block,omitempty" doc:"For invalid_json_ld: the index of the JSON-LD script block, from 0."`
}

// Validate checks a page's JSON-LD against the required and recommended
// properties of the rich results in the rule table (see the package doc).
// in.HTML is required unless opts.Structured carries the page's
// structured data; in.URL, when given, must be an absolute http(s) URL.
// Invalid input is errs.KindInvalid naming the field; a page over
// structured's size limit is errs.KindTooLarge.
func Validate(ctx context.Context, in Input, opts *Options) (*Report, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.MaxProblems <= 0 {
		o.MaxProblems = DefaultMaxProblems
	}
	if o.MaxEntities <= 0 {
		o.MaxEntities = DefaultMaxEntities
	}
	st := o.Structured
	if st == nil {
		if strings.TrimSpace(in.HTML) == "" {
			return nil, errs.Invalid("html", "must not be empty")
		}
		if in.URL != "" && !absoluteURL(in.URL) {
			return nil, errs.Invalid("url", "must be an absolute http or https URL, got %q", in.URL)
		}
		var err error
		if st, err = structured.Extract(ctx, structured.Input{HTML: in.HTML, BaseURL: strings.TrimSpace(in.URL)}, nil); err != nil {
			return nil, err
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	c := newChecker(o)
	if j := st.JSONLD; j != nil {
		c.blockErrors(j.Errors)
		c.run(j.Items)
	}
	c.rep.Truncated = c.rep.Truncated || slices.Contains(st.Truncated, "json_ld")
	return c.report(), nil
}

// TypeRule is one row of the rule table, as Rules lists it.
type TypeRule struct {
	Type         string   `json:"type" doc:"The schema.org type the rule is named after."`
	AppliesTo    []string `json:"applies_to" doc:"The types it checks (with their subtypes when subtypes is true)."`
	Subtypes     bool     `json:"subtypes"`
	RichResult   string   `json:"rich_result" doc:"Google's name of the rich result; empty for a rule that only checks objects nested in another (ListItem, Rating, Question...)."`
	Source       string   `json:"source,omitempty"`
	Required     []string `json:"required"`
	RootRequired []string `json:"root_required,omitempty" doc:"Required only when the object is not nested in another."`
	Recommended  []string `json:"recommended"`
	Nested       []string `json:"nested,omitempty" doc:"property=rule pairs: objects under the property are checked with that rule."`
	Note         string   `json:"note,omitempty"`
}

// Rules returns the rule table, in its order: what Validate checks.
func Rules() []TypeRule {
	out := make([]TypeRule, 0, len(rules))
	for i := range rules {
		r := &rules[i]
		t := TypeRule{Type: r.id, AppliesTo: append([]string(nil), r.types...), Subtypes: r.subtypes,
			RichResult: r.richResult, Source: r.doc, Required: append([]string{}, r.required...),
			RootRequired: append([]string(nil), r.rootRequired...), Recommended: append([]string{}, r.recommended...),
			Note: r.note}
		for _, p := range sortedKeys(r.nested) {
			t.Nested = append(t.Nested, p+"="+r.nested[p])
		}
		out = append(out, t)
	}
	return out
}
