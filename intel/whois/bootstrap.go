package whois

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// bundledBootstrap is IANA's RDAP bootstrap file for DNS (RFC 9224) as
// published at https://data.iana.org/rdap/dns.json; doc.go says which
// copy and when.
//
//go:embed iana-rdap-dns.json
var bundledBootstrap []byte

// Limits on a bootstrap file, far above IANA's (about 70 KB, 600
// services, 1,200 TLDs) and low enough that a wrong file cannot eat the
// process.
const (
	maxBootstrapBytes    = 8 << 20
	maxBootstrapServices = 20_000
	maxBootstrapEntries  = 200_000
)

// bootstrap maps a domain's TLD (or a longer suffix, should a bootstrap
// file list one) to the base URL of the registry's RDAP service.
type bootstrap struct {
	publication string
	bases       map[string]string // "com" → "https://rdap.verisign.com/com/v1/"
	longest     int               // labels in the longest entry
}

// bootstrapFile is RFC 9224's JSON shape: services are pairs of an entry
// list and a URL list.
type bootstrapFile struct {
	Version     string       `json:"version"`
	Publication string       `json:"publication"`
	Services    [][][]string `json:"services"`
}

// parseBootstrap reads an RFC 9224 DNS bootstrap file. It refuses a file
// that is not one (not JSON, no services, a service without entries or
// without an http(s) URL, over the size limits) and names the problem.
func parseBootstrap(data []byte) (*bootstrap, error) {
	if len(data) > maxBootstrapBytes {
		return nil, fmt.Errorf("larger than %d bytes", maxBootstrapBytes)
	}
	var file bootstrapFile
	if err := json.Unmarshal(data, &file); err != nil {
		return nil, fmt.Errorf("not RFC 9224 bootstrap JSON: %w", err)
	}
	if len(file.Services) == 0 {
		return nil, errors.New(`no "services"`)
	}
	if len(file.Services) > maxBootstrapServices {
		return nil, fmt.Errorf("more than %d services", maxBootstrapServices)
	}
	b := &bootstrap{publication: file.Publication, bases: map[string]string{}}
	entries := 0
	for i, service := range file.Services {
		if len(service) != 2 || len(service[0]) == 0 || len(service[1]) == 0 {
			return nil, fmt.Errorf("service %d is not a pair of entries and URLs", i)
		}
		base, err := preferredBase(service[1])
		if err != nil {
			return nil, fmt.Errorf("service %d: %w", i, err)
		}
		for _, entry := range service[0] {
			if entries++; entries > maxBootstrapEntries {
				return nil, fmt.Errorf("more than %d entries", maxBootstrapEntries)
			}
			suffix := strings.Trim(strings.ToLower(strings.TrimSpace(entry)), ".")
			if suffix == "" {
				return nil, fmt.Errorf("service %d has an empty entry", i)
			}
			if _, seen := b.bases[suffix]; !seen {
				b.bases[suffix] = base
			}
			b.longest = max(b.longest, strings.Count(suffix, ".")+1)
		}
	}
	return b, nil
}

// preferredBase picks a service's base URL, HTTPS first as RFC 9224
// advises, and makes sure it ends in "/" so that "domain/NAME" can be
// appended.
func preferredBase(urls []string) (string, error) {
	var fallback string
	for _, raw := range urls {
		u, err := url.Parse(strings.TrimSpace(raw))
		if err != nil || u.Host == "" || u.User != nil || (u.Scheme != "https" && u.Scheme != "http") {
			continue
		}
		if !strings.HasSuffix(u.Path, "/") {
			u.Path += "/"
		}
		u.RawQuery, u.Fragment, u.RawPath = "", "", ""
		if u.Scheme == "https" {
			return u.String(), nil
		}
		if fallback == "" {
			fallback = u.String()
		}
	}
	if fallback == "" {
		return "", errors.New("no http or https URL")
	}
	return fallback, nil
}

// baseFor is the RDAP base URL for domain (lower-case A-labels), from the
// longest bootstrap entry that is a suffix of it; "" when the registry
// has no RDAP service listed.
func (b *bootstrap) baseFor(domain string) string {
	labels := strings.Split(domain, ".")
	for n := min(b.longest, len(labels)); n >= 1; n-- {
		if base, ok := b.bases[strings.Join(labels[len(labels)-n:], ".")]; ok {
			return base
		}
	}
	return ""
}
