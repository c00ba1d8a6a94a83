package htmlaudit

import (
	"net/url"
	"strings"

	"golang.org/x/net/html"

	"github.com/webinfra/webinfra/seo/htmlaudit/auditkit"
)

// MetaReport is the answer of the meta audit.
type MetaReport struct {
	PageURL   string     `json:"page_url" doc:"The page's URL as given."`
	Score     int        `json:"score" minimum:"0" maximum:"100" doc:"Weighted mean of the applicable fields' scores (weights in each field), at most 50 when the page is noindex."`
	Grade     string     `json:"grade" enum:"A,B,C,D,F" doc:"A from 90, B from 80, C from 70, D from 60, F below."`
	Fields    MetaFields `json:"fields"`
	Truncated bool       `json:"truncated" doc:"The page had more than 200,000 elements; tags after that were not read."`
}

// MetaFields are the audited fields.
type MetaFields struct {
	Title       MetaField `json:"title"`
	Description MetaField `json:"description"`
	Canonical   MetaField `json:"canonical"`
	Robots      MetaField `json:"robots"`
	Viewport    MetaField `json:"viewport"`
	Lang        MetaField `json:"lang"`
	Charset     MetaField `json:"charset"`
	OpenGraph   MetaField `json:"open_graph"`
	Twitter     MetaField `json:"twitter"`
	Hreflang    MetaField `json:"hreflang"`
	Favicon     MetaField `json:"favicon"`
}

// MetaField is one field's grade. A field that does not apply (hreflang on
// a page without language versions) has applicable false, score 0 and
// grade "n/a", and does not count in the overall score.
type MetaField struct {
	Applicable bool               `json:"applicable"`
	Present    bool               `json:"present" doc:"The page declares the field."`
	Value      string             `json:"value,omitempty" doc:"The value read (the first, when there are several), at most 300 characters."`
	Score      int                `json:"score" minimum:"0" maximum:"100"`
	Grade      string             `json:"grade" enum:"A,B,C,D,F,n/a"`
	Reason     string             `json:"reason" doc:"Why the field scored what it did."`
	Weight     int                `json:"weight" doc:"The field's weight in the overall score (the weights sum to 100)."`
	Chars      int                `json:"chars,omitempty" doc:"title, description: length in characters."`
	PixelWidth int                `json:"pixel_width,omitempty" doc:"title: estimated width in 20px Arial, as Google shows it."`
	Missing    []string           `json:"missing,omitempty" doc:"open_graph, twitter: the expected properties the page lacks."`
	Values     []string           `json:"values,omitempty" doc:"hreflang: each annotation as code=URL (at most 50); other fields: every value when several conflict."`
	Issues     []auditkit.Finding `json:"issues" doc:"The problems found, each with its code and severity."`

	tag, attr string // where the field lives, for the issues
}

// Weights of the fields in the overall score; they sum to 100.
const (
	weightTitle       = 20
	weightDescription = 15
	weightCanonical   = 10
	weightRobots      = 15
	weightViewport    = 10
	weightLang        = 5
	weightCharset     = 5
	weightOpenGraph   = 8
	weightTwitter     = 4
	weightHreflang    = 4
	weightFavicon     = 4
	// noindexCap is the highest overall score of a noindex page.
	noindexCap = 50
)

