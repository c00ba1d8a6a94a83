package webinfra

import (
	"github.com/webinfra/webinfra/intel"
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

// The intelligence capabilities' configuration, inputs and answers
// (packages intel/… document every field). The methods come with the
// embedded intel.Client.
type (
	IntelConfig      = intel.Config
	DNSLookupInput   = resolver.LookupInput
	DNSLookupResult  = resolver.LookupResult
	DNSIntelInput    = dnsintel.Input
	DNSIntelReport   = dnsintel.Report
	EmailInput       = email.Input
	EmailResult      = email.Result
	WhoisInput       = whois.Input
	WhoisResult      = whois.Result
	CertHistoryInput = ct.HistoryInput
	CertHistory      = ct.History
	SubdomainsInput  = ct.SubdomainsInput
	Subdomains       = ct.Subdomains
	TLSInput         = tlsinspect.Input
	TLSReport        = tlsinspect.Report
	HeadersInput     = secheaders.Input
	HeadersReport    = secheaders.Report
	GeoIPInput       = geoip.GeoIPInput
	GeoIPLocation    = geoip.Location
	GeoIPBulkInput   = geoip.BulkInput
	GeoIPBulkResult  = geoip.BulkResult
	ASNInput         = geoip.ASNInput
	ASNInfo          = geoip.ASNInfo
	PageInfoInput    = pageinfo.Input
	PageInfoReport   = pageinfo.Report
	CompanyInput     = company.Input
	CompanyReport    = company.Report
	SitemapInput     = sitemap.Input
	SitemapReport    = sitemap.Report
)
