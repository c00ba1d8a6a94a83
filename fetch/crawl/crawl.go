package crawl

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"

	"golang.org/x/time/rate"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/fetch"
)

// DefaultUserAgent is sent with crawl requests when Options.UserAgent is
// empty; robots.txt groups are matched against its product token,
// "webinfra-crawler".
const DefaultUserAgent = "Mozilla/5.0 (compatible; webinfra-crawler/1.0; +https://github.com/webinfra/webinfra)"

// DefaultParallelism is how many requests a crawl has in flight to any one
// host when Options.Parallelism is 0.
const DefaultParallelism = 4

// maxParallelism bounds Options.Parallelism.
const maxParallelism = 64

// maxRedirects is how many redirects one page may follow.
const maxRedirects = 10

// Options configure Crawl. Nil means defaults.
type Options struct {
	// UserAgent is sent with every crawl request, robots.txt and sitemaps
	// included; empty means DefaultUserAgent. robots.txt groups are matched
	// against its product token (the name before the first "/", after
	// "compatible;" when present).
	UserAgent string
	// OnPage, when set, is called once for every page as it finishes, so
	// callers can stream results. Calls come from the crawl's goroutines
	// but never overlap; a slow OnPage slows the crawl.
	OnPage func(Page)
	// OnProgress, when set, is called with the crawl's running counts
	// each time a page is granted a request, gives it back (a redirect to
	// a page already crawled) or finishes (after OnPage), for a progress
	// display. Calls never overlap one another or OnPage, and each sees
	// counts at least as recent as the one before; a slow OnProgress
	// slows the crawl. Setting it changes nothing else.
	OnProgress func(Progress)
	// Parallelism is the most requests in flight to any one host; 0 means
	// DefaultParallelism.
	Parallelism int
	// Unthrottled lifts the per-host request rate (Request.RatePerHost is
	// then ignored); Parallelism still applies. For crawls of one's own
	// sites and for benchmarks: the HTTP API never sets it.
	Unthrottled bool
}

// Progress is a crawl's running count, as Options.OnProgress receives it.
type Progress struct {
	Done   int // pages finished, crawled or failed: the pages of the Result so far
	Failed int // of Done, the pages that failed (Result.Failed so far)
	Queued int // pages granted a request that have not finished: waiting for their host's rate limit or in flight
}

func (o *Options) resolve() (Options, error) {
	var r Options
	if o != nil {
		r = *o
	}
	if r.UserAgent == "" {
		r.UserAgent = DefaultUserAgent
	}
	switch {
	case r.Parallelism < 0 || r.Parallelism > maxParallelism:
		return r, errs.Invalid("options.parallelism", "must be between 0 and %d, got %d", maxParallelism, r.Parallelism)
	case r.Parallelism == 0:
		r.Parallelism = DefaultParallelism
	}
	return r, nil
}

// Crawl crawls from req.Seeds and returns every page fetched. It validates
// req first (errs.KindInvalid naming the field) and refuses seeds the
// fetcher's SSRF guard forbids (errs.KindForbidden) before any request is
// made; the guard also checks every later connection, redirects included.
// When no page could be fetched at all, the error of the first failure is
// returned with its kind. When ctx ends, scheduling stops, in-flight
// requests are cancelled, and Crawl returns the pages finished so far
// together with an error wrapping ctx's.
func Crawl(ctx context.Context, f *fetch.Fetcher, req Request, opts *Options) (*Result, error) {
	if f == nil {
		return nil, errs.New(errs.KindInternal, "crawl: no fetcher")
	}
	p, err := req.plan()
	if err != nil {
		return nil, err
	}
	o, err := opts.resolve()
	if err != nil {
		return nil, err
	}
	if err := checkSeeds(ctx, f, p.seeds); err != nil {
		return nil, err
	}
	cr := newCrawler(f, p, o)
	var extra []*url.URL
	if p.sitemap {
		extra = cr.sitemapSeeds(ctx, 2*p.maxPages)
	}
	cr.runColly(ctx, extra)
	return cr.finish(ctx)
}

// checkSeeds refuses the crawl when the SSRF guard forbids a seed. Other
// problems (a name that does not resolve) are left to the crawl, where
// they become failed pages.
func checkSeeds(ctx context.Context, f *fetch.Fetcher, seeds []*url.URL) error {
	for i, s := range seeds {
		err := f.CheckTarget(ctx, s.String())
		if ctx.Err() != nil {
			return fmt.Errorf("crawl: %w", ctx.Err())
		}
		if errs.Is(err, errs.KindForbidden) {
			return &errs.Error{Kind: errs.KindForbidden, Field: fmt.Sprintf("seeds[%d]", i), Message: "cannot be crawled", Err: err}
		}
	}
	return nil
}

