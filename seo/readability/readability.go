package readability

import (
	"context"
	"math"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/seo/internal/htmltext"
)

// Defaults and hard limits.
const (
	// DefaultMaxInputBytes caps the text (or HTML) read: longer input is cut
	// at the last white space before the cap and Result.Truncated is set.
	DefaultMaxInputBytes = 2 << 20
	// DefaultMsPerChar is textstat's reading_time default, 14.69 ms per
	// character (Demberg & Keller, 2008).
	DefaultMsPerChar = 14.69
)

// Input is the body of POST /v1/seo/readability: exactly one of Text and
// HTML.
type Input struct {
	Text string `json:"text,omitempty" doc:"Plain text to score. Exactly one of text and html is required." example:"The cat sat on the mat. It was a sunny day, and the cat was happy."`
	HTML string `json:"html,omitempty" doc:"An HTML document; its visible text is scored (script, style, template and head skipped; noscript read, as crawlers read it; each block element ends a sentence). Exactly one of text and html is required."`
}

// Options tunes Analyze; nil means defaults.
type Options struct {
	// MaxInputBytes caps the bytes of text read (of visible text for
	// HTML; the HTML itself may be up to four times as long). 0 means
	// DefaultMaxInputBytes.
	MaxInputBytes int
	// MsPerChar is the reading time per character in milliseconds; 0
	// means DefaultMsPerChar.
	MsPerChar float64
}

// Result holds textstat's scores and counts. Scores are rounded as textstat
// rounds them by default.
type Result struct {
	FleschReadingEase         float64 `json:"flesch_reading_ease" doc:"Flesch reading ease: 206.835 - 1.015 words/sentence - 84.6 syllables/word; higher is easier (90-100 very easy, 0-30 very hard). 2 decimals." example:"74.19"`
	FleschKincaidGrade        float64 `json:"flesch_kincaid_grade" doc:"Flesch-Kincaid grade level: 0.39 words/sentence + 11.8 syllables/word - 15.59. 1 decimal." example:"6.1"`
	GunningFog                float64 `json:"gunning_fog" doc:"Gunning fog index: 0.4 (words/sentence + 100 difficult/words), difficult meaning 3+ syllables and not on the Dale-Chall easy list. 2 decimals." example:"8.84"`
	SMOGIndex                 float64 `json:"smog_index" doc:"SMOG grade: 1.043 sqrt(30 polysyllables/sentences) + 3.1291; 0 below three sentences. 1 decimal." example:"9.1"`
	AutomatedReadabilityIndex float64 `json:"automated_readability_index" doc:"Automated readability index: 4.71 characters/word + 0.5 words/sentence - 21.43. 1 decimal." example:"7.2"`
	ColemanLiauIndex          float64 `json:"coleman_liau_index" doc:"Coleman-Liau index: 0.058 L - 0.296 S - 15.8, L letters and S sentences per 100 words. 2 decimals." example:"8.39"`
	DaleChallReadabilityScore float64 `json:"dale_chall_readability_score" doc:"Dale-Chall score: 0.1579 × % words not on the easy list + 0.0496 words/sentence, + 3.6365 when that share is over 5%. 2 decimals." example:"7.35"`
	ReadingTimeSeconds        float64 `json:"reading_time_seconds" doc:"Reading time: 14.69 ms per non-space character. 2 decimals." example:"12.55"`
	Sentences                 int     `json:"sentences" doc:"Sentences of three or more words (at least 1)." example:"12"`
	Words                     int     `json:"words" doc:"Words: white-space separated tokens holding a letter or digit." example:"180"`
	Syllables                 int     `json:"syllables" doc:"Syllables: pyphen's en_US hyphenation points plus one, per word." example:"252"`
	Characters                int     `json:"characters" doc:"Non-space characters, punctuation included." example:"854"`
	Letters                   int     `json:"letters" doc:"Letters and digits." example:"812"`
	Polysyllables             int     `json:"polysyllables" doc:"Words of three or more syllables." example:"15"`
	DifficultWords            int     `json:"difficult_words" doc:"Distinct words of two or more syllables not on the Dale-Chall easy list (textstat's difficult_words)." example:"21"`
	Truncated                 bool    `json:"truncated,omitempty" doc:"The input was over the size cap and only its beginning was scored."`
	Note                      string  `json:"note,omitempty" doc:"Why every score is 0: an HTML page with no visible text without script."`
}

// Analyze scores in.Text or the visible text of in.HTML.
func Analyze(ctx context.Context, in Input, opts *Options) (*Result, error) {
	switch {
	case in.Text != "" && in.HTML != "":
		return nil, errs.Invalid("html", "give text or html, not both")
	case in.HTML != "":
		return HTML(ctx, in.HTML, opts)
	default:
		return Text(ctx, in.Text, opts)
	}
}

// Text scores a plain text exactly as textstat 0.7.4 scores the same string.
func Text(ctx context.Context, text string, opts *Options) (*Result, error) {
	o := opts.withDefaults()
	text, truncated := htmltext.Cut(text, o.MaxInputBytes)
	return score(ctx, "text", []string{text}, truncated, o)
}

// HTML scores the visible text of an HTML document. Each block element is
// scored as its own run of text, so a heading or list item without a full
// stop never merges with the next sentence; otherwise the counts are
// textstat's over the blocks.
func HTML(ctx context.Context, doc string, opts *Options) (*Result, error) {
	o := opts.withDefaults()
	doc, truncated := htmltext.Cut(doc, 4*o.MaxInputBytes)
	blocks, cutText, err := htmltext.Blocks(doc, o.MaxInputBytes)
	if err != nil {
		return nil, errs.Invalid("html", "cannot be parsed: %v", err)
	}
	return score(ctx, "html", blocks, truncated || cutText, o)
}

func (o *Options) withDefaults() Options {
	var r Options
	if o != nil {
		r = *o
	}
	if r.MaxInputBytes <= 0 {
		r.MaxInputBytes = DefaultMaxInputBytes
	}
	if r.MsPerChar <= 0 || math.IsNaN(r.MsPerChar) || math.IsInf(r.MsPerChar, 0) {
		r.MsPerChar = DefaultMsPerChar
	}
	return r
}

func score(ctx context.Context, field string, segments []string, truncated bool, o Options) (*Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	t := newTally(o.MsPerChar)
	for i, seg := range segments {
		if i%256 == 255 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		t.add(seg)
	}
	if t.words == 0 && field == "html" {
		// A page is valid input even when it shows no text: a page
		// rendered in the browser, say. It scores nothing, and says why.
		return &Result{Truncated: truncated, Note: "the page has no visible text without script (a page rendered in the browser: fetch it with the render tier)"}, nil
	}
	if t.words == 0 {
		return nil, errs.Invalid(field, "must contain at least one word")
	}
	r := t.result()
	r.Truncated = truncated
	return r, nil
}
