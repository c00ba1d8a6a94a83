package content

import (
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	readability "codeberg.org/readeck/go-readability/v2"
	shiori "github.com/go-shiori/go-readability"
	"github.com/markusmobius/go-htmldate"
	trafilatura "github.com/markusmobius/go-trafilatura"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/webinfra/webinfra/extract/pagetype"
	"github.com/webinfra/webinfra/internal/words"
)

// extractAccurate is ModeAccurate: go-trafilatura's main content, with
// readeck go-readability's as its fallback candidate, fitted to the
// page's type:
//
//   - an article is trafilatura's text unless readability's (pruned) is
//     the cleaner cut of the same text (see choose);
//   - a forum thread is trafilatura's with its own fallbacks
//     (go-readability and go-domdistiller), which keep a thread's posts
//     where readeck's readability keeps the first;
//   - a service page is trafilatura's with its fallbacks (extract then
//     fills in the span between its first and last block: see
//     filledSpan);
//   - products, collections, listings and documentation are
//     trafilatura's favouring recall: their content is specs, items, code
//     and tables that precision-minded pruning cuts.
//
// The choice per type is what scored best on the WCXB development set.
// The metadata is trafilatura's, gaps filled from readability's (when it
// ran: see recallBypass), then
// what the page's own clues say (pageMeta: the headline, the byline),
// dates as the page states them (go-htmldate finds the publication date
// of a dated page when it does not: see dated).
func extractAccurate(doc *html.Node, pageURL *url.URL, info pageInfo, kind pagetype.Type) (res *Result, lead []*html.Node) {
	return extractAccurateFrom(doc, pageURL, info, kind, 2*recallBypass)
}

// extractAccurateFrom is extractAccurate, where trafilatura favouring
// recall runs alone first on pages with at least aloneFrom bytes of text
// for it to cut from (see leanCopy). The result is the same whatever
// aloneFrom is; only the time it takes differs.
func extractAccurateFrom(doc *html.Node, pageURL *url.URL, info pageInfo, kind pagetype.Type, aloneFrom int) (res *Result, lead []*html.Node) {
	res = &Result{}
	opts := trafilatura.Options{
		OriginalURL:     pageURL,
		ExcludeComments: true, // comments are not part of the article
		EnableFallback:  true,
	}
	switch kind {
	case pagetype.Product, pagetype.Collection, pagetype.Listing, pagetype.Documentation:
		opts.Focus = trafilatura.FavorRecall
	}
	// Favouring recall, trafilatura keeps its own text when it is long
	// (over recallBypass runes) whatever its fallbacks find: that cut is
	// the result, and readability's metadata is not used (bypassed). So
	// it runs first without them, and readability need not run when its
	// cut is that long. Unless the page has under aloneFrom (twice that)
	// text for it to cut from, when its cut rarely is that long and the run
	// would be wasted (WCXB pages favouring recall: the page's text was
	// that short on 100 of the 130 where its cut fell short, and on 27
	// of the 183 where it did not): then readability runs first, and
	// the result is the bypass's all the same when trafilatura's cut
	// turns out long. It reads the lean copy of the page (see
	// leanCopy); doc is left unchanged.
	lean, text := leanCopy(doc)
	// The publication date is the one the page's metadata states (extract
	// sets it); failing that, on a dated page (see dated), go-htmldate
	// looks further (the URL, <time> elements, the text). It runs here
	// rather than inside trafilatura so that we learn whether it found a
	// time of day and zone, and not at all when the page states the date.
	// It reads the lean copy: the dates in navigation, footers and forms
	// (a copyright year, a calendar, a build stamp) are not the page's.
	// On WCXB that gave 17 fewer dates where the truth has none, the same
	// right ones, and a smaller tree for it to copy and render. Except on
	// a forum thread, where it reads the page: on the lean copy two of
	// the 105 threads' dates went wrong.
	var date htmldate.Result
	if info.published == "" && dated(kind) {
		dopts := htmldate.Options{UseOriginalDate: true, SkipExtensiveSearch: true, ExtractTime: true}
		if pageURL != nil {
			dopts.URL = pageURL.String()
		}
		dates := lean
		if kind == pagetype.Forum {
			dates = doc
		}
		date, _ = htmldate.FromDocument(dates, dopts)
		if !date.DateTime.IsZero() {
			res.Published = formatDate(date)
		}
	}
	opts.HtmlDateOverride = &date // trafilatura's own date is not used
	recall := opts.Focus == trafilatura.FavorRecall
	if recall && text >= aloneFrom {
		alone := opts
		alone.EnableFallback = false
		tr, err := trafilatura.ExtractDocument(lean, alone)
		if err == nil && bypassed(tr, nil) {
			return finishAccurate(res, doc, info, kind, tr, nil)
		}
		recall = false // not bypassed: the run with fallbacks will not be either
	}
	// Readability runs first: its article as found is trafilatura's
	// fallback candidate, and pruned, choose's alternative. A forum's
	// candidate is the one trafilatura would find itself, go-shiori's
	// readability on the page (which keeps a thread's posts where
	// readeck's keeps the first), found here so that trafilatura can
	// read the lean copy.
	var rd *readability.Article
	var candidate func() *html.Node
	if kind == pagetype.Forum {
		candidate = copies(ownFallbackCandidate(doc, pageURL))
	} else if rd = readabilityRaw(doc, info.base, false); rd != nil && rd.Node != nil {
		candidate = func() *html.Node {
			c := cloneTree(rd.Node)
			stripAttrs(c)
			return c
		}
	}
	tr, given := extractTrafilatura(doc, lean, opts, candidate)
	if recall && bypassed(tr, given) {
		return finishAccurate(res, doc, info, kind, tr, nil)
	}
	if rd != nil && rd.Node != nil {
		prune(rd.Node)
		stripAttrs(rd.Node)
	}
	return finishAccurate(res, doc, info, kind, tr, rd)
}

