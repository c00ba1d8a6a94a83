package crawl

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"

	"github.com/PuerkitoBio/goquery"
	"github.com/andybalholm/cascadia"
	"github.com/gocolly/colly/v2"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/extract/markdown"
	"github.com/webinfra/webinfra/fetch"
)

// This file is the crawl frontier, and the only one that knows colly:
// colly schedules requests (asynchronously), deduplicates URLs, tracks
// depth, parses HTML and detects charsets; everything else (scope, filters,
// robots.txt, budget, rate, results) lives in the crawler and could serve
// another frontier, such as a distributed one.

const acceptHeader = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"

// collyFrontier runs one crawl on a colly collector.
type collyFrontier struct {
	cr       *crawler
	ctx      context.Context
	maxDepth int // colly's depth limit: seeds are colly depth 1

	mu       sync.Mutex
	inflight map[*colly.Request]*pending // requests granted a page
}

// pending is what is known of a page between its request and its end.
type pending struct {
	url   string
	depth int
	title string
	links int
	err   error   // a failure after the response arrived (HTML parsing)
	md    *string // the page as Markdown, converted from colly's parsed tree
}

// runColly crawls from the seeds and the extra (sitemap) URLs until the
// frontier is empty, the budget spent or ctx done.
func (cr *crawler) runColly(ctx context.Context, extra []*url.URL) {
	c := &colly.Collector{}
	c.Init() // not NewCollector: it would also read COLLY_* environment settings
	c.UserAgent = cr.opts.UserAgent
	c.Headers = &http.Header{"Accept": {acceptHeader}}
	c.Async = true
	c.MaxDepth = cr.plan.maxDepth + 1
	c.IgnoreRobotsTxt = true // robots.txt is the crawler's (robots.go)
	c.ParseHTTPErrorResponse = true
	c.DetectCharset = true
	c.MaxBodySize = fetch.DefaultMaxBodyBytes
	c.Context = ctx
	c.WithTransport(cr.limiter) // the fetcher's guarded transport, rate-limited per host
	c.SetRequestTimeout(0)      // the limiter times each request once it is sent
	c.SetRedirectHandler(cr.checkRedirect)

	fr := &collyFrontier{cr: cr, ctx: ctx, maxDepth: c.MaxDepth, inflight: map[*colly.Request]*pending{}}
	c.OnRequest(fr.onRequest)
	c.OnHTML("html", fr.onHTML)
	c.OnError(fr.onError)
	c.OnScraped(fr.onScraped)

	for _, u := range slices.Concat(cr.plan.seeds, extra) {
		if ctx.Err() != nil {
			break
		}
		_ = c.Visit(u.String()) // errors: a duplicate seed
	}
	c.Wait()
	fr.sweep()
}

// onRequest runs before each request: it applies robots.txt and takes the
// page from the budget, or aborts the request.
func (fr *collyFrontier) onRequest(r *colly.Request) {
	cr := fr.cr
	if fr.ctx.Err() != nil {
		r.Abort()
		return
	}
	if !cr.claim(r.URL) { // colly let a duplicate through
		r.Abort()
		return
	}
	p := &pending{url: r.URL.String(), depth: r.Depth - 1}
	if !cr.plan.ignoreRobots {
		ok, err := cr.robots.allowed(fr.ctx, r.URL)
		switch {
		case err != nil && fr.ctx.Err() != nil:
			r.Abort()
			return
		case err != nil:
			r.Abort()
			if cr.reserve() {
				cr.record(Page{URL: p.url, Depth: p.depth, Error: "robots.txt: " + err.Error()}, err)
			}
			return
		case !ok:
			cr.skip(p.url)
			r.Abort()
			return
		}
	}
	if !cr.reserve() {
		r.Abort()
		return
	}
	fr.mu.Lock()
	fr.inflight[r] = p
	fr.mu.Unlock()
}

func (fr *collyFrontier) lookup(r *colly.Request) *pending {
	fr.mu.Lock()
	defer fr.mu.Unlock()
	return fr.inflight[r]
}

func (fr *collyFrontier) untrack(r *colly.Request) *pending {
	fr.mu.Lock()
	defer fr.mu.Unlock()
	p := fr.inflight[r]
	delete(fr.inflight, r)
	return p
}

// Selectors compiled once: goquery's Find would compile them per page.
var (
	titleSel = cascadia.MustCompile("title")
	baseSel  = cascadia.MustCompile("base[href]")
	linkSel  = cascadia.MustCompile("a[href]")
)

