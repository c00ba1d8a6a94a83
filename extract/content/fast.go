package content

import (
	"log/slog"
	"net/url"

	readability "codeberg.org/readeck/go-readability/v2"
	"golang.org/x/net/html"

	"github.com/webinfra/webinfra/extract/pagetype"
)

// extractFast is ModeFast: readeck go-readability's article and its
// metadata. An article's or a product's is pruned of boilerplate;
// other types' is kept whole, as pruning cuts their items, code and
// tables more than their boilerplate (measured on the WCXB development
// set). doc is edited.
func extractFast(doc *html.Node, info pageInfo, kind pagetype.Type) (res *Result, lead []*html.Node) {
	res = &Result{}
	var rd *readability.Article
	if kind == pagetype.Article || kind == pagetype.Product {
		rd = readabilityArticle(doc, info.base)
	} else if rd = readabilityRaw(doc, info.base, true); rd != nil && rd.Node != nil {
		stripAttrs(rd.Node)
	}
	readabilityMeta(res, rd)
	res.Title = trimSiteName(res.Title, res.SiteName)
	if rd != nil && rd.Node != nil {
		res.Node = rd.Node
		lead = dropLeadingMeta(res.Node, res.Title, res.Description)
	}
	pageMeta(res, info, rd) // after dropLeadingMeta: the text is cut as before
	return res, lead
}

// readabilityArticle runs readeck go-readability over doc, in place, and
// prunes the article it finds (see prune). Links in it are
// made absolute against base. It returns nil when readability fails.
func readabilityArticle(doc *html.Node, base *url.URL) *readability.Article {
	a := readabilityRaw(doc, base, true)
	if a != nil && a.Node != nil {
		prune(a.Node)
		stripAttrs(a.Node)
	}
	return a
}

// readabilityRaw is readability's article as it found it, classes and
// ids kept (for prune), or nil when readability fails.
func readabilityRaw(doc *html.Node, base *url.URL, mutable bool) *readability.Article {
	p := readability.NewParser()
	p.KeepClasses = true
	// Its default logger discards what it writes, but only after
	// formatting it: Logger.With formats its attributes at once (a
	// preview of the node in hand, for every element it weighs for
	// removal). This one does nothing.
	p.Logger = slog.New(slog.DiscardHandler)
	var a readability.Article
	var err error
	if mutable {
		a, err = p.ParseAndMutate(doc, base)
	} else {
		a, err = p.ParseDocument(doc, base)
	}
	if err != nil {
		return nil
	}
	return &a
}