// Accurate mode's bounds on a page's size. go-trafilatura (v1.12.2,
// extractContent) joins the text of every <p> of the page by string
// concatenation, so its time grows with the square of their number: a
// page of nothing but 14,000 short paragraphs took accurate mode 4 s, and
// 55,000 a minute, where the most any WCXB page has is 1,541 (175 ms).
// Its other steps grow faster than the page too: a grid of 61,000
// elements and no <p> took 3.7 s, where the largest WCXB page has 15,797
// elements. A page over either bound is extracted in fast mode
// (Result.Mode tells the caller), which took at most 6.2 s on any of 15
// shapes of 9 MiB page tried (BenchmarkHostilePages keeps five; a grid
// of cards had taken accurate mode 93 s and 2.6 GiB): a caller cannot
// make the server spend minutes on one request.
const (
	maxAccurateParagraphs = 4_000
	maxAccurateElements   = 60_000
)

// affordsAccurate reports whether doc is within accurate mode's bounds.
func affordsAccurate(doc *html.Node) bool {
	elements, paragraphs := 0, 0
	for n := range doc.Descendants() {
		if n.Type != html.ElementNode {
			continue
		}
		elements++
		if n.DataAtom == atom.P {
			paragraphs++
		}
		if elements > maxAccurateElements || paragraphs > maxAccurateParagraphs {
			return false
		}
	}
	return true
}

// dated reports whether pages of type kind are published on a day:
// articles, forum threads and service pages. A product, collection,
// listing or documentation page is not; the dates go-htmldate finds in
// its markup are an item's, a price's, a build's or a revision's. On the
// WCXB development set, running it on those four types too gave no more
// right dates and 64 more dates where the ground truth has none (376
// instead of 312 of 715), while go-htmldate takes some 6% of the time of
// accurate mode on the pages it runs on.
func dated(kind pagetype.Type) bool {
	switch kind {
	case pagetype.Product, pagetype.Collection, pagetype.Listing, pagetype.Documentation:
		return false
	}
	return true
}

// bypassed reports whether tr, trafilatura's result favouring recall,
// is its own cut (not candidate, the readability article it was given,
// nor its last resort) and over recallBypass runes: the result its
// fallbacks were not tried for.
func bypassed(tr *trafilatura.ExtractResult, candidate *html.Node) bool {
	return tr != nil && tr.ContentNode != candidate && ownCut(tr.ContentNode) &&
		utf8.RuneCountInString(tr.ContentText) > recallBypass
}

// extractTrafilatura runs go-trafilatura on lean, doc's lean copy, with
// a copy of its readability fallback candidate (candidate makes one; nil
// when there is none); and again on doc when its answer may depend on
// what the copy left out: when it fails, or when its article is neither
// its own cut nor the candidate (its baseline, or DOM Distiller, which it
// runs itself on the page before its cleaning when the candidate falls
// short). Without a candidate it reads doc alone: the readability it then
// runs itself would read the lean copy. It returns the result, nil when
// it fails on doc too, and the candidate the run that gave it was given.
func extractTrafilatura(doc, lean *html.Node, opts trafilatura.Options, candidate func() *html.Node) (_ *trafilatura.ExtractResult, given *html.Node) {
	if candidate == nil {
		lean = doc
	}
	run := func(page *html.Node) (*trafilatura.ExtractResult, error) {
		// A fresh copy each time: trafilatura edits the candidate it
		// weighs even when it then takes its baseline instead.
		if candidate != nil {
			given = candidate()
			opts.FallbackCandidates = &trafilatura.FallbackCandidates{Readability: given}
		}
		return trafilatura.ExtractDocument(page, opts)
	}
	tr, err := run(lean)
	if lean != doc && (err != nil || !ownCutOrCandidate(tr.ContentNode, opts.FallbackCandidates)) {
		tr, err = run(doc)
	}
	if err != nil {
		return nil, given
	}
	return tr, given
}

