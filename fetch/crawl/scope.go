package crawl

import (
	"net/url"
	"strings"
)

// scope decides which hosts a crawl may visit: the seeds' sites, and with
// subdomains set their subdomains too. A site is a host name and a port;
// the port is ignored when it is the scheme's default, so http://example.com
// and https://example.com are one site while example.com:8080 is another.
type scope struct {
	sites      []site
	subdomains bool
}

type site struct {
	host string // lower case, without brackets for IPv6
	port string // "" for the scheme's default port
}

func siteOf(u *url.URL) site {
	return site{host: strings.TrimSuffix(strings.ToLower(u.Hostname()), "."), port: explicitPort(u)}
}

// explicitPort is u's port, or "" when it is the default port of u's
// (lower-case) scheme.
func explicitPort(u *url.URL) string {
	port := u.Port()
	if (u.Scheme == "http" && port == "80") || (u.Scheme == "https" && port == "443") {
		return ""
	}
	return port
}

func newScope(seeds []*url.URL, subdomains bool) scope {
	s := scope{subdomains: subdomains}
	for _, u := range seeds {
		st := siteOf(u)
		if subdomains {
			st.host = strings.TrimPrefix(st.host, "www.")
		}
		if !s.has(st) {
			s.sites = append(s.sites, st)
		}
	}
	return s
}

func (s scope) has(st site) bool {
	for _, x := range s.sites {
		if x == st {
			return true
		}
	}
	return false
}

// contains reports whether u is an http(s) URL on one of the scope's sites.
func (s scope) contains(u *url.URL) bool {
	if u.Scheme != "http" && u.Scheme != "https" {
		return false
	}
	st := siteOf(u)
	for _, x := range s.sites {
		if x.port != st.port {
			continue
		}
		if x.host == st.host || (s.subdomains && strings.HasSuffix(st.host, "."+x.host)) {
			return true
		}
	}
	return false
}
