package keywords

import (
	"context"
	"strings"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/seo/internal/htmltext"
)

// Defaults and hard limits.
const (
	DefaultMaxKeywords = 20      // keywords answered when max_keywords is 0
	MaxMaxKeywords     = 500     // the largest max_keywords accepted
	DefaultMinWords    = 1       // shortest candidate phrase, in words
	DefaultMaxWords    = 5       // longest candidate phrase, in words
	MaxMaxWords        = 16      // the largest max_words accepted
	DefaultMaxBytes    = 1 << 20 // text read; longer input is cut and Truncated set
	DefaultMaxCands    = 100_000 // candidate occurrences kept; scanning stops there
)

// Input is the body of POST /v1/seo/keyword-extract: exactly one of Text
// and HTML, and optional limits.
type Input struct {
	Text              string `json:"text,omitempty" doc:"Plain text. A blank line ends a phrase, as punctuation does. Exactly one of text and html is required." example:"Compatibility of systems of linear constraints over the set of natural numbers. Criteria of compatibility of a system of linear Diophantine equations, strict inequations, and nonstrict inequations are considered."`
	HTML              string `json:"html,omitempty" doc:"An HTML document; its visible text is used (script, style, template and head skipped; noscript read, as crawlers read it; block elements end phrases). Exactly one of text and html is required."`
	Language          string `json:"language,omitempty" doc:"ISO 639-1 code of the stop list: en (SMART, the default), da, de, es, fi, fr, hu, it, nb, nl, pt, ru, sv (Snowball)." example:"en"`
	MaxKeywords       int    `json:"max_keywords,omitempty" minimum:"0" maximum:"500" doc:"Most keywords to answer, best first; 0 means 20." example:"20"`
	TopThird          bool   `json:"top_third,omitempty" doc:"Answer the top third of the number of distinct candidate words, the paper's cut-off T, instead of max_keywords (still at most 500)."`
	MinWords          int    `json:"min_words,omitempty" minimum:"0" maximum:"16" doc:"Shortest candidate phrase in words; 0 means 1. Shorter runs are not candidates and do not count towards word scores." example:"1"`
	MaxWords          int    `json:"max_words,omitempty" minimum:"0" maximum:"16" doc:"Longest candidate phrase in words; 0 means 5. Longer runs (menus, lists of names) are not candidates and do not count towards word scores." example:"5"`
	IncludeWordScores bool   `json:"include_word_scores,omitempty" doc:"Also answer every candidate word's degree, frequency and score (the paper's Table 1.1)."`
}

// Options tunes Extract for Go callers; nil means defaults.
type Options struct {
	// StopWords, when not nil, replaces the language's stop list
	// (Result.StopList is then "custom").
	StopWords []string
	// MaxInputBytes caps the text read (the visible text for HTML; the
	// HTML itself may be four times as long); 0 means DefaultMaxBytes.
	MaxInputBytes int
	// MaxCandidates caps the candidate occurrences kept; 0 means
	// DefaultMaxCands.
	MaxCandidates int
}

// Keyword is one extracted phrase.
type Keyword struct {
	Phrase      string  `json:"phrase" doc:"The candidate phrase, lower-cased, words separated by one space." example:"minimal generating sets"`
	Score       float64 `json:"score" doc:"RAKE score: the sum of its words' degree/frequency (unrounded; the paper prints 1 decimal)." example:"8.666666666666666"`
	Occurrences int     `json:"occurrences" doc:"How often the phrase occurs as a candidate." example:"1"`
}

// WordScore is one candidate word's statistics.
type WordScore struct {
	Word      string  `json:"word" example:"minimal"`
	Degree    int     `json:"degree" doc:"deg(w): the summed length of the candidates it occurs in." example:"8"`
	Frequency int     `json:"frequency" doc:"freq(w): how many candidates it occurs in." example:"3"`
	Score     float64 `json:"score" doc:"deg(w)/freq(w)." example:"2.6666666666666665"`
}

// Result is the answer: keywords best first.
type Result struct {
	Keywords   []Keyword   `json:"keywords" doc:"Keywords, highest score first; equal scores keep the order of first occurrence."`
	Language   string      `json:"language" doc:"The stop list's language." example:"en"`
	StopList   string      `json:"stop_list" enum:"smart,snowball,custom" doc:"Which stop list was used." example:"smart"`
	Candidates int         `json:"candidates" doc:"Candidate phrase occurrences scored." example:"28"`
	Words      int         `json:"words" doc:"Distinct candidate words (the co-occurrence graph's size)." example:"29"`
	WordScores []WordScore `json:"word_scores,omitempty" doc:"Every candidate word, best first, when include_word_scores is set."`
	Truncated  bool        `json:"truncated,omitempty" doc:"The input was over the size cap or held more candidates than the cap, and only its beginning was used."`
	Note       string      `json:"note,omitempty" doc:"Why there are no keywords, for an HTML page without usable text."`
}

// noVisibleText is the note of a page whose HTML shows no text without
// script.
const noVisibleText = "the page has no visible text without script (a page rendered in the browser: fetch it with the render tier)"

