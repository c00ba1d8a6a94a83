package sitemap

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"net/url"
	"slices"
	"strings"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/fetch"
)

// queued is a sitemap file to read.
type queued struct {
	url      string
	source   string // given, robots.txt, default, index
	depth    int
	parent   *queued // the index that listed it
	kind     string  // once read
	siteHost string  // the host that named the first sitemap (its robots.txt or the request)
	lastmod  string  // as the index listed it
}

// reader is one Read.
type reader struct {
	f         *fetch.Fetcher
	o         Options
	maxListed int
	rep       *Report
	queue     []*queued
	sitemaps  map[string]bool // every sitemap queued or read
	seed      maphash.Seed
	urls      map[uint64]struct{} // hashes of the URLs counted
	hosts     map[string]int
	dates     lastmods
	entries   int      // entries read in all
	tried     []string // what was tried, for the not-found error
	found     bool     // a file was read as a sitemap
	siteErr   error    // the site's own fetch failure, when nothing answered
}

func newReader(f *fetch.Fetcher, o Options, in Input) *reader {
	return &reader{
		f: f, o: o, maxListed: in.MaxURLs,
		rep:      &Report{URL: in.URL, Sitemaps: []File{}, URLs: []Entry{}, Hosts: []HostCount{}, Problems: []Problem{}},
		sitemaps: map[string]bool{},
		seed:     maphash.MakeSeed(),
		urls:     map[uint64]struct{}{},
		hosts:    map[string]int{},
		dates:    lastmods{now: o.Now()},
	}
}

// run reads the sitemaps of target: the sitemap it names, or those its
// site declares.
func (r *reader) run(ctx context.Context, target *url.URL) error {
	site := strings.ToLower(target.Host)
	if looksLikeSitemap(target) {
		r.sitemaps[target.String()] = true
		r.queue = append(r.queue, &queued{url: target.String(), source: "given", siteHost: site})
	} else if err := r.discover(ctx, target); err != nil {
		return err
	}
	for len(r.queue) > 0 {
		if ctx.Err() != nil {
			r.capTime()
			break
		}
		item := r.queue[0]
		r.queue = r.queue[1:]
		if err := r.readQueued(ctx, item); err != nil {
			return err
		}
	}
	if r.found {
		return nil
	}
	switch {
	case r.rep.Truncated.Time:
		return errs.New(errs.KindTimeout, "sitemaps of %s: none read within %s", target.Redacted(), r.o.Timeout)
	case r.siteErr != nil:
		return r.siteErr
	}
	return errs.NotFound("no sitemap found for %s: tried %s", target.Redacted(), strings.Join(r.tried, "; "))
}

// discover queues the sitemaps the site's robots.txt lists, or, when it
// lists none, reads the conventional /sitemap.xml or /sitemap_index.xml.
func (r *reader) discover(ctx context.Context, page *url.URL) error {
	site := strings.ToLower(page.Host)
	rob, err := r.f.Robots(ctx, page.String())
	switch {
	case errs.Is(err, errs.KindForbidden):
		return err
	case err != nil:
		r.siteErr = err
		r.tried = append(r.tried, "robots.txt (unreachable)")
	case len(rob.Sitemaps) == 0 && rob.Status != 0 && rob.Status/100 != 2:
		r.tried = append(r.tried, fmt.Sprintf("robots.txt (HTTP %d)", rob.Status))
	case len(rob.Sitemaps) == 0:
		r.tried = append(r.tried, "robots.txt (no Sitemap: line)")
	}
	if err == nil {
		for _, loc := range rob.Sitemaps {
			r.enqueueRoot(&queued{url: loc, source: "robots.txt", siteHost: site})
		}
		if len(r.queue) > 0 {
			return nil
		}
	}
	origin := page.Scheme + "://" + page.Host
	for _, p := range []string{"/sitemap.xml", "/sitemap_index.xml"} {
		item := &queued{url: origin + p, source: "default", siteHost: site}
		file, err := r.readFile(ctx, item)
		switch {
		case errs.Is(err, errs.KindForbidden):
			return err
		case file.Kind != "":
			r.sitemaps[item.url] = true
			r.record(item, file)
			return nil
		case err != nil && r.siteErr == nil:
			r.siteErr = err
		case err == nil:
			r.siteErr = nil // the site answers
		}
		r.tried = append(r.tried, fmt.Sprintf("%s (%s)", item.url, file.Error))
		if ctx.Err() != nil {
			return nil
		}
	}
	return nil
}

// enqueueRoot queues a first sitemap, once, within the file cap.
func (r *reader) enqueueRoot(item *queued) {
	switch {
	case r.sitemaps[item.url]:
	case len(r.sitemaps) >= r.o.MaxSitemaps:
		r.capSitemaps(item.url)
	default:
		r.sitemaps[item.url] = true
		r.queue = append(r.queue, item)
	}
}