// crawler is the frontier-independent part of a crawl: scope and filters,
// robots.txt, the page budget and the results. The frontier (colly.go)
// schedules requests and calls into it.
type crawler struct {
	f       *fetch.Fetcher
	plan    *plan
	opts    Options
	scope   scope
	robots  *robotsCache
	limiter *hostLimiter

	mu        sync.Mutex
	reserved  int // pages granted a request, ≤ plan.maxPages
	truncated bool
	skipped   map[string]bool // URLs robots.txt kept us from
	claimed   map[string]bool // canonical URLs requested (or refused) once
	pages     []Page
	crawled   int
	failed    int
	answered  int // pages with any HTTP status, failed ones included
	firstErr  error

	emitMu sync.Mutex // serializes Options.OnPage and Options.OnProgress
}

func newCrawler(f *fetch.Fetcher, p *plan, o Options) *crawler {
	perSecond := rate.Limit(p.rate)
	if o.Unthrottled {
		perSecond = rate.Inf
	}
	timeout := f.Client().Timeout
	if timeout <= 0 {
		timeout = fetch.DefaultTimeout
	}
	cr := &crawler{
		f:       f,
		plan:    p,
		opts:    o,
		scope:   newScope(p.seeds, p.allowSubdomains),
		robots:  newRobotsCache(f, o.UserAgent),
		limiter: newHostLimiter(f.Client().Transport, o.Parallelism, perSecond, timeout),
		skipped: map[string]bool{},
		claimed: map[string]bool{},
	}
	cr.robots.onCrawlDelay = cr.limiter.slowTo // a site's Crawl-delay slows its host
	return cr
}

// admit reports whether a discovered URL may be crawled: on the crawl's
// sites, matching an include pattern when there are any, and no exclude
// pattern. Seeds are not passed through admit.
func (cr *crawler) admit(u *url.URL) bool {
	if !cr.scope.contains(u) {
		return false
	}
	s := u.String()
	for _, re := range cr.plan.exclude {
		if re.MatchString(s) {
			return false
		}
	}
	if len(cr.plan.include) == 0 {
		return true
	}
	for _, re := range cr.plan.include {
		if re.MatchString(s) {
			return true
		}
	}
	return false
}

// claim reports whether u is new to the crawl, marking it seen. It makes
// "every page once" hold whatever the frontier does: colly's visited check
// is a test followed by a set, so two goroutines can both pass it for one
// URL.
func (cr *crawler) claim(u *url.URL) bool {
	key := canonicalKey(u)
	cr.mu.Lock()
	defer cr.mu.Unlock()
	if cr.claimed[key] {
		return false
	}
	cr.claimed[key] = true
	return true
}

// canonicalKey spells a URL one way: scheme and host in lower case, no
// default port, "/" for an empty path, no fragment.
func canonicalKey(u *url.URL) string {
	c := *u
	c.Scheme = strings.ToLower(c.Scheme)
	host, port := strings.ToLower(c.Hostname()), explicitPort(&c)
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port != "" {
		host += ":" + port
	}
	c.Host = host
	if c.Path == "" && c.RawPath == "" && c.Opaque == "" {
		c.Path = "/"
	}
	c.Fragment, c.RawFragment = "", ""
	return c.String()
}

// errDuplicate refuses a redirect to a URL the crawl has already claimed.
var errDuplicate = errors.New("redirects to a URL already crawled")

// reserve takes one page from the budget; false (and the result marked
// truncated) when it is spent.
func (cr *crawler) reserve() bool {
	cr.mu.Lock()
	if cr.reserved >= cr.plan.maxPages {
		cr.truncated = true
		cr.mu.Unlock()
		return false
	}
	cr.reserved++
	cr.mu.Unlock()
	cr.reportProgress()
	return true
}

// release gives back a page reserved for a request that turned out not to
// be a page of its own (it redirected to a page already crawled).
func (cr *crawler) release() {
	cr.mu.Lock()
	cr.reserved--
	cr.mu.Unlock()
	cr.reportProgress()
}

// reportProgress calls Options.OnProgress, when set, with the counts as
// they are now. The counts are read under emitMu, so successive calls
// never go back in time.
func (cr *crawler) reportProgress() {
	if cr.opts.OnProgress == nil {
		return
	}
	cr.emitMu.Lock()
	defer cr.emitMu.Unlock()
	cr.mu.Lock()
	p := Progress{Done: len(cr.pages), Failed: cr.failed, Queued: cr.reserved - len(cr.pages)}
	cr.mu.Unlock()
	cr.opts.OnProgress(p)
}

// full reports whether the budget is spent.
func (cr *crawler) full() bool {
	cr.mu.Lock()
	defer cr.mu.Unlock()
	return cr.reserved >= cr.plan.maxPages
}

func (cr *crawler) markTruncated() {
	cr.mu.Lock()
	cr.truncated = true
	cr.mu.Unlock()
}