// ownFallbackCandidate is the readability fallback go-trafilatura
// (v1.12.2, createFallbackGenerators) finds itself when it is given none:
// go-shiori's readability over the page it was given, or nil when that
// finds nothing. (Without a page URL, trafilatura would give it the
// page's canonical URL; only the candidate's relative links differ, and
// the Markdown resolves links from the page itself.)
func ownFallbackCandidate(doc *html.Node, pageURL *url.URL) *html.Node {
	a, _ := shiori.FromDocument(doc, pageURL)
	return a.Node
}

// copies makes copies of n (cloneTree), or is nil when n is.
func copies(n *html.Node) func() *html.Node {
	if n == nil {
		return nil
	}
	return func() *html.Node { return cloneTree(n) }
}

// ownCutOrCandidate reports whether body, go-trafilatura's article, is
// the readability candidate it was given or its own cut.
func ownCutOrCandidate(body *html.Node, fallback *trafilatura.FallbackCandidates) bool {
	return body != nil && (fallback != nil && body == fallback.Readability || ownCut(body))
}

// ownCut reports whether body, go-trafilatura's article, is its own cut:
// a <body> element, as its baseline's is, but not of the baseline's
// shape.
func ownCut(body *html.Node) bool {
	return body != nil && body.Type == html.ElementNode && body.Data == "body" && !lastResort(body)
}

// recallBypass is the length (runes) of its own text over which
// trafilatura, favouring recall, does not try its fallbacks: ten times
// its default MinExtractedSize.
const recallBypass = 2500

// lastResort reports whether trafilatura's article is what its
// baseline gives: paragraphs of plain text only (the JSON-LD article
// body, the page's paragraphs or its whole text). An extraction of that
// shape is taken for one too, and run again with the fallbacks.
func lastResort(body *html.Node) bool {
	if body == nil {
		return true
	}
	for c := body.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode {
			continue
		}
		if c.Data != "p" {
			return false
		}
		for g := c.FirstChild; g != nil; g = g.NextSibling {
			if g.Type == html.ElementNode {
				return false
			}
		}
	}
	return true
}

// siteNameList is go-trafilatura's site name, a "; "-joined list of the
// names its <meta> tags and JSON-LD give the site, sorted and each name
// once. It joins the names of the organizations a page's JSON-LD
// describes in the order it meets them walking Go maps, which changes
// from run to run: sorted, the same page gives the same answer. And it
// repeats a name the page states twice (og:site_name and the JSON-LD
// publisher, "Craft Music; Craft Music": 84 of the 1,495 WCXB pages it
// named a site for), spelt alike or differing in case, punctuation or
// apostrophe ("It's All Trip To Me; It’s All Trip To Me"): one name.
func siteNameList(names string) string {
	if !strings.Contains(names, "; ") {
		return names
	}
	list := strings.Split(names, "; ")
	slices.Sort(list)
	seen := make(map[string]bool, len(list))
	return strings.Join(slices.DeleteFunc(list, func(n string) bool {
		k := squashKey(n)
		dup := k == "" || seen[k]
		seen[k] = true
		return dup
	}), "; ")
}

// finishAccurate takes the metadata and the article from trafilatura's
// result tr (nil when it failed) and readability's rd (nil when it did
// not run or failed); page is the page they read (see unglue).
func finishAccurate(res *Result, page *html.Node, info pageInfo, kind pagetype.Type, tr *trafilatura.ExtractResult, rd *readability.Article) (_ *Result, lead []*html.Node) {
	if tr != nil {
		m := tr.Metadata
		res.Title, res.Byline, res.SiteName, res.Description = m.Title, m.Author, siteNameList(m.Sitename), m.Description
		res.Image = m.Image
		res.Language = m.Language // a guess, confirmed or replaced by finish
	}
	readabilityMeta(res, rd)
	res.Title = trimSiteName(res.Title, res.SiteName)

	var a, b *html.Node
	var leadA, leadB []*html.Node
	if tr != nil && tr.ContentNode != nil {
		a = tr.ContentNode
		restoreSpaces(a, &pageSpaces{page: page})
		text := &pageText{page: page}
		unglue(a, text)
		rejoinParagraphs(a, text)
		leadA = dropLeadingMeta(a, res.Title, res.Description)
	}
	if rd != nil && rd.Node != nil {
		b = rd.Node
		leadB = dropLeadingMeta(b, res.Title, res.Description)
	}
	if kind == pagetype.Article || a == nil {
		res.Node, res.Text = choose(a, b)
		if res.Node == b && b != nil && a != nil && withLeadingProse(b, res.Text, a) {
			res.Text = renderText(b)
		}
	} else {
		res.Node = a
	}
	switch res.Node {
	case a:
		lead = leadA
	case b:
		lead = leadB
	}
	pageMeta(res, info, rd) // after dropLeadingMeta: the text is cut as before
	return res, lead
}