// readQueued reads one queued file and records it. Only a failure of the
// sitemap asked for, the site's own, is returned.
func (r *reader) readQueued(ctx context.Context, item *queued) error {
	file, err := r.readFile(ctx, item)
	if item.source == "given" && errs.Is(err, errs.KindForbidden) {
		return err
	}
	if item.source == "given" && err != nil && ctx.Err() == nil {
		r.siteErr = err
	}
	if file.Kind == "" {
		r.tried = append(r.tried, fmt.Sprintf("%s (%s)", item.url, file.Error))
	}
	r.record(item, file)
	return nil
}

// record adds a file read to the report.
func (r *reader) record(item *queued, file File) {
	item.kind = file.Kind
	r.found = r.found || file.Kind != ""
	if file.Kind == KindIndex && item.parent != nil && item.parent.kind == KindIndex {
		r.problem("nested_index", file.URL, "a sitemap index listed by another index: sitemaps.org allows indexes to list sitemaps only, and search engines may not follow it")
	}
	r.rep.Sitemaps = append(r.rep.Sitemaps, file)
}

// readFile fetches and decodes one file, counting its entries.
func (r *reader) readFile(ctx context.Context, item *queued) (File, error) {
	file := File{URL: item.url, Source: item.source, Depth: item.depth, Lastmod: item.lastmod}
	res, err := r.f.Fetch(ctx, fetch.Request{URL: item.url, Tier: fetch.TierDirect})
	if err != nil {
		file.Error = err.Error()
		if ctx.Err() != nil {
			file.Error = "not read: the time budget ran out"
			r.capTime()
		}
		if item.source != "default" {
			r.problem("unreachable", item.url, "the sitemap could not be fetched: %s", file.Error)
		}
		return file, err
	}
	file.Status = res.StatusCode
	if res.StatusCode/100 != 2 {
		file.Error = fmt.Sprintf("HTTP %d", res.StatusCode)
		if item.source != "default" {
			r.problem("unreachable", item.url, "the sitemap answered HTTP %d", res.StatusCode)
		}
		return file, nil
	}
	fs := r.newFileState(item, &file, res.FinalURL)
	dec, err := Decode(res.Body, &DecodeOptions{MaxBytes: r.o.MaxFileBytes, MaxItems: r.o.MaxURLsPerFile}, fs.visit)
	file.Kind, file.Gzipped, file.Bytes = dec.Kind, dec.Gzipped, dec.Bytes
	r.decodeProblems(item, &file, dec, err)
	fs.flush()
	return file, nil
}

// decodeProblems reports what stopped or broke the decoding of a file.
func (r *reader) decodeProblems(item *queued, file *File, dec Decoded, err error) {
	switch {
	case errors.Is(err, ErrNotSitemap):
		file.Error = err.Error()
		if item.source != "default" {
			r.problem("not_sitemap", file.URL, "%s", err)
		}
	case err != nil:
		file.Error = err.Error()
		r.problem("not_xml", file.URL, "%s; the entries before the fault were read", err)
	case dec.TooLarge:
		file.Error = fmt.Sprintf("cut at %d bytes", r.o.MaxFileBytes)
		r.rep.Truncated.File = true
		r.problem("too_large", file.URL, "larger than %d bytes once decompressed (sitemaps.org allows 50 MiB); the rest was not read", r.o.MaxFileBytes)
	case dec.TooMany:
		file.Error = fmt.Sprintf("cut at %d entries", r.o.MaxURLsPerFile)
		r.rep.Truncated.File = true
		r.problem("too_many_urls", file.URL, "more than %d entries (sitemaps.org allows 50,000 per file); the rest were not read", r.o.MaxURLsPerFile)
	case dec.Items == 0 && dec.Kind != "":
		r.problem("empty_sitemap", file.URL, "the %s lists nothing", dec.Kind)
	}
}

// problem adds a problem while there is room.
func (r *reader) problem(code, sitemap, format string, args ...any) {
	if len(r.rep.Problems) < maxProblems {
		r.rep.Problems = append(r.rep.Problems, Problem{Code: code, Sitemap: sitemap, Message: fmt.Sprintf(format, args...)})
	}
}

// capSitemaps notes, once, that the file cap left sitemaps unread.
func (r *reader) capSitemaps(first string) {
	if !r.rep.Truncated.Sitemaps {
		r.rep.Truncated.Sitemaps = true
		r.problem("too_many_sitemaps", first, "more than %d sitemap files are listed; this one and the rest were not read", r.o.MaxSitemaps)
	}
}

// capTime notes, once, that the time budget stopped the reading.
func (r *reader) capTime() {
	if !r.rep.Truncated.Time {
		r.rep.Truncated.Time = true
		r.problem("time_budget", "", "reading stopped after %s; the files not yet read were left out", r.o.Timeout)
	}
}

// report is the finished report.
func (r *reader) report() *Report {
	rep := r.rep
	rep.Lastmod = r.dates.result()
	for host, n := range r.hosts {
		rep.Hosts = append(rep.Hosts, HostCount{Host: host, URLs: n})
	}
	slices.SortFunc(rep.Hosts, func(a, b HostCount) int {
		return cmp.Or(b.URLs-a.URLs, strings.Compare(a.Host, b.Host))
	})
	if len(rep.Hosts) > maxHostsListed {
		rep.Hosts = rep.Hosts[:maxHostsListed]
	}
	return rep
}