// onHTML reads an HTML page's title and links, and follows the links of
// successful pages.
func (fr *collyFrontier) onHTML(e *colly.HTMLElement) {
	p := fr.lookup(e.Request)
	if p == nil {
		return
	}
	p.title = strings.TrimSpace(e.DOM.FindMatcher(titleSel).First().Text())
	if fr.cr.plan.format != FormatHTML && len(e.DOM.Nodes) > 0 {
		// colly parsed the page already: walking its tree is several times
		// quicker than converting the bytes again.
		md := markdown.FromNode(e.DOM.Nodes[0], e.Request.URL)
		p.md = &md
	}
	follow := e.Response.StatusCode < 300 && e.Request.Depth < fr.maxDepth
	base := pageBase(e.Request.URL, e.DOM)
	seen := map[string]bool{}
	e.DOM.FindMatcher(linkSel).Each(func(_ int, s *goquery.Selection) {
		href, _ := s.Attr("href")
		u := linkURL(e.Request, base, href)
		if u == nil {
			return
		}
		key := u.String()
		if seen[key] {
			return
		}
		seen[key] = true
		if follow {
			fr.follow(e.Request, u, key)
		}
	})
	p.links = len(seen)
}

// follow schedules a link when the crawl admits it and the budget allows.
func (fr *collyFrontier) follow(from *colly.Request, u *url.URL, key string) {
	if fr.ctx.Err() != nil || !fr.cr.admit(u) {
		return
	}
	if fr.cr.full() { // a page the budget leaves out makes the result truncated
		if seen, err := from.HasVisited(key); err == nil && !seen && fr.cr.robotsAllow(fr.ctx, u) {
			fr.cr.markTruncated()
		}
		return
	}
	_ = from.Visit(key) // errors: already visited, too deep
}

// pageBase is the URL a page's relative links resolve against: its
// <base href> resolved against the page's URL, else the page's URL.
func pageBase(pageURL *url.URL, doc *goquery.Selection) *url.URL {
	if href, ok := doc.FindMatcher(baseSel).First().Attr("href"); ok {
		if ref, err := url.Parse(strings.TrimSpace(href)); err == nil {
			return pageURL.ResolveReference(ref)
		}
	}
	return pageURL
}

// linkURL resolves an href against base, keeping http(s) URLs without
// their fragment; links to a fragment of the page itself are not links.
// net/url resolves (it is much cheaper than colly's WHATWG parser, which
// is still used, through colly, for an href net/url cannot parse).
func linkURL(r *colly.Request, base *url.URL, href string) *url.URL {
	href = strings.TrimSpace(href)
	if href == "" || strings.HasPrefix(href, "#") {
		return nil
	}
	var u *url.URL
	if ref, err := url.Parse(href); err == nil {
		u = base.ResolveReference(ref)
	} else if abs := r.AbsoluteURL(href); abs != "" {
		if u, err = url.Parse(abs); err != nil {
			return nil
		}
	} else {
		return nil
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil
	}
	u.Fragment, u.RawFragment = "", ""
	return u
}

// onScraped runs once a response has been handled: the page is done.
func (fr *collyFrontier) onScraped(resp *colly.Response) {
	p := fr.untrack(resp.Request)
	if p == nil {
		return
	}
	var header http.Header
	if resp.Headers != nil {
		header = *resp.Headers
	}
	page := fr.cr.page(p.url, resp.Request.URL.String(), p.depth, resp.StatusCode, header, resp.Body, p.md)
	page.Title, page.Links = p.title, p.links
	if p.err != nil && page.Error == "" {
		page.Error = p.err.Error()
	}
	fr.cr.record(page, nil)
}

// onError runs when a request fails, or when handling its response does.
func (fr *collyFrontier) onError(resp *colly.Response, err error) {
	if resp.StatusCode != 0 { // the response arrived; onScraped still follows
		if p := fr.lookup(resp.Request); p != nil {
			p.err = err
		}
		return
	}
	p := fr.untrack(resp.Request)
	if p == nil {
		return
	}
	var visited *colly.AlreadyVisitedError
	switch {
	case fr.ctx.Err() != nil: // cancelled: not a page
		return
	case errors.As(err, &visited) || errors.Is(err, errDuplicate): // redirected to a page already crawled
		fr.cr.release()
		return
	}
	fr.cr.record(Page{URL: p.url, Depth: p.depth, Error: err.Error()}, err)
}

// sweep ends the requests colly dropped without a callback: it does so
// when a response's declared charset cannot be decoded.
func (fr *collyFrontier) sweep() {
	fr.mu.Lock()
	left := fr.inflight
	fr.inflight = map[*colly.Request]*pending{}
	fr.mu.Unlock()
	if fr.ctx.Err() != nil {
		return
	}
	for _, p := range left {
		err := errs.New(errs.KindUpstream, "the response could not be decoded to UTF-8")
		fr.cr.record(Page{URL: p.url, Depth: p.depth, Error: err.Error()}, err)
	}
}
