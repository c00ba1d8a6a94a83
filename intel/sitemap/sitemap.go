package sitemap

import (
	"context"
	"net/url"
	"path"
	"strings"
	"time"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/fetch"
)

// Defaults of Input and Options.
const (
	DefaultMaxURLs      = 1000
	MaxListedURLs       = 50_000 // the most Input.MaxURLs may ask for
	DefaultMaxSitemaps  = 50
	DefaultMaxDepth     = 3
	DefaultMaxTotalURLs = 500_000
	DefaultTimeout      = 2 * time.Minute
	maxProblems         = 200
	maxHostsListed      = 100
	maxHostsCounted     = 10_000
	maxLocBytes         = 2048 // sitemaps.org: URLs under 2,048 characters
)

// Input names the sitemap, or the site, to read. The same struct is the
// JSON body of POST /v1/intel/sitemap.
type Input struct {
	URL     string `json:"url" minLength:"1" maxLength:"8192" example:"https://example.com/" doc:"A sitemap's URL (a urlset or sitemap index, gzipped or not, a text sitemap or an RSS/Atom feed), or a site's page: then the sitemaps its robots.txt lists are read, else /sitemap.xml, else /sitemap_index.xml. A URL is taken for a sitemap when its last path segment contains \"sitemap\", ends in .xml, .gz, .txt, .rss or .atom, or is feed, rss or atom."`
	MaxURLs int    `json:"max_urls,omitempty" minimum:"0" maximum:"50000" default:"1000" doc:"How many URLs to list in the answer (they are all counted, up to 50,000 per file and 500,000 in all); 0 = 1000."`
}

// Options tune Read. The zero value (or nil) means defaults; a zero or
// negative field means its default.
type Options struct {
	// MaxSitemaps caps the sitemap files read; default 50.
	MaxSitemaps int
	// MaxDepth caps how deep indexes nest: the first sitemap is depth 0,
	// what an index lists one deeper; default 3.
	MaxDepth int
	// MaxFileBytes caps one file once decompressed; default 50 MiB, the
	// sitemaps.org limit. (The fetcher's body caps apply to the transfer.)
	MaxFileBytes int64
	// MaxURLsPerFile caps the entries read from one file; default 50,000,
	// the sitemaps.org limit.
	MaxURLsPerFile int
	// MaxTotalURLs caps the entries read in all; default 500,000.
	MaxTotalURLs int
	// Timeout bounds the whole read; default 2 minutes. Each fetch is
	// bounded by the fetcher's timeout too.
	Timeout time.Duration
	// Now is the clock the lastmod statistics are relative to; nil means
	// time.Now.
	Now func() time.Time
}

func (o *Options) resolve() Options {
	var r Options
	if o != nil {
		r = *o
	}
	r.MaxSitemaps = positive(r.MaxSitemaps, DefaultMaxSitemaps)
	r.MaxDepth = positive(r.MaxDepth, DefaultMaxDepth)
	r.MaxFileBytes = positive(r.MaxFileBytes, MaxFileBytes)
	r.MaxURLsPerFile = positive(r.MaxURLsPerFile, MaxURLsPerFile)
	r.MaxTotalURLs = positive(r.MaxTotalURLs, DefaultMaxTotalURLs)
	r.Timeout = positive(r.Timeout, DefaultTimeout)
	if r.Now == nil {
		r.Now = time.Now
	}
	return r
}

func positive[T int | int64 | time.Duration](v, def T) T {
	if v <= 0 {
		return def
	}
	return v
}

// Report is what a site's sitemaps list.
type Report struct {
	URL       string       `json:"url" doc:"The URL asked for."`
	Sitemaps  []File       `json:"sitemaps" doc:"Every sitemap file read or tried, in the order read."`
	URLCount  int          `json:"url_count" doc:"Distinct page URLs counted in all the files."`
	URLs      []Entry      `json:"urls" doc:"The first max_urls distinct page URLs, in file order."`
	Lastmod   LastmodStats `json:"lastmod"`
	Hosts     []HostCount  `json:"hosts" doc:"The hosts of the URLs counted, most URLs first (at most 100)."`
	Problems  []Problem    `json:"problems" doc:"What breaks the sitemaps.org protocol or stopped the reading, at most one per code and file, with a count (200 at most)."`
	Truncated Truncation   `json:"truncated" doc:"Which caps stopped the reading or the listing."`
}

