// Package content finds the main content of an HTML page (the article)
// and its metadata: a pure function over HTML, nothing fetched. It backs
// POST /v1/extract/clean and feeds LLM-ready chunking.
//
// Extract takes the page as a string (Input, also the endpoint's JSON
// body); FromNode takes a tree the caller already parsed. Both return the
// article as plain text, as Markdown and as an *html.Node, with its
// title, byline, published and modified dates (RFC 3339), language
// (ISO 639-1), site name, description and lead image.
//
// # Modes
//
// ModeAccurate (the default) parses the page once with x/net/html and
// runs two extractors over the same tree:
//
//   - go-trafilatura (markusmobius/go-trafilatura), comments excluded,
//     with the publication date taken from the page's metadata or,
//     failing that on an article, thread or service page, go-htmldate
//     (fast mode), and its fallback on: when
//     its own cut is short, it weighs readability's article (ours, as
//     readability found it, so nothing runs twice) and, if still short,
//     DOM Distiller's. Measured on the WCXB development split (seven
//     page types) this took F1 from 0.765 to 0.803 (trafilatura alone
//     0.767); on the article benchmark it changes nothing;
//   - readeck go-readability (codeberg.org/readeck/go-readability/v2),
//     run first, whose article is then pruned of boilerplate it keeps
//     inside the container it picks (prune: captions, header/footer/nav/aside,
//     link lists, elements whose class or id says byline, date, share,
//     related, newsletter and the like).
//
// It keeps trafilatura's article unless the two texts nest and
// readability's is the shorter but at least half as long (or,
// trafilatura having stopped at the first of several sections, more
// than twice as long): see choose for the rules and why. When it keeps
// readability's, an introduction of two paragraphs or more that only
// trafilatura's has, before the text the two share, goes before it
// (withLeadingProse). ModeFast runs the pruned readability alone, about
// twice as fast, for 0.2 points of F1; a page on which it finds under
// 250 characters is extracted in accurate mode instead (see
// extractFresh; WCXB fast 0.8319 to 0.8393).
//
// go-trafilatura is given a lean copy of the page (leanCopy): without the
// navigation, footers, asides, scripts, SVG, buttons and form fields that
// its cleaning step deletes before it looks for the article, 40% of a
// WCXB page's nodes, which it would otherwise copy four times and search
// through. Its own cut is the same (checked on every WCXB page); where
// its answer comes from a last resort that reads the page before
// cleaning (its baseline, its own fallback extractors), it runs again on
// the page itself. On WCXB this made accurate mode 10% faster, with the
// same text on all but three pages (+0.0002 to +0.0005 F1) and six
// bylines fewer taken from page footers ("Bluesky", "Fediverse").
//
// Both modes first detect the page's type (extract/pagetype: article,
// forum, product, collection, listing, documentation or service; in
// Result.PageType) and fit the pipeline to it when the guess is
// confident (0.6 or more): see extractAccurate and extractFast. On the
// WCXB development split this took accurate mode's F1 from 0.803 to
// 0.817 and fast mode's from 0.777 to 0.785, and every type to at least
// go-trafilatura's.
//
// On a collection, a listing, a service page or a forum thread, both
// modes then add the page's items that the extraction lacks: the cards or
// posts of its item
// grid, found as the element whose children repeat one shape and each
// hold a link and more words than a menu entry (see items.go); posts are
// pruned of share bars and the like, cards are kept whole. A thread's
// post takes what lies between it and the next (withFollowers: rows of
// alternating classes, replies nested beside a post), and a post's own
// id class does not make it a shape of its own (shaper).
// go-trafilatura drops product grids as link lists and keeps a thread's
// first posts. On WCXB this took accurate mode's collections from 0.590
// to 0.618, listings from 0.609 to 0.632, service pages from 0.780 to
// 0.795 and forums from 0.646 to 0.684 (fast: 0.515 to 0.553, 0.488 to
// 0.546, 0.742 to 0.760, 0.487 to 0.545), `with` snippets found from
// 73.1% to 74.8% and `without` from 6.4% to 6.7%;
// on the article benchmark one news article taken for a listing (0.70)
// gained five teasers, 0.9759 to 0.9746. Empty elements and scripts
// between a grid's children are no shape of it: Invision Community's
// two empty permalink targets per post outnumbered the posts (forums
// 0.707 to 0.744, fast 0.552 to 0.593; overall 0.8495 to 0.8524).
// A page of any type on which both modes find nothing (or only its
// footer) gives its item grid instead (itemsInstead): a shop's search
// results, links from title to price, had come out empty (WCXB listings
// 0.6928 to 0.6978, fast 0.5799 to 0.5917).
//
// On a service page, a listing or documentation, accurate mode's text
// then runs whole from the extraction's first block to its last, chrome
// and lone button links left out (see filledSpan): go-trafilatura cuts
// testimonials, feature cards and entries between the text it keeps
// (WCXB: service 0.8164 to 0.8296, listings 0.6621 to 0.6768,
// documentation 0.9344 to 0.9377, overall 0.8540 to 0.8566; the article
// benchmark 0.9742 to 0.9730).
//
// A text that is, nine words in ten, the page's footer's is no content
// (see footerOnly): the page is a shell its scripts fill, and the
// extractors fell back on its footer (WCXB: products 0.6327 to 0.6579,
// overall 0.8566 to 0.8599).
//
// On threads, products, collections and service pages a block that
// repeats an earlier one word for word is dropped (see
// dropRepeatedBlocks): a reply's preview of its parent post, a
// description rendered twice (WCXB: forums 0.7515 to 0.7680, overall
// 0.8599 to 0.8627), a landing page's section of short lines rendered
// for desktop and for mobile (0.8673 to 0.8680).
//
// Both modes then drop the headline and standfirst from the top of the
// body (they are in Title and Description), put back the spaces
// go-trafilatura drops around inline elements (where the page had them:
// see pageSpaces), split the words it runs
// together where it flattens blocks (unglue) and join the paragraphs it
// cuts before an inline element (rejoinParagraphs), and render the text
// block-aware (paragraphs separated by blank lines; list items marked
// "- " or numbered, table rows "| a | b |", as trafilatura's text output
// and the WCXB ground truth write them: see articleText). Every heuristic is
// generic: none is keyed on a site, a URL or a language.
//
// Pages are parsed as a crawler reads them, so that a <noscript> holds
// markup: forums such as Discourse's serve their whole thread there (F1
// on WCXB forums 0.576 to 0.646); each <noscript> still ends at its
// </noscript>, as in a browser (internal/htmltag.Parse), so a tag
// manager's `<noscript><iframe ... /></noscript>` cannot turn the rest of
// the page into the iframe's text (a service page, 0.03 to 0.96). Then the page is made
// what a reader sees: a streamed page's late parts are moved where its
// scripts would put them (extract/streamed: React's streaming renderer
// sends them hidden at the end, after a "Loading..." fallback);
// collapsed disclosure panels, an accordion's or a tab's, are un-hidden
// (revealPanels; the extractors drop what is marked hidden), and a
// space is put between sibling elements whose words the markup runs
// together (spaceSiblings). On WCXB the three took accurate mode's F1
// from 0.8306 to 0.8334 and `with` snippets from 74.8% to 75.5%
// (fast mode 0.7980 to 0.8045); the article benchmark did not change.
// Last, what only screen readers read is removed: text put off-screen
// by the CSS frameworks' sr-only classes, or by classes of the site's
// own that its stylesheet hides so (visuallyHiddenClasses), and skip
// links (dropAssistiveOnly; 0.8382 to 0.8395, fast 0.8054 to 0.8070;
// the site's own classes 0.8694 to 0.8703), and
// what inline SVG holds but never draws, an icon sprite's titles among it
// (dropUndrawnSVG; six pages better, listings 0.6848 to 0.6863). After
// the page type is detected, the chrome that ARIA landmark roles mark on
// generic elements goes too, as the extractors drop <header>, <nav>,
// <footer> and <aside> (dropLandmarkChrome: a <div role="banner"> whose
// language menu was taken for a product's description; 0.8395 to
// 0.8440, products 0.600 to 0.624, listings 0.636 to 0.658, forums
// 0.695 to 0.701), and so does what the hidden attribute hides and no
// control opens (dropHidden: an auction's "why you are seeing this ad"
// dialogs; 0.8641 to 0.8646, products 0.6668 to 0.6713), and the
// copies a responsive page lays out for other screen sizes, hidden at
// the renderer's 1,280 pixels by media queries and drawn elsewhere on
// the page (dropOtherScreens: a blog post laid out thrice; 0.8703 to
// 0.8713), and, on a
// page the detector is at least 0.8 sure is an article, the readers'
// comment section, which go-trafilatura means to take out but does not
// (dropCommentSection: a blog post's 59 comments; articles 0.9512 to
// 0.9520), and cookie-consent banners outside the page's <main> and
// <article> (dropConsentBanners: a category page of link cards came out
// as its banner's paragraph; 0.8657 to 0.8667, fast 0.8393 to 0.8406),
// and the dropdown menus built of a closed <details>, which a browser
// does not draw (dropClosedMenus: a list of repositories came out under
// its language picker's 180 languages; 0.8667 to 0.8673).
// On pages not
// taken for articles or threads, the introduction under the headline
// that the extraction lacks is put before it (findHero: a hero
// section's pitch; 0.8440 to 0.8457, fast 0.8079 to 0.8104). Last, what the extractor dropped beside a paragraph
// it kept is put back (findCompanions): the subheading over it
// (go-trafilatura drops headings holding anchors, or sharing a link with
// their teaser; 0.8457 to 0.8470) and the list under it (0.8470 to
// 0.8495). Then the lines that are a control's label alone go
// (dropInterfaceLines: "Share", "Reply with quote", "Add to cart",
// "Advertisement", a fixed list of common labels, also where they stand
// between blocks as bare text or a lone link, and a forum author's
// counters; `without` 5.9% to 5.6%, every type's F1 up or unchanged),
// and the short lines that repeat the page's menus, header or footer
// (dropChromeLines; with the second list of labels, `without` counted
// as evaluate.py does 6.50% to 5.85%, F1 0.8532 to 0.8535). On a
// product page, the lines of its sections of other products go last
// ("Customers also bought", "Frequently bought together": see
// otherProductText; twelve pages changed, all for the better, products
// 0.6320 to 0.6326 and their `without` 8.3% to 7.6%).
//
// # Markdown
//
// The article's Markdown is the page's own markup of the extracted text,
// rendered by the converter the whole-page markdown format uses
// (extract/markdown), so the two agree: links (absolute), headings (the
// headline included), inline code, code blocks with their language,
// tables and images. go-trafilatura's output cannot give it: without
// links it scores better but loses them, and it splits sentences around
// inline code. So in accurate mode findRegion looks for the extracted
// text in the page (text with whitespace removed, matched run by run
// along unique anchors, the rest aligned in turn for parts the
// extraction holds in another order, then out of order for what
// trafilatura moved) and copies the elements that hold it; where less
// than three quarters of what the page holds is found (16 of 1,678 pages
// of the two sets), the extractor's tree is rendered instead. Fast mode's readability output is
// the page's own elements already. Permalink anchors ("¶" beside a
// heading) are left out by the converter. TestMarkdownFidelity checks
// every page of both sets against the whole-page Markdown.
//
// A page without an article is not an error: Result.NoContent is set,
// Text and Markdown are empty and the metadata is kept. Empty input,
// an unknown mode and a malformed URL are errs.KindInvalid; input over
// Options.MaxInputBytes (10 MiB by default) is errs.KindTooLarge.
//
// # Quality and speed
//
// Measured on the 181-page article-extraction benchmark (Zyte's, in
// internal/articlebench), scoring the plain text by word 4-gram
// precision and recall as the benchmark's README describes, and one
// goroutine per variant, each call starting from the page's bytes
// (parse included), medians of 3 runs on the same machine:
//
//	                 precision  recall  F1      pages/s  pages/cpu-s
//	ours/accurate    0.9614     0.9848  0.9730  95.8     103
//	ours/fast        0.9559     0.9887  0.9720  208      221
//	go-trafilatura   0.9454     0.9787  0.9618  95.0     103   (trafilatura.Extract, defaults)
//	readeck          0.9180     0.9887  0.9520  132      141   (readability.FromReader)
//
// go-trafilatura's and readability's own calls detect the charset and
// NFC-normalize through go-shiori/dom.Parse, which costs them a third of
// their CPU time (its charset detector runs a goroutine per encoding, so
// part of it runs on another core: pages/cpu-s counts it); the input
// here is UTF-8 already, so this package parses with html.Parse, which
// pays for running readability alongside trafilatura in accurate mode.
// Before it parses, the page's mojibake is repaired (UTF-8 that went
// through Latin-1 or Windows-1252 and back: see htmltag.ParseText).
// (F1 measured with the item grids of collections, listings, service
// pages and threads; the speeds before them, on code that differs on one
// benchmark page.) Measured again on 2026-11-30, one core, page by page
// beside the library (BenchmarkPaired, medians of 3), on that day's
// last machine (an Intel Xeon): accurate 1.11× go-trafilatura's pages/s
// on this benchmark and 1.01× on the WCXB development set; fast 1.63×
// and 1.26× readeck's (see the README, which says how the ratios move
// from machine to machine: WCXB accurate has been 1.00× to 1.06×, fast
// 1.26× to 1.40×).
//
// How each choice was measured (F1 on the same benchmark, during
// tuning): go-trafilatura's defaults score 0.9618; EnableFallback with
// its own fallback candidates 0.9597 (with ours, in accurate mode, no
// change),
// with FavorPrecision 0.9558, with FavorRecall 0.9509; IncludeLinks,
// ExcludeTables and FavorRecall alone lower it, ExcludeComments and
// Deduplicate change nothing. Dropping the headline and standfirst
// raises it to 0.966; taking readability's article when it is a
// shorter cut of the same text, to 0.973; the sibling-sections rule, to
// 0.976. Readability alone scores 0.952; pruning captions, page chrome
// and link lists brings it to 0.963, class and id hints to 0.974.
//
// TestQuality fails when either mode's F1 falls below its gate. To
// reproduce the figures:
//
//	go test -run TestQuality -v ./extract/content/
//	go test -run '^$' -bench 'Extract$' -benchtime 2x -count 3 ./extract/content/
package content
