package crawl

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/xml"
	"fmt"
	"io"
	"net/url"
	"strings"

	"github.com/webinfra/webinfra/fetch"
)

// Sitemap limits: how many sitemap files one crawl reads, and how large a
// gzipped sitemap may grow once decompressed (the sitemaps.org limit is
// 50 MB uncompressed; the fetcher's own caps apply to the transfer).
const (
	maxSitemapFiles = 50
	maxSitemapBytes = 50 << 20
)

// sitemapDoc is a <urlset> or a <sitemapindex>; namespaces are ignored.
type sitemapDoc struct {
	URLs     []sitemapLoc `xml:"url"`
	Sitemaps []sitemapLoc `xml:"sitemap"`
}

type sitemapLoc struct {
	Loc string `xml:"loc"`
}

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
		doc, base, err := cr.readSitemap(ctx, loc)
		if err != nil {
			continue
		}
		for _, s := range doc.Sitemaps {
			if u := resolveLoc(base, s.Loc); u != nil {
				queue = append(queue, u.String())
			}
		}
		for _, p := range doc.URLs {
			u := resolveLoc(base, p.Loc)
			if u == nil || seenPages[u.String()] || !cr.admit(u) {
				continue
			}
			seenPages[u.String()] = true
			if out = append(out, u); len(out) == limit {
				break
			}
		}
	}
	return out
}

// readSitemap fetches and parses one sitemap, gunzipping .xml.gz files
// served without a Content-Encoding.
func (cr *crawler) readSitemap(ctx context.Context, loc string) (*sitemapDoc, *url.URL, error) {
	res, err := cr.f.Fetch(ctx, fetch.Request{URL: loc, Tier: fetch.TierDirect, Headers: map[string]string{"User-Agent": cr.opts.UserAgent}})
	if err != nil {
		return nil, nil, err
	}
	if res.StatusCode != 200 {
		return nil, nil, fmt.Errorf("sitemap %s: status %d", loc, res.StatusCode)
	}
	doc, err := parseSitemap(res.Body)
	if err != nil {
		return nil, nil, fmt.Errorf("sitemap %s: %w", loc, err)
	}
	base, err := url.Parse(res.FinalURL)
	if err != nil {
		return nil, nil, err
	}
	return doc, base, nil
}

// parseSitemap reads a sitemap or sitemap index, gunzipping a body that
// is still gzip (a .xml.gz served without Content-Encoding), at most
// maxSitemapBytes once decompressed.
func parseSitemap(body []byte) (*sitemapDoc, error) {
	if bytes.HasPrefix(body, []byte{0x1f, 0x8b}) {
		var err error
		if body, err = gunzip(body); err != nil {
			return nil, err
		}
	}
	dec := xml.NewDecoder(bytes.NewReader(body))
	// The fetcher has already converted textual bodies to UTF-8.
	dec.CharsetReader = func(_ string, r io.Reader) (io.Reader, error) { return r, nil }
	var doc sitemapDoc
	if err := dec.Decode(&doc); err != nil {
		return nil, err
	}
	return &doc, nil
}

func gunzip(b []byte) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	out, err := io.ReadAll(io.LimitReader(zr, maxSitemapBytes+1))
	if err != nil {
		return nil, err
	}
	if len(out) > maxSitemapBytes {
		return nil, fmt.Errorf("sitemap larger than %d bytes once decompressed", maxSitemapBytes)
	}
	return out, nil
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
