package whois

import (
	"context"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/fetch"
)

// Defaults and caps.
const (
	// DefaultTimeout bounds each source: the RDAP query (with its related
	// registrar hop), then the whois query (with IANA and the referral).
	DefaultTimeout = 10 * time.Second
	// DefaultMaxRDAPBytes caps one RDAP answer.
	DefaultMaxRDAPBytes = 1 << 20
	// DefaultMaxWhoisBytes caps one whois answer.
	DefaultMaxWhoisBytes = 256 << 10
	// MaxRawBytes caps Result.Raw.
	MaxRawBytes = 64 << 10

	maxNameServers = 32
	maxStatuses    = 32
)

// Where a Result came from (Result.Source).
const (
	SourceRDAP  = "rdap"
	SourceWhois = "whois"
)

// Input names the domain to look up.
type Input struct {
	Domain string `json:"domain" minLength:"1" maxLength:"253" example:"example.com" doc:"A domain name; a subdomain is cut to its registrable domain (www.example.co.uk → example.co.uk) and an internationalized name is sent as A-labels. Not a URL."`
}

// Result is a domain's registration data.
type Result struct {
	Domain         string      `json:"domain" example:"example.com" doc:"The registrable domain looked up, in lower-case A-labels."`
	Source         string      `json:"source" enum:"rdap,whois" doc:"Where the data came from: the registry's RDAP service, or whois (port 43) when the registry has no RDAP service or it failed."`
	Registrar      *Registrar  `json:"registrar,omitempty" doc:"The sponsoring registrar; absent when the source names none."`
	Created        string      `json:"created,omitempty" example:"1997-09-15T04:00:00Z" doc:"Registration date, RFC 3339 in UTC."`
	Updated        string      `json:"updated,omitempty" doc:"Last change of the registration, RFC 3339 in UTC."`
	Expires        string      `json:"expires,omitempty" doc:"Expiry of the registration, RFC 3339 in UTC."`
	Status         []string    `json:"status" example:"clientTransferProhibited" doc:"EPP status codes (RFC 5731; RDAP's 'client transfer prohibited' is given as clientTransferProhibited, 'active' as ok)."`
	NameServers    []string    `json:"name_servers" example:"ns1.example.com" doc:"Delegated name servers, lower case, without the final dot."`
	DNSSEC         *DNSSEC     `json:"dnssec,omitempty" doc:"Whether the delegation is DNSSEC-signed; absent when the source does not say."`
	Registrant     *Registrant `json:"registrant,omitempty" doc:"The registrant, when the source publishes it unredacted."`
	RDAPURL        string      `json:"rdap_url,omitempty" doc:"The registry RDAP URL asked (source rdap)."`
	RDAPRelatedURL string      `json:"rdap_related_url,omitempty" doc:"The registrar's RDAP URL (the registry's 'related' link) whose answer filled in what the registry left out."`
	RDAPFallback   string      `json:"rdap_fallback,omitempty" doc:"Why RDAP was not used although the registry has it (source whois): the RDAP error."`
	WhoisServer    string      `json:"whois_server,omitempty" example:"whois.verisign-grs.com" doc:"The whois server whose answer was read last (source whois); absent when the operator's configured whois server answered."`
	Raw            string      `json:"raw" doc:"The registry's RDAP JSON, or the whois text (registry and referral answers in order), up to 64 KiB."`
	RawTruncated   bool        `json:"raw_truncated" doc:"Raw was cut at 64 KiB."`
}

// Registrar is the sponsoring registrar.
type Registrar struct {
	Name       string `json:"name,omitempty" example:"MarkMonitor Inc."`
	IANAID     string `json:"iana_id,omitempty" example:"292" doc:"The registrar's IANA ID."`
	URL        string `json:"url,omitempty" doc:"The registrar's web site."`
	AbuseEmail string `json:"abuse_email,omitempty" doc:"Where to report abuse of the domain."`
}

// Registrant is what the source publishes of the domain's holder.
type Registrant struct {
	Organization string `json:"organization,omitempty"`
	Country      string `json:"country,omitempty" doc:"ISO 3166 code or country name, as the source gives it."`
}

// DNSSEC says whether the delegation is signed.
type DNSSEC struct {
	Signed bool `json:"signed"`
}

// DialFunc opens a TCP connection, as net.Dialer.DialContext does.
type DialFunc func(ctx context.Context, network, addr string) (net.Conn, error)

// Options configure a Client. The zero value (or nil) means defaults.
type Options struct {
	// Bootstrap is an RFC 9224 DNS bootstrap file (the format of
	// https://data.iana.org/rdap/dns.json) replacing the bundled copy:
	// the server's --rdap-bootstrap.
	Bootstrap []byte
	// HTTPClient sends the RDAP queries and follows the registry's
	// related link, a URL an upstream chose: give one behind the SSRF
	// guard (fetch.Fetcher.Client). Nil: the guarded client of a default
	// fetch.Fetcher.
	HTTPClient *http.Client
	// WhoisServer ("host:port") receives every whois query, with no IANA
	// lookup and no referral: the server's --whois-server. It is the
	// operator's choice, so it is dialled directly, not through Dial.
	WhoisServer string
	// Dial opens whois connections (port 43) to the servers IANA and the
	// registries name: give one behind the SSRF guard
	// (fetch.Fetcher.DialService). Nil: a default fetch.Fetcher's.
	Dial DialFunc
	// Timeout bounds each source (see DefaultTimeout); 0 means the
	// default.
	Timeout time.Duration
	// MaxRDAPBytes and MaxWhoisBytes cap one answer; 0 means
	// DefaultMaxRDAPBytes and DefaultMaxWhoisBytes.
	MaxRDAPBytes, MaxWhoisBytes int64
}

