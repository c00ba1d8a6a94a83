package fetch

import (
	"crypto/x509"
	"net/http"
	"net/netip"
	"slices"
	"time"

	"github.com/webinfra/webinfra/errs"
)

// Tier is a way of fetching a page.
type Tier string

// The fetch tiers, in cascade order.
const (
	TierDirect      Tier = "direct"      // a plain HTTP client from this host
	TierRender      Tier = "render"      // a headless browser (Options.Renderer)
	TierResidential Tier = "residential" // plain HTTP through a proxy (Options.Proxies or Options.Proxy)
)

// tierOrder is the cascade order: a cascade tries the allowed tiers in
// this order.
var tierOrder = []Tier{TierDirect, TierRender, TierResidential}

// rank is a tier's place in tierOrder, or -1 for an unknown tier.
func (t Tier) rank() int { return slices.Index(tierOrder, t) }

// Defaults used for zero Options fields.
const (
	DefaultUserAgent       = "Mozilla/5.0 (compatible; webinfra/1.0; +https://github.com/webinfra/webinfra)"
	DefaultMaxBodyBytes    = 10 << 20
	DefaultMaxDecodedBytes = 20 << 20
	DefaultConnectTimeout  = 10 * time.Second
	DefaultHeaderTimeout   = 15 * time.Second
	DefaultTimeout         = 30 * time.Second
	DefaultMaxRedirects    = 10
	DefaultCacheEntries    = 512
	DefaultCacheBytes      = 64 << 20
)

// DefaultAllowedPorts are the ports the SSRF guard lets through by default.
var DefaultAllowedPorts = []int{80, 443}

// Options configure a Fetcher. The zero value (or nil) means defaults.
type Options struct {
	// UserAgent is sent with every request; empty means DefaultUserAgent.
	UserAgent string
	// AllowPrivateNetworks lifts the SSRF guard's address and port rules so
	// loopback, private and link-local targets on any port can be fetched.
	// For tests and self-hosted intranets only. Cloud-metadata addresses
	// stay refused unless AllowNetworks lists them.
	AllowPrivateNetworks bool
	// AllowNetworks are networks the guard lets through, on any port,
	// whatever their kind (an intranet's 10.1.0.0/16): a narrower door
	// than AllowPrivateNetworks, and the only way to reach a cloud-metadata
	// address.
	AllowNetworks []netip.Prefix
	// AllowedPorts are the destination ports the guard allows; empty means
	// DefaultAllowedPorts. Ignored when AllowPrivateNetworks is set.
	AllowedPorts []int
	// RootCAs are extra trusted roots, added to the system's.
	RootCAs *x509.CertPool
	// MaxBodyBytes caps the body as received (possibly compressed).
	MaxBodyBytes int64
	// MaxDecodedBytes caps the body after content decoding.
	MaxDecodedBytes int64
	// ConnectTimeout bounds the TCP connect and the TLS handshake.
	ConnectTimeout time.Duration
	// HeaderTimeout bounds the wait for response headers after the request
	// is written.
	HeaderTimeout time.Duration
	// Timeout bounds the whole fetch, redirects and body included; a
	// Request.Timeout overrides it for one fetch.
	Timeout time.Duration
	// MaxRedirects is how many redirects are followed; 0 means
	// DefaultMaxRedirects and a negative value means none: the redirect
	// response itself is returned.
	MaxRedirects int

	// Renderer is the render tier (a headless browser, see fetch/render);
	// nil means the render tier is unavailable.
	Renderer Renderer
	// Proxies are the residential tier's proxy URLs (http://, https://,
	// socks5:// or socks5h://, optionally with user:password@), used
	// round-robin unless a request picks one (Request.Proxy). Empty, with
	// Proxy nil, means the residential tier is unavailable.
	Proxies []string
	// Proxy is the proxy seam: a provider that picks the residential
	// tier's proxy per request. Set Proxies or Proxy, not both.
	Proxy Proxy

	// Cache is the scrape cache seam (ScrapeRequest.MaxAgeMS); nil means
	// the in-process LRU bounded by CacheEntries and CacheBytes. A shared
	// one (fetch/rediscache) lets every process of a deployment answer
	// from any process's fetch.
	Cache ScrapeCache
	// CacheEntries bounds the in-process scrape cache by entries: 0 means
	// DefaultCacheEntries, negative turns the cache off.
	CacheEntries int
	// CacheBytes bounds the scrape cache by the size of the pages it
	// holds; 0 means DefaultCacheBytes.
	CacheBytes int64
	// Now is the clock (cache ages, durations); nil means time.Now.
	Now func() time.Time
}

