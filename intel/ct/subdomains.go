package ct

import (
	"context"
	"slices"
	"strings"
	"time"
)

// Subdomains limits.
const (
	DefaultSubdomainsLimit = 1000
	MaxSubdomainsLimit     = 10_000
)

// StaleNote is the note every Subdomains result carries.
const StaleNote = "Names come from certificate transparency logs and are not resolved: some may no longer exist, or never have been published in DNS."

// SubdomainsInput asks for the names under a domain seen in certificates.
type SubdomainsInput struct {
	Domain         string `json:"domain" minLength:"1" maxLength:"253" example:"example.com" doc:"The domain name (IDN allowed), without scheme or wildcard."`
	ExcludeExpired bool   `json:"exclude_expired,omitempty" doc:"Only names from certificates still valid: fewer stale names, but hosts seen only in the past are left out."`
	Limit          int    `json:"limit,omitempty" minimum:"0" maximum:"10000" doc:"Most names returned, in name order; 0 means 1000."`
}

// Subdomains is the names under a domain found in certificates.
type Subdomains struct {
	Domain       string      `json:"domain" doc:"The domain searched, in lower-case ASCII (punycode for IDNs)."`
	Total        int         `json:"total" doc:"Distinct names found."`
	Subdomains   []Subdomain `json:"subdomains" doc:"The names, sorted; at most limit."`
	Certificates int         `json:"certificates" doc:"Distinct certificates the names come from."`
	Truncated    bool        `json:"truncated" doc:"More names were found than limit."`
	Incomplete   bool        `json:"incomplete" doc:"The log's answer was larger than this server reads (20,000 rows or 64 MiB by default): names from the rest are missing."`
	Note         string      `json:"note" doc:"Names are not resolved, so some may be stale."`
}

// Subdomain is one name under the domain (or the domain itself).
type Subdomain struct {
	Name         string    `json:"name" example:"api.example.com" doc:"The name, lower case; a wildcard *.x.example.com is reported as x.example.com."`
	Wildcard     bool      `json:"wildcard" doc:"A certificate covers *.name: hosts under it exist that the logs do not name."`
	Exact        bool      `json:"exact" doc:"A certificate names it exactly, not only through a wildcard."`
	Certificates int       `json:"certificates" doc:"Distinct certificates naming it (exactly or by wildcard)."`
	FirstSeen    time.Time `json:"first_seen" doc:"The earliest not_before of those certificates."`
	LastSeen     time.Time `json:"last_seen" doc:"The latest not_before of those certificates."`
}

// Subdomains returns the distinct names at or under in.Domain that
// certificates in the logs cover (crt.sh's %.domain search), in lower
// case and sorted. A wildcard *.x.example.com is reported as
// x.example.com with Wildcard set; names outside the domain (other SANs
// of the same certificates), e-mail addresses and IP addresses are left
// out. Names are not resolved: some may be stale (Note says so).
//
// Errors are those of History.
func (c *Client) Subdomains(ctx context.Context, in SubdomainsInput) (*Subdomains, error) {
	domain, err := normalizeDomain(in.Domain)
	if err != nil {
		return nil, err
	}
	limit, err := checkLimit(in.Limit, DefaultSubdomainsLimit, MaxSubdomainsLimit)
	if err != nil {
		return nil, err
	}
	ans, err := c.query(ctx, domain, true, in.ExcludeExpired)
	if err != nil {
		return nil, err
	}
	certs, err := c.usable(ans, domain, in.ExcludeExpired)
	if err != nil {
		return nil, err
	}
	names := subdomainsOf(certs, domain)
	out := &Subdomains{Domain: domain, Total: len(names), Subdomains: names, Certificates: len(certs), Incomplete: ans.incomplete, Note: StaleNote}
	if len(names) > limit {
		out.Subdomains, out.Truncated = names[:limit], true
	}
	return out, nil
}

// subdomainsOf gathers the names under domain from certs.
func subdomainsOf(certs []*cert, domain string) []Subdomain {
	byName := map[string]*Subdomain{}
	for _, c := range certs {
		counted := map[string]bool{}
		for n := range c.names {
			host, wildcard := strings.CutPrefix(n, "*.")
			if !underDomain(host, domain) || !isHostname(host) {
				continue
			}
			s := byName[host]
			if s == nil {
				s = &Subdomain{Name: host, FirstSeen: c.notBefore, LastSeen: c.notBefore}
				byName[host] = s
			}
			s.Wildcard = s.Wildcard || wildcard
			s.Exact = s.Exact || !wildcard
			if !counted[host] {
				counted[host] = true
				s.Certificates++
				s.FirstSeen = minTime(s.FirstSeen, c.notBefore)
				s.LastSeen = maxTime(s.LastSeen, c.notBefore)
			}
		}
	}
	out := make([]Subdomain, 0, len(byName))
	for _, s := range byName {
		out = append(out, *s)
	}
	slices.SortFunc(out, func(a, b Subdomain) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// isHostname accepts letters, digits, hyphens, underscores (service
// labels) and dots, without empty labels: what is left once wildcards,
// e-mail addresses and junk are set aside.
func isHostname(s string) bool {
	if s == "" || strings.Contains(s, "..") || strings.HasPrefix(s, ".") {
		return false
	}
	return !strings.ContainsFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.')
	})
}

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