// Client looks up registration data. It is safe for concurrent use.
type Client struct {
	bootstrap     *bootstrap
	http          *http.Client
	dial          DialFunc
	whoisServer   string
	timeout       time.Duration
	maxRDAPBytes  int64
	maxWhoisBytes int64
}

// New returns a Client. A bootstrap file that is not RFC 9224 JSON is an
// errs.KindInvalid error naming --rdap-bootstrap; a WhoisServer that is
// not host:port one naming --whois-server.
func New(opts *Options) (*Client, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	c := &Client{http: o.HTTPClient, dial: o.Dial, whoisServer: o.WhoisServer, timeout: o.Timeout,
		maxRDAPBytes: o.MaxRDAPBytes, maxWhoisBytes: o.MaxWhoisBytes}
	data := o.Bootstrap
	if data == nil {
		data = bundledBootstrap
	}
	var err error
	if c.bootstrap, err = parseBootstrap(data); err != nil {
		return nil, errs.Wrap(errs.KindInvalid, err, "--rdap-bootstrap: the RDAP bootstrap file is not usable")
	}
	if c.whoisServer != "" {
		if err := checkHostPort(c.whoisServer); err != nil {
			return nil, errs.Invalid("whois_server", "--whois-server must be host:port: %v", err)
		}
	}
	if c.timeout < 0 || c.maxRDAPBytes < 0 || c.maxWhoisBytes < 0 {
		return nil, errs.Invalid("options", "Timeout, MaxRDAPBytes and MaxWhoisBytes must not be negative")
	}
	c.timeout = orDefault(c.timeout, DefaultTimeout)
	c.maxRDAPBytes = orDefault(c.maxRDAPBytes, DefaultMaxRDAPBytes)
	c.maxWhoisBytes = orDefault(c.maxWhoisBytes, DefaultMaxWhoisBytes)
	if c.http == nil || c.dial == nil {
		// Never http.DefaultClient or a bare net.Dialer: the related link
		// and the whois referral are addresses an upstream chose.
		f, err := fetch.New(nil)
		if err != nil {
			return nil, err
		}
		if c.http == nil {
			c.http = f.Client()
		}
		if c.dial == nil {
			c.dial = f.DialService
		}
	}
	return c, nil
}

// orDefault is v, or def when v is zero.
func orDefault[T comparable](v, def T) T {
	var zero T
	if v == zero {
		return def
	}
	return v
}

func checkHostPort(addr string) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return err
	}
	if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 || host == "" {
		return errs.New(errs.KindInvalid, "no host or a bad port")
	}
	return nil
}

// Lookup answers in.Domain's registration data: from the registry's RDAP
// service when the bootstrap lists one for its TLD, else (or when RDAP
// fails other than with 404) from whois.
//
// Errors: a bad domain is errs.Invalid("domain"); a domain the registry
// does not hold is errs.KindNotFound ("not registered", from an RDAP 404
// or a whois "no match"); a source that did not answer in time is
// errs.KindTimeout; one that could not be reached, answered garbage or
// too much is errs.KindUpstream; no whois server known for the TLD is
// errs.KindUnavailable. When RDAP fails and whois fails too, the error
// (of whois's kind) names both. Messages name the source ("RDAP server",
// "whois server"), never an address. Cancelling ctx returns ctx's error.
func (c *Client) Lookup(ctx context.Context, in Input) (*Result, error) {
	domain, err := registrableDomain(in.Domain)
	if err != nil {
		return nil, err
	}
	base := c.bootstrap.baseFor(domain)
	if base == "" {
		res, err := c.lookupWhois(ctx, domain)
		return c.checked(ctx, res, err)
	}
	res, rdapErr := c.lookupRDAP(ctx, domain, base)
	if rdapErr == nil || errs.Is(rdapErr, errs.KindNotFound) || ctx.Err() != nil {
		return c.checked(ctx, res, rdapErr)
	}
	res, whoisErr := c.lookupWhois(ctx, domain)
	if whoisErr != nil {
		return c.checked(ctx, nil, errs.Wrap(errs.KindOf(whoisErr), whoisErr, "%v; then whois", rdapErr))
	}
	res.RDAPFallback = rdapErr.Error()
	return res, nil
}

// checked turns any error into ctx's own once the caller has cancelled.
func (c *Client) checked(ctx context.Context, res *Result, err error) (*Result, error) {
	if err != nil && ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return res, err
}

// newResult is an empty result for domain from source.
func newResult(domain, source string) *Result {
	return &Result{Domain: domain, Source: source, Status: []string{}, NameServers: []string{}}
}

// setRaw keeps the source's answer, cut at MaxRawBytes.
func (r *Result) setRaw(raw string) {
	if len(raw) > MaxRawBytes {
		raw, r.RawTruncated = raw[:MaxRawBytes], true
	}
	r.Raw = raw
}

// utc formats t as RFC 3339 in UTC, "" for the zero time.
func utc(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}
