package content

import (
	"cmp"
	"context"
	"net/url"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/extract/pagetype"
	"github.com/webinfra/webinfra/extract/streamed"
	"github.com/webinfra/webinfra/internal/htmltag"
)

// Mode picks the extraction pipeline.
type Mode string

// The extraction modes.
const (
	// ModeAccurate runs go-trafilatura with readeck go-readability as a
	// fallback candidate and cleans the result (see the package doc). A
	// page of over 4,000 paragraphs or 60,000 elements is extracted in
	// fast mode instead, as Result.Mode then says (see affordsAccurate).
	ModeAccurate Mode = "accurate"
	// ModeFast runs readeck go-readability alone and cleans the result.
	// A page on which it finds under 250 characters is extracted in
	// accurate mode, as Result.Mode then says (see extractFresh).
	ModeFast Mode = "fast"
)

// DefaultMaxInputBytes is the default cap on Input.HTML.
const DefaultMaxInputBytes = 10 << 20

// Input is one page to extract from. It is also the JSON body of
// POST /v1/extract/clean.
type Input struct {
	HTML string `json:"html" minLength:"1" maxLength:"10485760" example:"<html><head><title>Hello</title></head><body><article><h1>Hello</h1><p>The article text.</p></article></body></html>" doc:"The page as HTML, UTF-8. Nothing is fetched: scripts do not run and subresources are not loaded."`
	URL  string `json:"url,omitempty" maxLength:"8192" example:"https://example.com/news/hello" doc:"The page's URL, optional: relative links in the markdown are made absolute against it (or the page's <base href>), and it helps date and site-name detection."`
	Mode Mode   `json:"mode,omitempty" enum:"accurate,fast" example:"accurate" doc:"accurate (the default) gives the best text; fast is about twice as fast and a little less precise (a page on which it finds under 250 characters is read in accurate mode, and the answer's mode says so)."`
}

// Options tune Extract and FromNode. The zero value (or nil) means
// defaults.
type Options struct {
	// Mode is used when Input.Mode is empty (and by FromNode); empty means
	// ModeAccurate.
	Mode Mode
	// MaxInputBytes caps len(Input.HTML): a longer page is an error of
	// kind errs.KindTooLarge. 0 means DefaultMaxInputBytes; negative means
	// no limit.
	MaxInputBytes int
	// TypeModel is the model that detects the page's type, which
	// accurate mode fits its extraction to (see Result.PageType): one
	// trained on the caller's own labelled pages with pagetype.Train
	// over pagetype.Features. nil means the shipped model
	// (pagetype.Detect).
	TypeModel *pagetype.Model
}

// Result is the extracted article and the page's metadata.
type Result struct {
	// Text is the article body as plain text: blocks separated by blank
	// lines, list items and table rows on their own lines, an item
	// marked "- " (or "3. " in an ordered list) and a row written
	// "| cell | cell |". The headline is not repeated in it (see Title).
	Text string `json:"text" doc:"The article body as plain text: paragraphs separated by blank lines; list items on their own lines, marked '- ' or numbered ('1. ') in an ordered list; table rows written '| cell | cell |'. The headline is in title, not repeated here."`
	// Markdown is the article as CommonMark: the page's own markup of
	// the extracted text, headline included (see the package doc).
	Markdown string `json:"markdown" doc:"The article as CommonMark, rendered from the page's own markup as the whole-page markdown is: headline and headings, links (absolute when url is given), inline code, code blocks with their language, tables and images; permalink anchors left out."`
	// NoContent is true when no article body was found: Text and
	// Markdown are empty, the metadata may still be set.
	NoContent bool `json:"no_content,omitempty" doc:"True when the page has no extractable article body; text and markdown are then empty and the metadata may still be set."`

	Title       string `json:"title,omitempty" doc:"The article's headline."`
	Byline      string `json:"byline,omitempty" doc:"The author or authors, as the page names them."`
	Published   string `json:"published,omitempty" example:"2019-11-19T08:30:00Z" doc:"When the article was published: an RFC 3339 date-time, or a full-date (2019-11-19) when the page gives no time of day."`
	Modified    string `json:"modified,omitempty" example:"2019-11-20T10:00:00Z" doc:"When the article was last modified, as the page's metadata states it: an RFC 3339 date-time or full-date."`
	Language    string `json:"language,omitempty" example:"en" doc:"The language of the article, an ISO 639-1 code."`
	SiteName    string `json:"site_name,omitempty" doc:"The site's name (og:site_name and the like)."`
	Description string `json:"description,omitempty" doc:"The page's description or standfirst (meta description, og:description)."`
	Image       string `json:"image,omitempty" doc:"The article's lead image URL (og:image and the like)."`
	Mode        Mode   `json:"mode" enum:"accurate,fast" doc:"The mode that produced the result: fast when accurate was asked for a page of over 4,000 paragraphs or 60,000 elements, whose cost in accurate mode grows with the square of its paragraphs; accurate when fast was asked for a page on which fast mode found under 250 characters."`
	// PageType is what kind of page this is; the extraction is fitted to
	// it (see the package doc).
	PageType pagetype.Type `json:"page_type" enum:"article,forum,product,collection,listing,documentation,service" doc:"What kind of page this is: article, forum (a discussion thread), product (one product), collection (a shop's category page), listing (an index of articles, courses, links), documentation or service (a marketing, feature or pricing page). The extraction is fitted to it."`
	// PageTypeConfidence is the detector's probability of PageType.
	PageTypeConfidence float64 `json:"page_type_confidence" minimum:"0" maximum:"1" doc:"The page-type detector's probability of page_type, 0 to 1."`

	// Node is the article body as a parsed tree, detached from the page:
	// the root element of the extractor's output (a <body> from
	// go-trafilatura, a <div> from readability), or nil when NoContent.
	// It is the caller's to keep or change. Text was rendered from it;
	// Markdown from the same text's elements in the page (see the
	// package doc).
	Node *html.Node `json:"-"`

	// fromTree is true when Markdown was rendered from Node because
	// findRegion did not find the article in the page (tests read it).
	fromTree bool
}

