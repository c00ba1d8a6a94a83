// Package structured reads a page's structured data: a pure function over
// HTML (it fetches nothing) that returns every source normalized into one
// document, each source in its own section. It backs
// POST /v1/extract/structured.
//
//	res, err := structured.Extract(ctx, structured.Input{HTML: page, BaseURL: "https://example.com/a"}, nil)
//	if err != nil { ... }
//	fmt.Println(res.OpenGraph["og:title"], len(res.Microdata))
//
// FromNode does the same over a tree already parsed with
// golang.org/x/net/html, so a caller that parsed the page once can reuse it.
//
// # Sections
//
// A section the page lacks is nil and left out of the JSON.
//
//   - json_ld: every <script type="application/ld+json"> block, parsed.
//     Top-level arrays and @graph are flattened into one list of items, and
//     an item taken out of a @graph or array keeps the enclosing @context.
//     Real-world breakage is repaired: CDATA and HTML-comment wrappers, a
//     byte-order mark, trailing commas, missing commas, /* */ and //
//     comments, raw control characters in strings, invalid escapes such as
//     \', single-quoted strings, unescaped quotes inside strings, and
//     several objects one after another in a block. A block that still
//     cannot be read (or is over Options.MaxJSONLDBytes) is reported in
//     json_ld.errors with its index; the items read before the fault are
//     kept. json_ld.types lists every @type found, nested objects included.
//   - microdata: items per the WHATWG microdata algorithm: itemscope,
//     itemtype (several types allowed), itemid, itemprop (several names
//     allowed), itemref, nested items as property values. Values come from
//     content (meta), src (img, audio, video, iframe, embed, source, track),
//     href (a, area, link), data (object), value (data, meter), datetime
//     (time) or the visible text (scripts and styles left out, blocks set
//     apart), white space collapsed; URLs are made absolute. An itemref
//     cycle ends where an item would contain itself.
//   - rdfa: RDFa Lite (vocab, typeof, property, resource, prefix) in the
//     same item shape: typeof starts an item whose types are expanded to
//     IRIs and whose id is its resource (else about, href or src, as
//     Drupal writes it); property adds a value to the nearest item. Properties outside an
//     item (such as OpenGraph <meta property>) are left to their sections.
//   - open_graph: og:, article:, product:, music:, video:, book: and
//     profile: properties (property= or name=). og:image, og:video,
//     og:audio and every property with sub-properties are lists of objects
//     ({"url": ..., "width": ...}); repeatable properties (article:tag,
//     og:locale:alternate, ...) lists of strings; others strings.
//   - twitter: twitter:* card properties (name= or property=).
//   - meta: the title, description, keywords, author, robots, viewport,
//     theme-color, generator, charset and language, published and modified
//     dates picked from the usual hints, Dublin Core grouped, and every
//     other name/content pair in other.
//   - links: canonical, amphtml, prev, next, manifest, alternates
//     (hreflang), feeds (RSS, Atom, JSON Feed), icons and oEmbed endpoints.
//
// URLs in links, microdata, RDFa resources, og:url, OpenGraph media and
// Twitter images are made absolute against Input.BaseURL and the page's
// <base href>; JSON-LD is returned as written.
//
// # Limits
//
// Options caps the work on one page: the HTML's size (errs.KindTooLarge),
// the length of every list (MaxItems), the property values of microdata
// and RDFa (MaxValues), one JSON-LD block's size (MaxJSONLDBytes) and how
// deeply items nest (MaxDepth). The microdata crawl visits at most a few
// times the page's elements whatever itemref does. A section cut short by
// a cap is named in Result.Truncated; nothing else is an error.
package structured