// robotsAllow reports whether robots.txt lets the crawl fetch u (true when
// robots.txt is ignored or cannot be fetched).
func (cr *crawler) robotsAllow(ctx context.Context, u *url.URL) bool {
	if cr.plan.ignoreRobots {
		return true
	}
	ok, err := cr.robots.allowed(ctx, u)
	return ok || err != nil
}

// skip notes a URL robots.txt disallows.
func (cr *crawler) skip(u string) {
	cr.mu.Lock()
	cr.skipped[u] = true
	cr.mu.Unlock()
}

// record adds a finished page to the result and streams it. A page
// answered below 400 counts as crawled; one answered 400 or more (reported
// with its status) or not answered at all counts as failed, and is not
// charged. err is the cause of a fetch that got no answer.
func (cr *crawler) record(p Page, err error) {
	cr.mu.Lock()
	cr.pages = append(cr.pages, p)
	switch {
	case p.StatusCode == 0:
		cr.failed++
		if cr.firstErr == nil {
			cr.firstErr = err
		}
	case p.StatusCode >= 400:
		cr.failed++
		cr.answered++
	default:
		cr.crawled++
		cr.answered++
	}
	cr.mu.Unlock()
	if cr.opts.OnPage != nil {
		cr.emitMu.Lock()
		cr.opts.OnPage(p)
		cr.emitMu.Unlock()
	}
	cr.reportProgress()
}

// page builds the Page of a response, its content per the format; md is
// the page already converted to Markdown, or nil.
func (cr *crawler) page(pageURL, finalURL string, depth, status int, header http.Header, body []byte, md *string) Page {
	p := Page{URL: pageURL, Depth: depth, StatusCode: status}
	if finalURL != pageURL {
		p.FinalURL = finalURL
	}
	p.ContentType = mediaType(header.Get("Content-Type"), body)
	wantMD := cr.plan.format != FormatHTML
	wantHTML := cr.plan.format != FormatMarkdown
	switch {
	case p.ContentType == "text/html" || p.ContentType == "application/xhtml+xml":
		if wantHTML {
			p.HTML = string(body)
		}
		if wantMD && md != nil {
			p.Markdown = *md
		} else if wantMD {
			md, err := fetch.Markdown(body, finalURL)
			if err != nil {
				p.Error = "converting to markdown: " + err.Error()
			}
			p.Markdown = md
		}
	case strings.HasPrefix(p.ContentType, "text/") && wantMD:
		p.Markdown = string(body)
	}
	return p
}

func mediaType(contentType string, body []byte) string {
	if contentType == "" {
		contentType = http.DetectContentType(body)
	}
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		mt, _, _ = strings.Cut(contentType, ";")
	}
	return strings.ToLower(strings.TrimSpace(mt))
}

// checkRedirect is the redirect policy: at most maxRedirects hops; a hop
// that leaves the crawl's sites or that robots.txt disallows is not
// followed (the redirect response itself becomes the page); a hop to a URL
// already crawled ends the request, which is then no page of its own.
func (cr *crawler) checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) >= maxRedirects {
		return errs.New(errs.KindUpstream, "stopped after %d redirects", maxRedirects)
	}
	if !cr.scope.contains(req.URL) {
		return http.ErrUseLastResponse
	}
	if !cr.robotsAllow(req.Context(), req.URL) {
		cr.skip(req.URL.String())
		return http.ErrUseLastResponse
	}
	// A redirect back to the page first asked for (a cookie check) is
	// that page; any other target is claimed like a link.
	if canonicalKey(req.URL) != canonicalKey(via[0].URL) && !cr.claim(req.URL) {
		return errDuplicate
	}
	return nil
}

// finish builds the Result: pages by depth then URL.
func (cr *crawler) finish(ctx context.Context) (*Result, error) {
	cr.mu.Lock()
	defer cr.mu.Unlock()
	pages := slices.Clone(cr.pages)
	if pages == nil {
		pages = []Page{}
	}
	slices.SortFunc(pages, func(a, b Page) int {
		return cmp.Or(cmp.Compare(a.Depth, b.Depth), cmp.Compare(a.URL, b.URL))
	})
	res := &Result{Pages: pages, Crawled: cr.crawled, Failed: cr.failed, SkippedByRobots: len(cr.skipped), Truncated: cr.truncated}
	if err := ctx.Err(); err != nil {
		return res, fmt.Errorf("crawl stopped after %d pages: %w", len(pages), err)
	}
	if cr.answered == 0 && cr.failed > 0 {
		kind := errs.KindUpstream
		var e *errs.Error
		if errors.As(cr.firstErr, &e) {
			kind = e.Kind
		}
		return nil, errs.Wrap(kind, cr.firstErr, "crawl: no page could be fetched")
	}
	return res, nil
}