// Extract finds the main content (the article) of a page and its
// metadata. It is a pure function of its input: nothing is fetched.
//
// Errors: an empty Input.HTML or an unknown mode is errs.KindInvalid, a
// malformed Input.URL is errs.KindInvalid, a page over
// Options.MaxInputBytes is errs.KindTooLarge, and a done ctx returns
// ctx.Err(). A page without an article body is not an error: the result
// has NoContent set and empty Text and Markdown, with whatever metadata
// the page has, so callers can tell "nothing to read" from a failure.
func Extract(ctx context.Context, in Input, opts *Options) (*Result, error) {
	o, err := opts.resolve()
	if err != nil {
		return nil, err
	}
	if in.Mode != "" {
		if !in.Mode.valid() {
			return nil, errs.Invalid("mode", "must be accurate or fast, got %q", in.Mode)
		}
		o.Mode = in.Mode
	}
	if strings.TrimSpace(in.HTML) == "" {
		return nil, errs.Invalid("html", "must not be empty")
	}
	if o.MaxInputBytes > 0 && len(in.HTML) > o.MaxInputBytes {
		return nil, errs.New(errs.KindTooLarge, "html is %d bytes, over the limit of %d", len(in.HTML), o.MaxInputBytes)
	}
	pageURL, err := parsePageURL(in.URL)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// Each tree is ours: the pipelines may edit it instead of copying it.
	return extractFresh(ctx, func() (*html.Node, error) { return parseHTML(in.HTML) }, pageURL, o)
}

// FromNode is Extract over a page the caller has already parsed (with
// golang.org/x/net/html; the tree should be UTF-8 text in NFC, as
// html.Parse of UTF-8 input gives). doc is not modified: the extraction
// prepares a copy (see extract). pageURL may be
// nil. Only opts.Mode applies; there is no size limit.
func FromNode(doc *html.Node, pageURL *url.URL, opts *Options) (*Result, error) {
	o, err := opts.resolve()
	if err != nil {
		return nil, err
	}
	if doc == nil {
		return nil, errs.Invalid("doc", "must not be nil")
	}
	return extractFresh(context.Background(), func() (*html.Node, error) { return cloneTree(doc), nil }, pageURL, o)
}

// minFastText is the least text (runes) fast mode keeps without trying
// accurate mode: go-trafilatura's MinExtractedSize, under which it
// distrusts its own extraction and looks further.
const minFastText = 250

// extractFresh runs extract over a tree fresh() makes, a new one each
// call. In fast mode, a page on which it finds next to nothing (under
// minFastText) is extracted again in accurate mode (Result.Mode says
// so) when it is within accurate mode's bounds: readability gives up on
// pages whose text is not in a container of paragraphs (a thread served
// inside <noscript>, a product's description in a definition list), or
// keeps a caption or the footer's newsletter form, where go-trafilatura
// finds the content. The second run costs only on such pages. (WCXB: 26
// of the 1,497 pages came out empty in fast mode, 15 of them pages with
// content, and 18 under 250 characters; fast mode's F1 0.8319 to 0.8352
// for the empty ones, to 0.8393 with the short ones too.)
func extractFresh(ctx context.Context, fresh func() (*html.Node, error), pageURL *url.URL, o Options) (*Result, error) {
	doc, err := fresh()
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	res := extract(doc, pageURL, o)
	if o.Mode != ModeFast || utf8.RuneCountInString(res.Text) >= minFastText {
		return res, nil
	}
	if doc, err = fresh(); err != nil || !affordsAccurate(doc) || ctx.Err() != nil {
		return res, nil
	}
	o.Mode = ModeAccurate
	return extract(doc, pageURL, o), nil
}