// noKeywords is the answer for an HTML page without usable text: a page
// is valid input even when it offers nothing to rank.
func noKeywords(in Input, note string) *Result {
	return &Result{Keywords: []Keyword{}, Language: in.Language, StopList: stopListNames[in.Language], Note: note}
}

// Extract runs RAKE over in.Text or the visible text of in.HTML.
func Extract(ctx context.Context, in Input, opts *Options) (*Result, error) {
	if in.Text != "" && in.HTML != "" {
		return nil, errs.Invalid("html", "give text or html, not both")
	}
	if err := validate(&in); err != nil {
		return nil, err
	}
	o := opts.withDefaults()
	field, text, truncated := "text", in.Text, false
	if in.HTML != "" {
		field = "html"
		doc, cutDoc := htmltext.Cut(in.HTML, 4*o.MaxInputBytes)
		blocks, cutText, err := htmltext.Blocks(doc, o.MaxInputBytes)
		if err != nil {
			return nil, errs.Invalid("html", "cannot be parsed: %v", err)
		}
		text, truncated = strings.Join(blocks, "\n\n"), cutDoc || cutText
	} else {
		text, truncated = htmltext.Cut(text, o.MaxInputBytes)
	}
	if strings.TrimSpace(text) == "" {
		if field == "html" {
			return noKeywords(in, noVisibleText), nil
		}
		return nil, errs.Invalid(field, "must not be empty")
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return run(in, o, text, truncated, field)
}

// Text runs RAKE over a plain text with default limits and the stop list
// of lang ("" for English).
func Text(ctx context.Context, text, lang string, opts *Options) (*Result, error) {
	return Extract(ctx, Input{Text: text, Language: lang}, opts)
}

// HTML runs RAKE over the visible text of an HTML document.
func HTML(ctx context.Context, doc, lang string, opts *Options) (*Result, error) {
	return Extract(ctx, Input{HTML: doc, Language: lang}, opts)
}

func validate(in *Input) error {
	if in.Language == "" {
		in.Language = "en"
	}
	in.Language = strings.ToLower(in.Language)
	if _, ok := stopListNames[in.Language]; !ok {
		return errs.Invalid("language", "no stop list for %q; one of %s", in.Language, strings.Join(Languages(), ", "))
	}
	switch {
	case in.MaxKeywords < 0 || in.MaxKeywords > MaxMaxKeywords:
		return errs.Invalid("max_keywords", "must be between 0 and %d", MaxMaxKeywords)
	case in.MinWords < 0 || in.MinWords > MaxMaxWords:
		return errs.Invalid("min_words", "must be between 0 and %d", MaxMaxWords)
	case in.MaxWords < 0 || in.MaxWords > MaxMaxWords:
		return errs.Invalid("max_words", "must be between 0 and %d", MaxMaxWords)
	}
	if in.MaxKeywords == 0 {
		in.MaxKeywords = DefaultMaxKeywords
	}
	if in.MinWords == 0 {
		in.MinWords = DefaultMinWords
	}
	if in.MaxWords == 0 {
		in.MaxWords = max(DefaultMaxWords, in.MinWords)
	}
	if in.MinWords > in.MaxWords {
		return errs.Invalid("min_words", "must not be more than max_words (%d)", in.MaxWords)
	}
	return nil
}

func (o *Options) withDefaults() Options {
	var r Options
	if o != nil {
		r = *o
	}
	if r.MaxInputBytes <= 0 {
		r.MaxInputBytes = DefaultMaxBytes
	}
	if r.MaxCandidates <= 0 {
		r.MaxCandidates = DefaultMaxCands
	}
	return r
}

func run(in Input, o Options, text string, truncated bool, field string) (*Result, error) {
	stop, listName := stopList(in.Language), stopListNames[in.Language]
	if o.StopWords != nil {
		stop, listName = makeStopSet(o.StopWords), "custom"
	}
	s := newScanner(stop, in.MinWords, in.MaxWords, o.MaxCandidates)
	s.scan(text)
	if len(s.ends) == 0 {
		if field == "html" {
			return noKeywords(in, "the page's text has no candidate phrases: only stop words, numbers or punctuation"), nil
		}
		return nil, errs.Invalid(field, "has no candidate phrases: only stop words, numbers or punctuation")
	}
	all := s.rank()
	words := 0
	for _, f := range s.freq {
		if f > 0 {
			words++
		}
	}
	limit := in.MaxKeywords
	if in.TopThird {
		limit = min(max(1, words/3), MaxMaxKeywords)
	}
	res := &Result{
		Keywords:   make([]Keyword, 0, min(limit, len(all))),
		Language:   in.Language,
		StopList:   listName,
		Candidates: len(s.ends),
		Words:      words,
		Truncated:  truncated || s.full,
	}
	for _, k := range all[:min(limit, len(all))] {
		res.Keywords = append(res.Keywords, Keyword{Phrase: k.phrase, Score: k.score, Occurrences: k.count})
	}
	if in.IncludeWordScores {
		res.WordScores = s.wordScores()
	}
	return res, nil
}
