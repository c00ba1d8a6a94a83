package crawl

import (
	"context"
	"fmt"
	"net/url"
	"strings"

	"github.com/webinfra/webinfra/fetch"
	"github.com/webinfra/webinfra/intel/sitemap"
)

// maxSitemapFiles is how many sitemap files one crawl reads. Each file is
// read by sitemap.Decode under the sitemaps.org limits (50 MiB once
// decompressed, 50,000 entries); the fetcher's own caps apply to the
// transfer.
const maxSitemapFiles = 50

// sitemapSeeds reads the sitemaps of every seed's origin (the robots.txt
// Sitemap: lines, then /sitemap.xml), following sitemap index files, and
// returns the page URLs the crawl may visit, at most limit of them. A
// missing or broken sitemap is skipped: sitemaps only add seeds.
func (cr *crawler) sitemapSeeds(ctx context.Context, limit int) []*url.URL {
	var queue []string
	origins := map[string]bool{}
	for _, s := range cr.plan.seeds {
		origin := s.Scheme + "://" + s.Host
		if origins[origin] {
			continue
		}
		origins[origin] = true
		if data, err := cr.robots.get(ctx, s); err == nil {
			queue = append(queue, data.Sitemaps...)
		}
		queue = append(queue, origin+"/sitemap.xml")
	}
	var out []*url.URL
	seenMaps, seenPages := map[string]bool{}, map[string]bool{}
	for read := 0; len(queue) > 0 && read < maxSitemapFiles && len(out) < limit && ctx.Err() == nil; {
		loc := strings.TrimSpace(queue[0])
		queue = queue[1:]
		if seenMaps[loc] {
			continue
		}
		seenMaps[loc] = true
		read++
		cr.readSitemap(ctx, loc, func(u *url.URL, isSitemap bool) bool {
			if isSitemap {
				queue = append(queue, u.String())
				return true
			}
			if !seenPages[u.String()] && cr.admit(u) {
				seenPages[u.String()] = true
				out = append(out, u)
			}
			return len(out) < limit
		})
	}
	return out
}

// readSitemap fetches one sitemap and visits its entries (see
// sitemapLocs). A sitemap that cannot be fetched is skipped.
func (cr *crawler) readSitemap(ctx context.Context, loc string, visit func(u *url.URL, isSitemap bool) bool) error {
	res, err := cr.f.Fetch(ctx, fetch.Request{URL: loc, Tier: fetch.TierDirect, Headers: map[string]string{"User-Agent": cr.opts.UserAgent}})
	if err != nil {
		return err
	}
	if res.StatusCode != 200 {
		return fmt.Errorf("sitemap %s: status %d", loc, res.StatusCode)
	}
	base, err := url.Parse(res.FinalURL)
	if err != nil {
		return err
	}
	return sitemapLocs(res.Body, base, visit)
}

// sitemapLocs reads a sitemap body with sitemap.Decode (a urlset or index,
// gzipped or not, a text sitemap or an RSS/Atom feed) and calls visit for
// each location that resolves against base to an http(s) URL, marking the
// sitemaps an index lists, until visit returns false. The entries before
// a broken part are visited.
func sitemapLocs(body []byte, base *url.URL, visit func(u *url.URL, isSitemap bool) bool) error {
	_, err := sitemap.Decode(body, nil, func(it sitemap.Item) bool {
		if u := resolveLoc(base, it.Loc); u != nil {
			return visit(u, it.Sitemap)
		}
		return true
	})
	return err
}

// resolveLoc resolves a <loc> against the sitemap's URL and keeps it when
// it is an http(s) URL; the fragment is dropped.
func resolveLoc(base *url.URL, loc string) *url.URL {
	loc = strings.TrimSpace(loc)
	ref, err := url.Parse(loc)
	if err != nil || loc == "" {
		return nil
	}
	u := base.ResolveReference(ref)
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
		return nil
	}
	u.Fragment, u.RawFragment = "", ""
	return u
}