func (m Mode) valid() bool { return m == ModeAccurate || m == ModeFast }

// resolve returns a copy of o with defaults filled in.
func (o *Options) resolve() (Options, error) {
	var r Options
	if o != nil {
		r = *o
	}
	if r.Mode == "" {
		r.Mode = ModeAccurate
	}
	if !r.Mode.valid() {
		return r, errs.Invalid("options.mode", "must be accurate or fast, got %q", r.Mode)
	}
	if r.MaxInputBytes == 0 {
		r.MaxInputBytes = DefaultMaxInputBytes
	}
	if r.TypeModel != nil {
		if err := r.TypeModel.Check(); err != nil {
			return r, errs.Invalid("options.type_model", "%v", err)
		}
	}
	return r, nil
}

// detectType guesses the page's type with the model o names, else the
// shipped one.
func (o Options) detectType(doc *html.Node, pageURL *url.URL) pagetype.Guess {
	if o.TypeModel != nil {
		return o.TypeModel.Detect(doc, pageURL)
	}
	return pagetype.Detect(doc, pageURL)
}

// parsePageURL parses the optional page URL: empty is nil, anything else
// must be an absolute http(s) URL.
func parsePageURL(s string) (*url.URL, error) {
	if s == "" {
		return nil, nil
	}
	u, err := url.Parse(s)
	if err != nil || !u.IsAbs() || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return nil, errs.Invalid("url", "must be an absolute http or https URL, got %q", s)
	}
	return u, nil
}

// parseHTML parses a page as every extraction reads it: invalid UTF-8
// replaced, mojibake repaired and text in NFC (see htmltag.ParseText).
func parseHTML(s string) (*html.Node, error) {
	return htmltag.ParseText(s, "html")
}

// minTypeConfidence is the page-type confidence under which a page is
// extracted as an article whatever its type (chosen on the WCXB
// development set: 0.5–0.6 score best).
const minTypeConfidence = 0.6

// readable edits doc into what a reader of the page sees (a streamed
// page's late parts where its scripts put them, collapsed panels open,
// words that the markup runs together apart, screen-reader-only text and
// skip links gone; see the package doc), and reads what the page says of
// itself.
func readable(doc *html.Node, pageURL *url.URL) pageInfo {
	streamed.Complete(doc)
	revealPanels(doc)
	spaceSiblings(doc)
	// The page's clues are read first: a headline hidden for screen
	// readers is still the page's title.
	info := readPageInfo(doc, pageURL)
	dropAssistiveOnly(doc, info.clues.sheets)
	dropUndrawnSVG(doc)
	return info
}