// choose picks go-trafilatura's article a or readability's b (pruned),
// and returns it with its text (renderText's), or nil.
//
// The two usually agree on the article and differ at its edges. When one
// text holds the other (90% of the shorter's word 4-grams are in the
// longer), the difference is text one extractor kept and the other
// dropped: a headline block, a newsletter box, a related-stories list,
// or the whole page when trafilatura found too little and fell back to
// the page's full text. Measured on the benchmark, that surplus is
// boilerplate far more often than body, so the shorter text wins:
//
//   - b inside a, no longer and at least half as long: b. (When a is
//     inside b and shorter, a is kept as the default.) b is inside a
//     also when a, with its whitespace removed, contains b so:
//     trafilatura's fallback to the page's full text runs blocks
//     together ("TidesThe tide…"), so their word 4-grams no longer
//     match. A surplus larger than b itself is rarely boilerplate
//     alone: readability has kept one part of the content (a thread's
//     last post, one section of a guide, a product's blurb without its
//     specs). On the WCXB development set that rule changed 23 pages,
//     18 for the better (F1 0.8345 to 0.8382 overall, articles 0.9408
//     to 0.9456), the article benchmark none; any bound from 0.4 to 0.7
//     scored within 0.0007 of half.
//   - a inside b (95%) and b more than twice as long, with no line
//     repeated: b. Trafilatura takes the first container that looks like
//     a body, so on pages that split the article into sibling containers
//     it keeps only the first, while readability merges siblings; a
//     surplus that large is the rest of the article. A repeated line (a
//     share bar or "read more" under each item) means b is a listing of
//     several items rather than one long article, and a is kept.
//   - otherwise a, the better extractor on average.
//
// And when readability finds no text at all while trafilatura's is under
// 250 characters, the size below which trafilatura distrusts its own
// extraction and falls back to the page's whole text, the page has no
// article: what a holds is a title and menu.
func choose(a, b *html.Node) (*html.Node, string) {
	if a == nil {
		if b == nil {
			return nil, ""
		}
		return b, renderText(b)
	}
	ta := renderText(a)
	var tb string
	if b != nil {
		tb = renderText(b)
	}
	if strings.TrimSpace(tb) == "" {
		if utf8.RuneCountInString(ta) < 250 {
			return nil, ""
		}
		return a, ta
	}
	sa, sb := shingle(ta), shingle(tb)
	if 2*sb.words < sa.words {
		return a, ta
	}
	switch {
	case sb.words > 0 && sb.words <= sa.words && sb.coveredBy(sa) >= 0.9:
		return b, tb
	case sb.words > 0 && strings.Contains(squash(ta), squash(tb)):
		return b, tb
	case sb.words > 2*sa.words && sa.coveredBy(sb) >= 0.95 && !hasRepeatedLine(tb):
		return b, tb
	}
	return a, ta
}

// squash removes text's whitespace (what unicode.IsSpace calls space,
// as strings.Fields splits at), in one pass and one allocation: it runs
// over whole extractions several times a page.
func squash(text string) string {
	var b strings.Builder
	b.Grow(len(text))
	for text != "" {
		i := words.IndexSpace(text)
		if i < 0 {
			b.WriteString(text)
			break
		}
		b.WriteString(text[:i])
		text = words.TrimLeftSpace(text[i:])
	}
	return b.String()
}

// hasRepeatedLine reports whether a line of two or more words occurs
// twice in text.
func hasRepeatedLine(text string) bool {
	seen := make(map[string]bool)
	for line := range strings.SplitSeq(text, "\n") {
		line = strings.TrimSpace(line)
		if !strings.ContainsAny(line, " \t") {
			continue
		}
		if seen[line] {
			return true
		}
		seen[line] = true
	}
	return false
}

// formatDate formats an htmldate result as RFC 3339: a date-time when the
// page gave a time of day with its zone, else a full-date.
func formatDate(d htmldate.Result) string {
	if d.HasTime && d.HasTimezone {
		return d.DateTime.Format(time.RFC3339)
	}
	return d.DateTime.Format(time.DateOnly)
}

// cloneTree is a deep copy of n, detached.
func cloneTree(n *html.Node) *html.Node {
	c := &html.Node{Type: n.Type, DataAtom: n.DataAtom, Data: n.Data, Namespace: n.Namespace,
		Attr: append([]html.Attribute(nil), n.Attr...)}
	for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
		c.AppendChild(cloneTree(ch))
	}
	return c
}