// Meta grades a page's meta fields, each 0-100 and A-F with the reason,
// and the page overall (the weighted mean of the applicable fields; a
// noindex page scores at most 50). Grades: A from 90, B from 80, C from
// 70, D from 60, F below. Tags are read wherever the parser put them (a
// stray element in <head> moves later tags into <body>). The thresholds:
//
//   - title (weight 20): the first <title>, white space collapsed. None or
//     empty 0 (missing_title, empty_title); under 10 characters 20, 10-29
//     60 (title_too_short); 30-60 100; 61-70 75, over 70 50
//     (title_too_long). A 30-60 character title wider than 600 pixels in
//     20px Arial (Google's cut; see PixelWidth) scores 85
//     (title_too_wide). Several <title> elements: -15 (multiple_titles).
//   - description (15): <meta name=description>. None or empty 0
//     (missing_description); under 50 characters 40, 50-69 70
//     (description_too_short); 70-160 100; 161-200 75, over 200 50
//     (description_too_long). Several: -15 (multiple_descriptions).
//   - canonical (10): <link rel=canonical>. None 50 (missing_canonical);
//     several different 10 (conflicting_canonicals); not an http(s) URL 0
//     (invalid_canonical); self-referencing (scheme and host case, default
//     port, empty path and fragment ignored) 100; the http:// version of
//     an https:// page 40 (canonical_http); the same URL but for a
//     trailing slash 85 (canonical_trailing_slash); another URL 60
//     (canonical_elsewhere: this page will not be indexed itself); page URL
//     unknown 90. A relative href: -20 (relative_canonical).
//   - robots (15): <meta name=robots> and <meta name=googlebot>. None 100;
//     noindex or none 0 (noindex); nofollow 60 (nofollow); nosnippet or
//     max-snippet:0 50 (nosnippet: no text snippet in results or AI
//     answers); noimageindex, noarchive or notranslate 90
//     (restrictive_robots); the lowest applies. An X-Robots-Tag header is
//     not visible here.
//   - viewport (10): <meta name=viewport>. None 0 (missing_viewport); no
//     width=device-width 50 (viewport_not_device_width); user-scalable=no
//     or maximum-scale under 2 70 (viewport_blocks_zoom); else 100.
//   - lang (5): <html lang>. None 0 (missing_lang); not a well-formed,
//     known BCP 47 tag 40 (invalid_lang); else 100.
//   - charset (5): <meta charset> or the charset of <meta http-equiv=
//     Content-Type>. None 50 (missing_charset: the HTTP header may still
//     declare it); UTF-8 100; another 60 (non_utf8_charset); several
//     different: -20 (conflicting_charsets).
//   - open_graph (8): og:title, og:description, og:image, og:url and
//     og:type, 20 each (missing_open_graph when none, else
//     incomplete_open_graph); og:image not an absolute http(s) URL -10
//     (og_image_relative), http:// on an https:// page -5
//     (og_image_insecure); og:url not absolute -5 (og_url_relative).
//   - twitter (4): twitter:card summary, summary_large_image, app or
//     player 70, plus 10 each for a title, description and image
//     (twitter:* or the og:* fallback X reads); an unknown card 30
//     (invalid_twitter_card); no card 30 when og:title and og:image exist
//     (X may build a card from them), else 0 (missing_twitter_card).
//   - hreflang (4): <link rel=alternate hreflang>. None: not applicable.
//     From 100: each invalid code -25, at most -50 (invalid_hreflang:
//     not x-default or language[-Script][-REGION] with a known language,
//     an ISO 3166 region such as GB, not UK, and hyphens); relative hrefs
//     -15 (relative_hreflang); no annotation for the page's own URL -20
//     (missing_self_hreflang); no x-default -10 (missing_x_default); one
//     code for different URLs -15 (duplicate_hreflang).
//   - favicon (4): <link rel=icon|shortcut icon|apple-touch-icon|mask-icon>.
//     None 50 (missing_favicon: browsers then try /favicon.ico, which is
//     not fetched here); http:// on an https:// page 80
//     (insecure_favicon); else 100.
func Meta(doc *html.Node, pageURL *url.URL) *MetaReport {
	p := newPage(doc, pageURL)
	r := &MetaReport{Truncated: p.head.cut}
	if pageURL != nil {
		r.PageURL = pageURL.String()
	}
	f := &r.Fields
	f.Title = p.titleField()
	f.Description = p.descriptionField()
	f.Canonical = p.canonicalField()
	f.Robots = p.robotsField()
	f.Viewport = p.viewportField()
	f.Lang = p.langField()
	f.Charset = p.charsetField()
	f.OpenGraph = p.openGraphField()
	f.Twitter = p.twitterField()
	f.Hreflang = p.hreflangField()
	f.Favicon = p.faviconField()
	weights := []int{weightTitle, weightDescription, weightCanonical, weightRobots, weightViewport,
		weightLang, weightCharset, weightOpenGraph, weightTwitter, weightHreflang, weightFavicon}
	all := []*MetaField{&f.Title, &f.Description, &f.Canonical, &f.Robots, &f.Viewport,
		&f.Lang, &f.Charset, &f.OpenGraph, &f.Twitter, &f.Hreflang, &f.Favicon}
	sum, weight := 0, 0
	for i, field := range all {
		field.Weight = weights[i]
		field.finish()
		if field.Applicable {
			sum += field.Score * field.Weight
			weight += field.Weight
		}
	}
	r.Score = (sum + weight/2) / max(weight, 1)
	if f.Robots.Score == 0 {
		r.Score = min(r.Score, noindexCap)
	}
	r.Grade = auditkit.Grade(r.Score)
	return r
}