// File is one sitemap file.
type File struct {
	URL      string `json:"url"`
	Source   string `json:"source" enum:"given,robots.txt,default,index" doc:"How it was found: the URL asked for, a robots.txt Sitemap: line, the conventional /sitemap.xml or /sitemap_index.xml, or a sitemap index."`
	Depth    int    `json:"depth" doc:"0 for the first sitemaps, one more for each index above."`
	Kind     string `json:"kind,omitempty" enum:"urlset,index,text,rss,atom" doc:"What the file is; absent when it could not be read as a sitemap."`
	Status   int    `json:"status,omitempty" doc:"The HTTP status it was answered with."`
	Gzipped  bool   `json:"gzipped" doc:"The body was gzip (by its magic bytes)."`
	Bytes    int64  `json:"bytes" doc:"Bytes read, decompressed."`
	URLCount int    `json:"url_count" doc:"Valid entries read: page URLs, or sitemaps for an index."`
	Lastmod  string `json:"lastmod,omitempty" doc:"The lastmod the index listing it gave."`
	Error    string `json:"error,omitempty" doc:"Why it was not read, or not read to its end."`
}

// Entry is one page URL.
type Entry struct {
	Loc        string   `json:"loc"`
	Lastmod    string   `json:"lastmod,omitempty" doc:"As written."`
	Changefreq string   `json:"changefreq,omitempty"`
	Priority   *float64 `json:"priority,omitempty"`
	Images     int      `json:"images,omitempty" doc:"<image:image> elements."`
	News       int      `json:"news,omitempty" doc:"<news:news> elements."`
	Videos     int      `json:"videos,omitempty" doc:"<video:video> elements."`
}

// HostCount is how many URLs one host has.
type HostCount struct {
	Host string `json:"host"`
	URLs int    `json:"urls"`
}

// Problem is something wrong with a sitemap, or a cap that stopped it.
type Problem struct {
	Code    string `json:"code" example:"invalid_lastmod" doc:"See the package documentation for the codes."`
	Message string `json:"message"`
	Sitemap string `json:"sitemap,omitempty" doc:"The file it is about."`
}

// Truncation says which caps cut the reading or the listing short.
type Truncation struct {
	URLs     bool `json:"urls" doc:"More URLs were counted than max_urls lists."`
	Sitemaps bool `json:"sitemaps" doc:"More sitemaps were listed than the 50 files read."`
	Depth    bool `json:"depth" doc:"Indexes nested deeper than 3 were not followed."`
	File     bool `json:"file" doc:"A file was cut at 50,000 entries or 50 MiB."`
	Total    bool `json:"total" doc:"Reading stopped at 500,000 entries in all."`
	Time     bool `json:"time" doc:"Reading stopped when its time budget ran out."`
}

// Read reads a site's sitemaps through f's direct tier (its SSRF guard,
// timeouts and body caps): the sitemap in.URL names, or, for a page URL,
// those the site's robots.txt lists, else /sitemap.xml, else
// /sitemap_index.xml. It follows sitemap indexes (depth, file and cycle
// checks), reads gzip, text sitemaps and RSS/Atom feeds, counts and
// checks every URL, and lists the first in.MaxURLs.
//
// Errors: a bad url or max_urls is errs.KindInvalid naming the field; no
// sitemap found at all is errs.KindNotFound naming what was tried; an SSRF
// refusal of the site is the fetcher's errs.KindForbidden, and a site
// that does not answer at all the fetcher's error (errs.KindUpstream);
// the time budget running out before any sitemap was read is
// errs.KindTimeout. Cancelling ctx returns ctx's error. Once one sitemap
// was read, what fails later is a Problem, not an error.
func Read(ctx context.Context, f *fetch.Fetcher, in Input, opts *Options) (*Report, error) {
	if f == nil {
		return nil, errs.Invalid("fetcher", "must not be nil")
	}
	target, err := checkInput(&in)
	if err != nil {
		return nil, err
	}
	o := opts.resolve()
	budget, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	r := newReader(f, o, in)
	err = r.run(budget, target)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err != nil {
		return nil, err
	}
	return r.report(), nil
}

// checkInput validates in and fills in its defaults.
func checkInput(in *Input) (*url.URL, error) {
	raw := strings.TrimSpace(in.URL)
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
		return nil, errs.Invalid("url", "must be an absolute http or https URL without credentials")
	}
	u.Fragment, u.RawFragment = "", ""
	switch {
	case in.MaxURLs < 0 || in.MaxURLs > MaxListedURLs:
		return nil, errs.Invalid("max_urls", "must be between 0 and %d, got %d", MaxListedURLs, in.MaxURLs)
	case in.MaxURLs == 0:
		in.MaxURLs = DefaultMaxURLs
	}
	return u, nil
}

// looksLikeSitemap reports whether u names a sitemap rather than a page.
func looksLikeSitemap(u *url.URL) bool {
	last := strings.ToLower(path.Base(u.Path))
	if last == "robots.txt" {
		return false
	}
	switch {
	case strings.Contains(last, "sitemap"), last == "feed", last == "rss", last == "atom":
		return true
	}
	for _, ext := range []string{".xml", ".gz", ".txt", ".rss", ".atom"} {
		if strings.HasSuffix(last, ext) {
			return true
		}
	}
	return false
}
