package intel

import (
	"context"
	"net/http"
	"os"
	"strings"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/fetch"
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

// Config names the data sources. The zero value means the defaults: the
// system's DNS resolvers, the bundled RDAP bootstrap with whois referral,
// crt.sh, and no GeoIP databases (geoip and asn then answer
// errs.KindUnavailable naming the flag to set).
type Config struct {
	// DNSResolvers are "host:port" addresses of the resolvers to ask;
	// empty: those of /etc/resolv.conf.
	DNSResolvers []string
	// RDAPBootstrap is a file in the format of IANA's RDAP DNS bootstrap
	// (data.iana.org/rdap/dns.json) replacing the bundled copy.
	RDAPBootstrap string
	// WhoisServer ("host:port") receives every whois query, with no
	// referral; empty: the registry's server, then its referral.
	WhoisServer string
	// CTURL is the base URL of a crt.sh-compatible JSON search; empty:
	// https://crt.sh/.
	CTURL string
	// GeoIPCityDB and GeoIPASNDB are MaxMind-format (.mmdb) files.
	GeoIPCityDB, GeoIPASNDB string
	// SMTPProbe lets e-mail verification ask the domain's mail server
	// whether it accepts the address (and any address: catch-all). Off by
	// default: it connects to third-party mail servers on port 25.
	SMTPProbe bool
	// TLSPort is the port TLS inspection connects to; 0: 443. Tests point
	// it at a loopback server.
	TLSPort int
}

// Client holds the opened sources; its methods are the intelligence
// capabilities that need one. It is safe for concurrent use.
type Client struct {
	fetcher  *fetch.Fetcher
	resolver *resolver.Resolver
	whois    *whois.Client
	ct       *ct.Client
	geoip    *geoip.DB
	smtp     bool
	tlsPort  int
}

// New opens the sources cfg names (nil: defaults). Every outbound
// connection to a host a caller named goes through f's SSRF guard (nil
// f: a fetcher with default options). A
// source that cannot be opened is an error naming its flag.
func New(f *fetch.Fetcher, cfg *Config) (*Client, error) {
	var c Config
	if cfg != nil {
		c = *cfg
	}
	var err error
	if f == nil {
		if f, err = fetch.New(nil); err != nil {
			return nil, err
		}
	}
	out := &Client{fetcher: f, smtp: c.SMTPProbe, tlsPort: c.TLSPort}
	// The name-server checks of DNS intelligence ask authoritative
	// servers the zone names: a caller's choice, so through the guard.
	if out.resolver, err = resolver.New(&resolver.Options{Servers: c.DNSResolvers, AuthorityDial: f.DialService}); err != nil {
		return nil, flagError("--dns-resolver", err)
	}
	var bootstrap []byte
	if c.RDAPBootstrap != "" {
		if bootstrap, err = os.ReadFile(c.RDAPBootstrap); err != nil {
			return nil, flagError("--rdap-bootstrap", err)
		}
	}
	if out.whois, err = whois.New(&whois.Options{Bootstrap: bootstrap, HTTPClient: f.Client(), WhoisServer: c.WhoisServer, Dial: f.DialService}); err != nil {
		return nil, flagError("--rdap-bootstrap", err)
	}
	// The log is the operator's (never a caller's) and slow to answer: a
	// client of its own, without the fetcher's 15 s header timeout, that
	// follows no redirect.
	ctClient := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	if out.ct, err = ct.New(&ct.Options{BaseURL: c.CTURL, HTTPClient: ctClient}); err != nil {
		return nil, flagError("--ct-url", err)
	}
	if c.GeoIPCityDB != "" || c.GeoIPASNDB != "" {
		if out.geoip, err = geoip.Open(geoip.Options{CityPath: c.GeoIPCityDB, ASNPath: c.GeoIPASNDB}); err != nil {
			return nil, err // names its flag
		}
	}
	return out, nil
}

// flagError names the flag whose value could not be used, unless err
// already does.
func flagError(flag string, err error) error {
	if strings.Contains(err.Error(), flag) {
		return err
	}
	return errs.Wrap(errs.KindInvalid, err, "%s", flag)
}

// Close releases the GeoIP databases.
func (c *Client) Close() error {
	if c.geoip != nil {
		return c.geoip.Close()
	}
	return nil
}

// DNSLookup answers one DNS question.
func (c *Client) DNSLookup(ctx context.Context, in resolver.LookupInput) (*resolver.LookupResult, error) {
	return c.resolver.Lookup(ctx, in)
}

// DNSIntelligence reads a domain's mail and delegation set-up from DNS.
func (c *Client) DNSIntelligence(ctx context.Context, in dnsintel.Input) (*dnsintel.Report, error) {
	return dnsintel.Analyze(ctx, c.resolver, in)
}

// VerifyEmail checks an address's syntax, domain and mail servers.
func (c *Client) VerifyEmail(ctx context.Context, in email.Input) (*email.Result, error) {
	return email.Verify(ctx, c.resolver, in, &email.Options{SMTPProbe: c.smtp, Dial: c.fetcher.DialService})
}

// Whois answers a domain's registration data, from RDAP or whois.
func (c *Client) Whois(ctx context.Context, in whois.Input) (*whois.Result, error) {
	return c.whois.Lookup(ctx, in)
}

// CertificateHistory lists the certificates logged for a domain.
func (c *Client) CertificateHistory(ctx context.Context, in ct.HistoryInput) (*ct.History, error) {
	return c.ct.History(ctx, in)
}

// Subdomains lists the names under a domain that logged certificates
// cover.
func (c *Client) Subdomains(ctx context.Context, in ct.SubdomainsInput) (*ct.Subdomains, error) {
	return c.ct.Subdomains(ctx, in)
}

// Headers grades the security headers of a page's response.
func (c *Client) Headers(ctx context.Context, in secheaders.Input) (*secheaders.Report, error) {
	return secheaders.Inspect(ctx, in, &secheaders.Options{HTTPClient: c.fetcher.Client()})
}

// TLS inspects a host's TLS set-up through the SSRF guard.
func (c *Client) TLS(ctx context.Context, in tlsinspect.Input) (*tlsinspect.Report, error) {
	return tlsinspect.Inspect(ctx, in, &tlsinspect.Options{Dial: c.fetcher.DialService, Verify: c.fetcher.VerifyChain, Port: c.tlsPort})
}

// Sitemap reads a site's sitemaps through the fetcher.
func (c *Client) Sitemap(ctx context.Context, in sitemap.Input) (*sitemap.Report, error) {
	return sitemap.Read(ctx, c.fetcher, in, nil)
}

// PageInfo fetches a page and reads what it says about itself and the
// software behind it.
func (c *Client) PageInfo(ctx context.Context, in pageinfo.Input) (*pageinfo.Report, error) {
	page, err := c.fetchPage(ctx, in.URL)
	if err != nil {
		return nil, err
	}
	return pageinfo.Analyze(page, nil), nil
}

// Company fetches a page (best a homepage or an about page) and reads a
// company profile from it.
func (c *Client) Company(ctx context.Context, in company.Input) (*company.Report, error) {
	page, err := c.fetchPage(ctx, in.URL)
	if err != nil {
		return nil, err
	}
	return company.Profile(page), nil
}

// fetchPage fetches a page through the cascade, whatever its status.
func (c *Client) fetchPage(ctx context.Context, url string) (pageinfo.Page, error) {
	res, err := c.fetcher.Fetch(ctx, fetch.Request{URL: url})
	if err != nil {
		return pageinfo.Page{}, err
	}
	return pageinfo.FromResponse(res), nil
}

// GeoIP answers where a public IP is and which network holds it. Without
// a database, the geoip package answers errs.KindUnavailable naming the
// flag to set (a nil *geoip.DB is usable).
func (c *Client) GeoIP(in geoip.GeoIPInput) (*geoip.Location, error) { return c.geoip.Lookup(in) }

// GeoIPBulk answers GeoIP for up to 100 IPs, each on its own.
func (c *Client) GeoIPBulk(in geoip.BulkInput) (*geoip.BulkResult, error) { return c.geoip.Bulk(in) }

// ASN answers an autonomous system's operator and routed prefixes.
func (c *Client) ASN(in geoip.ASNInput) (*geoip.ASNInfo, error) { return c.geoip.ASN(in) }
