package wcxb

import (
	"net/url"

	"golang.org/x/net/publicsuffix"
)

// Site is the registrable domain of a page's URL (its public suffix and
// one label: "bbc.co.uk"), the unit a cross-validation holds out, so
// that a model is tested on sites it never saw; the host when it has no
// public suffix, "" when the page has no URL.
func Site(pageURL string) string {
	u, err := url.Parse(pageURL)
	if pageURL == "" || err != nil {
		return ""
	}
	s, err := publicsuffix.EffectiveTLDPlusOne(u.Hostname())
	if err != nil {
		return u.Hostname()
	}
	return s
}

// Fold puts a site in one of n folds by a hash of its name (FNV-1a), so
// that all its pages are held out together, in the same fold every run.
func Fold(site string, n int) int {
	h := uint32(2166136261)
	for i := range len(site) {
		h = (h ^ uint32(site[i])) * 16777619
	}
	return int(h % uint32(n))
}