// resolve returns a copy of o with defaults filled in, or an invalid-input
// error naming the bad field.
func (o *Options) resolve() (Options, error) {
	var r Options
	if o != nil {
		r = *o
	}
	if r.MaxBodyBytes < 0 {
		return r, errs.Invalid("options.max_body_bytes", "must not be negative")
	}
	if r.MaxDecodedBytes < 0 {
		return r, errs.Invalid("options.max_decoded_bytes", "must not be negative")
	}
	for _, d := range []struct {
		field string
		value time.Duration
	}{
		{"options.connect_timeout", r.ConnectTimeout},
		{"options.header_timeout", r.HeaderTimeout},
		{"options.timeout", r.Timeout},
	} {
		if d.value < 0 {
			return r, errs.Invalid(d.field, "must not be negative")
		}
	}
	if r.CacheBytes < 0 {
		return r, errs.Invalid("options.cache_bytes", "must not be negative")
	}
	if len(r.Proxies) > 0 && r.Proxy != nil {
		return r, errs.Invalid("options.proxies", "set proxies or a proxy provider, not both")
	}
	for _, p := range r.AllowedPorts {
		if p < 1 || p > 65535 {
			return r, errs.Invalid("options.allowed_ports", "port %d is out of range 1-65535", p)
		}
	}
	if r.UserAgent == "" {
		r.UserAgent = DefaultUserAgent
	}
	if len(r.AllowedPorts) == 0 {
		r.AllowedPorts = DefaultAllowedPorts
	}
	r.AllowedPorts = append([]int(nil), r.AllowedPorts...)
	r.MaxBodyBytes = orDefault(r.MaxBodyBytes, DefaultMaxBodyBytes)
	r.MaxDecodedBytes = orDefault(r.MaxDecodedBytes, DefaultMaxDecodedBytes)
	r.ConnectTimeout = orDefault(r.ConnectTimeout, DefaultConnectTimeout)
	r.HeaderTimeout = orDefault(r.HeaderTimeout, DefaultHeaderTimeout)
	r.Timeout = orDefault(r.Timeout, DefaultTimeout)
	r.MaxRedirects = orDefault(r.MaxRedirects, DefaultMaxRedirects)
	r.CacheEntries = orDefault(r.CacheEntries, DefaultCacheEntries)
	r.CacheBytes = orDefault(r.CacheBytes, DefaultCacheBytes)
	r.Proxies = append([]string(nil), r.Proxies...)
	if r.Now == nil {
		r.Now = time.Now
	}
	return r, nil
}

func orDefault[T int | int64 | time.Duration](v, def T) T {
	if v == 0 {
		return def
	}
	return v
}

// Request is one fetch.
type Request struct {
	// URL is the absolute http or https URL to fetch.
	URL string `json:"url"`
	// Headers are extra request headers. Accept-Encoding is managed by the
	// fetcher and cannot be overridden; Host, hop-by-hop and proxy headers
	// are refused.
	Headers map[string]string `json:"headers,omitempty"`
	// Timeout overrides Options.Timeout for this fetch when positive. It
	// bounds the whole cascade, every tier tried included.
	Timeout time.Duration `json:"timeout,omitempty"`
	// Tier pins one tier: only that tier is tried, and it must be
	// available (else errs.KindUnavailable). Empty means a cascade.
	Tier Tier `json:"tier,omitempty"`
	// MaxTier caps the cascade: tiers after it are not tried. Empty means
	// no cap.
	MaxTier Tier `json:"max_tier,omitempty"`
	// UseResidential lets the cascade go on to the residential tier, which
	// costs more; without it (and without Tier pinning it) the cascade
	// stops before that tier.
	UseResidential bool `json:"use_residential_proxy,omitempty"`
	// Proxy picks the residential proxy: empty rotates through the pool,
	// "#N" takes the pool's Nth proxy (from 0), and any other value is a
	// sticky key: the same key always gets the same proxy.
	Proxy string `json:"proxy,omitempty"`
	// WaitFor is a CSS selector the page must contain. The render tier
	// waits for it; a direct or residential page without it escalates to
	// the render tier when the cascade allows it.
	WaitFor string `json:"wait_for,omitempty"`
	// Screenshot asks for a full-page PNG, which only the render tier
	// takes: the cascade is then the render tier alone.
	Screenshot bool `json:"screenshot,omitempty"`
}

// Hop is one redirect: the URL that answered with a redirect, and its status.
type Hop struct {
	URL    string `json:"url"`
	Status int    `json:"status"`
}

// Response is a fetched page. Any HTTP status is a response, not an error.
type Response struct {
	URL         string        `json:"url"`       // as requested
	FinalURL    string        `json:"final_url"` // after redirects
	StatusCode  int           `json:"status_code"`
	Header      http.Header   `json:"headers"`
	Body        []byte        `json:"-"`            // UTF-8 for textual media types, else as received (decoded)
	ContentType string        `json:"content_type"` // media type without parameters, sniffed when absent
	Charset     string        `json:"charset,omitempty"`
	Redirects   []Hop         `json:"redirects,omitempty"`
	TierUsed    Tier          `json:"tier_used"`            // the tier whose answer this is
	CascadePath []Tier        `json:"cascade_path"`         // the tiers tried, in order, TierUsed among them
	Screenshot  []byte        `json:"screenshot,omitempty"` // PNG, render tier only, when asked for
	Duration    time.Duration `json:"duration_ns"`
}