// extract runs the pipeline of o.Mode over doc, which it edits first
// (see readable).
func extract(doc *html.Node, pageURL *url.URL, o Options) *Result {
	if o.Mode == ModeAccurate && !affordsAccurate(doc) {
		o.Mode = ModeFast // Result.Mode says so
	}
	info := readable(doc, pageURL)
	kind := o.detectType(doc, pageURL)
	// The texts of the page's chrome, read while it is whole (see
	// dropChromeLines), and its footers (see footerOnly).
	chrome, footers := chromeLabels(doc)
	// Chrome marked by ARIA roles goes after the detector has read the
	// page (its model learnt pages whole), before anything extracts.
	dropLandmarkChrome(doc)
	// And what the hidden attribute hides but is not a panel (see
	// dropHidden).
	dropHidden(doc)
	// And the copies of what the page lays out again for other screen
	// sizes (see dropOtherScreens).
	dropOtherScreens(doc, info.clues.sheets)
	// And the dropdown menus of closed <details> (see dropClosedMenus).
	dropClosedMenus(doc)
	// And cookie-consent banners (see dropConsentBanners).
	dropConsentBanners(doc)
	// An unsure guess is extracted as an article, the commonest type and
	// the pipeline that fails most gently on others.
	fit := kind.Type
	if kind.Confidence < minTypeConfidence {
		fit = pagetype.Article
	}
	// An article's reader comments are not its text (see
	// dropCommentSection).
	if kind.Type == pagetype.Article && kind.Confidence >= minCommentedArticleConfidence {
		dropCommentSection(doc)
	}
	// A product page's sections of other products (see
	// otherProductText), read while the page is whole.
	var otherProducts *sectionText
	if fit == pagetype.Product {
		otherProducts = otherProductText(doc)
	}
	// What the pipelines may leave out is found first, while the page is
	// whole: fast mode's readability edits it.
	// The introduction under the headline of a page of any type but
	// article and thread, whose headline stands over a byline, a date
	// and tools (see findHero). The detector's guess counts even when
	// unsure: such pages are extracted as articles, and their hero is
	// the same.
	var intro *hero
	if kind.Type != pagetype.Article && kind.Type != pagetype.Forum {
		intro = findHero(doc)
	}
	// The subheadings and lists beside paragraphs, which the extractors
	// may drop while keeping the paragraph (see findCompanions).
	beside := findCompanions(doc)
	// A collection's, listing's, service page's or thread's items (see
	// pageItems). (A product page's are its related products: on WCXB,
	// adding them cost product pages 0.008 F1.)
	var items []*html.Node
	switch fit {
	case pagetype.Collection, pagetype.Listing, pagetype.Service, pagetype.Forum:
		items = pageItems(doc, fit == pagetype.Forum)
	}
	var res *Result
	// lead is what dropLeadingMeta took from the top of res.Node (the
	// headline): not in Text, but in Markdown.
	var lead []*html.Node
	if o.Mode == ModeFast {
		res, lead = extractFast(doc, info, fit)
	} else {
		res, lead = extractAccurate(doc, pageURL, info, fit)
	}
	withItems(res, items)
	withIntro(res, intro)
	withCompanions(res, beside)
	if o.Mode == ModeAccurate && spanned(fit) && res.Node != nil {
		if span := filledSpan(doc, []*html.Node{res.Node}); span != nil {
			res.Node = span
		}
	}
	// Last, the lines that are a control's label alone ("Share", "Reply
	// with quote", "Add to cart"), whichever step brought them.
	dropInterfaceLines(res.Node)
	// And the short lines that repeat the page's menus, header or footer.
	dropChromeLines(res.Node, chrome)
	dropOtherProductLines(res.Node, otherProducts)
	if repeatsDropped(fit) {
		dropRepeatedBlocks(res.Node)
	}
	if fit == pagetype.Product {
		// A product page is the shop's, not a person's: the names its
		// markup marks as authors are its reviewers' (WCXB: none of the
		// 119 product pages has an author; ours named one on 32).
		res.Byline = ""
	}
	res.PageType, res.PageTypeConfidence = kind.Type, kind.Confidence
	// The date the page's metadata states; else what accurate mode's
	// go-htmldate found.
	res.Published = cmp.Or(info.published, res.Published)
	res.Modified = info.modified
	res.Mode = o.Mode
	res.Title = trimPermalink(res.Title)
	tidyMeta(res)
	finish(res, info, footers)
	// Nothing found: the page's items, if it has a grid of them.
	if res.NoContent {
		itemsInstead(res, doc, kind.Type, info, footers)
	}
	if res.Node != nil {
		// Accurate mode's extractors work on copies, so doc is the page as
		// it was; fast mode's readability may have changed it, and its
		// output is the page's own elements already.
		var region *html.Node
		if o.Mode == ModeAccurate {
			region = findRegion(doc, append(lead, res.Node))
		}
		res.Markdown = articleMarkdown(region, append(lead, res.Node), info.base)
		res.fromTree = o.Mode == ModeAccurate && region == nil
	}
	return res
}

// finish renders Text from res.Node (see articleText), whatever the
// steps before added to it, sets NoContent and the language. A text that
// is the page's footers' is none (see footerOnly).
func finish(res *Result, info pageInfo, footers []*html.Node) {
	if res.Node != nil {
		res.Text = articleText(res.Node)
		if footerOnly(res.Text, footers) {
			res.Text = ""
		}
	}
	// One rule for both pipelines: enough text and a confident detector,
	// else what the page declares, else nothing. Res.Language holds
	// trafilatura's guess, if any (see language).
	res.Language = language(res.Text, info.lang, res.Language)
	if res.Node != nil && res.Node.Parent != nil {
		res.Node.Parent.RemoveChild(res.Node)
	}
	if res.Text == "" {
		res.Node = nil
		res.NoContent = true
	}
}

// spanned reports whether pages of type kind are extracted whole from
// the extraction's first block to its last (see filledSpan).
func spanned(kind pagetype.Type) bool {
	switch kind {
	case pagetype.Service, pagetype.Listing, pagetype.Documentation:
		return true
	}
	return false
}
