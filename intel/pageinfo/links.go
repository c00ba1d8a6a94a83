package pageinfo

import (
	"net/url"
	"strings"
)

// LinkCounts count the page's <a href> and <area href> links.
type LinkCounts struct {
	Total       int `json:"total" doc:"Every link with an href."`
	Internal    int `json:"internal" doc:"Links to pages of the page's host (a leading www. ignored)."`
	External    int `json:"external" doc:"http(s) links to other hosts."`
	Other       int `json:"other" doc:"Links that go to no other web page: fragments of this page, mailto:, tel:, javascript: and other schemes, and hrefs that are not URLs."`
	Nofollow    int `json:"nofollow" doc:"Links with rel=nofollow."`
	Sponsored   int `json:"sponsored" doc:"Links with rel=sponsored."`
	UGC         int `json:"ugc" doc:"Links with rel=ugc."`
	UniqueHosts int `json:"unique_hosts" doc:"Distinct hosts the http(s) links go to, the page's own included (counted up to 10,000)."`
}

// linkCounter counts links as the walk meets them.
type linkCounter struct {
	page  *url.URL // the page, nil when unknown
	base  *url.URL // what relative links resolve against: <base href>, else the page
	n     LinkCounts
	hosts map[string]bool
}

func (c *linkCounter) add(href, rel string) {
	c.n.Total++
	for t := range strings.FieldsSeq(strings.ToLower(rel)) {
		switch t {
		case "nofollow":
			c.n.Nofollow++
		case "sponsored":
			c.n.Sponsored++
		case "ugc":
			c.n.UGC++
		}
	}
	raw := strings.TrimSpace(href)
	u, err := url.Parse(raw)
	if err != nil {
		c.n.Other++
		return
	}
	if c.base != nil {
		u = c.base.ResolveReference(u)
	}
	switch {
	case u.Scheme == "" && u.Host == "" && u.Opaque == "": // relative, and the page's URL is unknown
		if strings.HasPrefix(raw, "#") {
			c.n.Other++
		} else {
			c.n.Internal++
		}
		return
	case u.Scheme != "http" && u.Scheme != "https", u.Host == "":
		c.n.Other++
		return
	case c.page != nil && sameDocument(c.page, u):
		c.n.Other++ // "#section": a place in this page
		return
	}
	host := strings.ToLower(u.Hostname())
	if len(c.hosts) < maxHosts {
		c.hosts[host] = true
	}
	if c.page != nil && sameSite(host, strings.ToLower(c.page.Hostname())) {
		c.n.Internal++
	} else {
		c.n.External++
	}
}

func (c *linkCounter) counts() LinkCounts {
	out := c.n
	out.UniqueHosts = len(c.hosts)
	return out
}

// sameDocument reports whether u is the page itself with a fragment.
func sameDocument(page, u *url.URL) bool {
	if u.Fragment == "" {
		return false
	}
	a, b := *page, *u
	a.Fragment, a.RawFragment, b.Fragment, b.RawFragment = "", "", "", ""
	return a.String() == b.String()
}

// sameSite reports whether two hosts are the same, a leading "www."
// ignored.
func sameSite(a, b string) bool {
	return strings.TrimPrefix(a, "www.") == strings.TrimPrefix(b, "www.")
}
