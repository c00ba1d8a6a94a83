package server

import (
	"context"

	"github.com/webinfra/webinfra/intel/company"
	"github.com/webinfra/webinfra/intel/ct"
	"github.com/webinfra/webinfra/intel/dnsintel"
	"github.com/webinfra/webinfra/intel/email"
	"github.com/webinfra/webinfra/intel/geoip"
	"github.com/webinfra/webinfra/intel/pageinfo"
	"github.com/webinfra/webinfra/intel/resolver"
	"github.com/webinfra/webinfra/intel/secheaders"
	"github.com/webinfra/webinfra/intel/sitemap"
	"github.com/webinfra/webinfra/intel/tlsinspect"
	"github.com/webinfra/webinfra/intel/whois"
)

// The bodies of the intelligence endpoints, named as SPEC names them.
type (
	CertTransparencyRequest   struct{ ct.HistoryInput }
	SubdomainEnumerateRequest struct{ ct.SubdomainsInput }
	GeoIpRequest              struct{ geoip.GeoIPInput }
	AsnRequest                struct{ geoip.ASNInput }
	GeoIpBulkRequest          struct{ geoip.BulkInput }
	DnsLookupRequest          struct{ resolver.LookupInput }
	DnsIntelRequest           struct{ dnsintel.Input }
	EmailVerifyRequest        struct{ email.Input }
	EnrichCompanyRequest      struct{ company.Input }
)

// TargetURL names the page for the usage log.
func (r *EnrichCompanyRequest) TargetURL() string { return r.URL }

// IntelDomainRequest is the body of POST /v1/intel/ssl and
// /v1/intel/whois.
type IntelDomainRequest struct {
	Domain string `json:"domain" minLength:"1" maxLength:"253" example:"example.com" doc:"A domain name (internationalized names are accepted and sent as A-labels)."`
}

// IntelHeadersRequest is the body of POST /v1/intel/headers.
type IntelHeadersRequest struct{ secheaders.Input }

// TargetURL names the page for the usage log.
func (r *IntelHeadersRequest) TargetURL() string { return r.URL }

// IntelUrlRequest is the body of POST /v1/intel/page and
// /v1/intel/sitemap.
type IntelUrlRequest struct {
	URL     string `json:"url" minLength:"1" maxLength:"8192" example:"https://example.com/" doc:"The page (or, for sitemap, a sitemap or any page of the site: its robots.txt Sitemap lines and /sitemap.xml are read)."`
	MaxURLs int    `json:"max_urls,omitempty" minimum:"0" maximum:"50000" doc:"sitemap only: how many URLs to list (all are counted); 0 = 1,000."`
}

// TargetURL names the page for the usage log.
func (r *IntelUrlRequest) TargetURL() string { return r.URL }

// CreditItems prices a bulk call per IP; the IPs not answered are not
// charged (geoIPBulk).
func (r *GeoIpBulkRequest) CreditItems() int { return len(r.IPs) }

// bodyCall is the handler of an endpoint whose capability takes one input
// read from the body: the capability's errors name body fields.
func bodyCall[B, I, R any](input func(*B) I, run func(context.Context, I) (*R, error)) func(context.Context, *B) (*R, error) {
	return func(ctx context.Context, in *B) (*R, error) {
		res, err := run(ctx, input(in))
		if err != nil {
			return nil, bodyField(err)
		}
		return res, nil
	}
}

func ctHistoryInput(r *CertTransparencyRequest) ct.HistoryInput         { return r.HistoryInput }
func ctSubdomainsInput(r *SubdomainEnumerateRequest) ct.SubdomainsInput { return r.SubdomainsInput }
func dnsLookupInput(r *DnsLookupRequest) resolver.LookupInput           { return r.LookupInput }
func dnsIntelInput(r *DnsIntelRequest) dnsintel.Input                   { return r.Input }
func emailInput(r *EmailVerifyRequest) email.Input                      { return r.Input }
func tlsInput(r *IntelDomainRequest) tlsinspect.Input                   { return tlsinspect.Input{Domain: r.Domain} }
func whoisInput(r *IntelDomainRequest) whois.Input                      { return whois.Input{Domain: r.Domain} }
func headersInput(r *IntelHeadersRequest) secheaders.Input              { return r.Input }
func sitemapInput(r *IntelUrlRequest) sitemap.Input {
	return sitemap.Input{URL: r.URL, MaxURLs: r.MaxURLs}
}
func pageInput(r *IntelUrlRequest) pageinfo.Input        { return pageinfo.Input{URL: r.URL} }
func companyInput(r *EnrichCompanyRequest) company.Input { return r.Input }
func geoIPInput(r *GeoIpRequest) geoip.GeoIPInput        { return r.GeoIPInput }
func asnInput(r *AsnRequest) geoip.ASNInput              { return r.ASNInput }

// geoIPBulk answers each IP on its own and charges the IPs answered.
func (s *Server) geoIPBulk(ctx context.Context, in *GeoIpBulkRequest) (*geoip.BulkResult, error) {
	res, err := s.intel.GeoIPBulk(in.BulkInput)
	if err != nil {
		return nil, bodyField(err)
	}
	chargeUnits(ctx, int64(res.Answered))
	return res, nil
}

// withoutContext adapts a capability that reads only local data.
func withoutContext[I, R any](run func(I) (*R, error)) func(context.Context, I) (*R, error) {
	return func(_ context.Context, in I) (*R, error) { return run(in) }
}