// newField starts a field read from tag's attr at score with its reason.
func newField(tag, attr string, present bool, value string, score int, reason string) MetaField {
	return MetaField{Applicable: true, Present: present, Value: auditkit.Clip(value, 300), Score: score,
		Reason: reason, tag: tag, attr: attr}
}

// issue records a problem, lowering the score by penalty (0 for none).
func (f *MetaField) issue(code, severity, message string, penalty int) {
	f.Issues = append(f.Issues, auditkit.Finding{Code: code, Severity: severity, Message: message, Tag: f.tag, Attribute: f.attr})
	f.Score -= penalty
}

// issueAt records a problem of one element, its start tag as snippet.
func (f *MetaField) issueAt(n *html.Node, code, severity, message string, penalty int) {
	f.issue(code, severity, message, penalty)
	f.Issues[len(f.Issues)-1].Snippet = auditkit.StartTag(n)
}

// capAt lowers the score to at most score, recording the problem; it
// makes message the reason when it lowers the score.
func (f *MetaField) capAt(score int, code, severity, message string) {
	f.issue(code, severity, message, 0)
	if score < f.Score {
		f.Score, f.Reason = score, message
	}
}

// finish clamps the score, sets the grade, gives every issue a snippet
// (the field's value) and adds the issues to the reason.
func (f *MetaField) finish() {
	if !f.Applicable {
		f.Score, f.Grade = 0, "n/a"
	} else {
		f.Score = auditkit.Clamp(f.Score)
		f.Grade = auditkit.Grade(f.Score)
	}
	if f.Issues == nil {
		f.Issues = []auditkit.Finding{}
	}
	for i := range f.Issues {
		if f.Issues[i].Snippet == "" {
			f.Issues[i].Snippet = auditkit.Clip(f.Value, auditkit.SnippetRunes)
		}
	}
	if len(f.Issues) > 0 && f.Reason != "" && f.Score < 100 {
		var extra []string
		for _, is := range f.Issues {
			if is.Message != f.Reason {
				extra = append(extra, is.Message)
			}
		}
		if len(extra) > 0 {
			f.Reason += "; " + strings.Join(extra, "; ")
		}
	}
}

// sameURL reports whether two absolute URLs name the same page: scheme and
// host compared without case, a default port and the fragment ignored, an
// empty path read as "/".
func sameURL(a, b *url.URL) bool {
	return normalURL(a) == normalURL(b)
}

func normalURL(u *url.URL) string {
	c := *u
	c.Scheme = strings.ToLower(c.Scheme)
	c.Host = strings.ToLower(c.Host)
	if port := c.Port(); (c.Scheme == "http" && port == "80") || (c.Scheme == "https" && port == "443") {
		c.Host = c.Hostname()
	}
	if c.Path == "" {
		c.Path, c.RawPath = "/", ""
	}
	c.Fragment, c.RawFragment = "", ""
	return c.String()
}
