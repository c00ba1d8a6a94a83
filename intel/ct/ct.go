package ct

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/webinfra/webinfra/errs"
)

// Defaults for zero Options fields.
const (
	DefaultBaseURL      = "https://crt.sh/"
	DefaultMaxBodyBytes = 64 << 20
	DefaultMaxEntries   = 20_000
	DefaultTimeout      = 60 * time.Second // crt.sh is slow on large domains
)

// source names the data source in every error, never its address (an
// operator may point --ct-url at an internal mirror).
const source = "certificate transparency log"

// Options configure a Client. The zero value (or nil) means defaults.
type Options struct {
	// BaseURL is the crt.sh-compatible search endpoint; empty means
	// DefaultBaseURL. Queries go to BaseURL with q, output=json,
	// deduplicate=Y and, when asked, exclude=expired added.
	BaseURL string
	// HTTPClient sends the queries; nil means a client of its own with
	// the system's roots and proxy settings. The server passes its
	// fetcher's client (fetch.Fetcher.Client). BaseURL is the operator's,
	// never a caller's, so the SSRF guard is not needed here, but a
	// guarded client is harmless unless BaseURL is a private address.
	HTTPClient *http.Client
	// MaxBodyBytes caps the answer read; beyond it the rows read so far
	// are used and the result is marked incomplete. 0 means
	// DefaultMaxBodyBytes.
	MaxBodyBytes int64
	// MaxEntries caps the rows read (a certificate is often two rows:
	// precertificate and certificate); beyond it the result is marked
	// incomplete. 0 means DefaultMaxEntries.
	MaxEntries int
	// Timeout bounds one query, body included. 0 means DefaultTimeout.
	// The HTTP client's own timeouts apply too.
	Timeout time.Duration
	// Now is the clock that decides which certificates are expired; nil
	// means time.Now.
	Now func() time.Time
}

// Client queries a crt.sh-compatible certificate transparency search.
type Client struct {
	base    *url.URL
	client  *http.Client
	maxBody int64
	maxRows int
	timeout time.Duration
	now     func() time.Time
}

// New returns a Client. A BaseURL that is not an absolute http(s) URL is
// errs.KindInvalid ("base_url").
func New(opts *Options) (*Client, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.BaseURL == "" {
		o.BaseURL = DefaultBaseURL
	}
	base, err := url.Parse(o.BaseURL)
	if err != nil || (base.Scheme != "http" && base.Scheme != "https") || base.Host == "" {
		return nil, errs.Invalid("base_url", "must be an absolute http or https URL")
	}
	c := &Client{base: base, client: o.HTTPClient, maxBody: o.MaxBodyBytes, maxRows: o.MaxEntries, timeout: o.Timeout, now: o.Now}
	if c.client == nil {
		c.client = &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
	}
	if c.maxBody <= 0 {
		c.maxBody = DefaultMaxBodyBytes
	}
	if c.maxRows <= 0 {
		c.maxRows = DefaultMaxEntries
	}
	if c.timeout <= 0 {
		c.timeout = DefaultTimeout
	}
	if c.now == nil {
		c.now = time.Now
	}
	return c, nil
}

// answer is the rows of one query and whether the log had more than was
// read.
type answer struct {
	rows       []row
	incomplete bool
}

// query asks the log for the certificates naming domain (or, with
// subdomains, any name ending in "."+domain: crt.sh's "%.domain").
func (c *Client) query(ctx context.Context, domain string, subdomains, excludeExpired bool) (*answer, error) {
	q := url.Values{"output": {"json"}, "deduplicate": {"Y"}}
	if subdomains {
		q.Set("q", "%."+domain)
	} else {
		q.Set("q", domain)
	}
	if excludeExpired {
		q.Set("exclude", "expired")
	}
	u := *c.base
	u.RawQuery = q.Encode()
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, errs.Wrap(errs.KindInternal, err, "%s query", source)
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "webinfra/1.0 (+https://github.com/webinfra/webinfra)")
	resp, err := c.client.Do(req)
	if err != nil {
		return nil, c.classify(ctx, err)
	}
	defer resp.Body.Close()
	if err := checkResponse(resp); err != nil {
		return nil, err
	}
	return c.decode(ctx, resp.Body)
}

// checkResponse refuses answers that cannot hold the JSON rows.
func checkResponse(resp *http.Response) error {
	if resp.StatusCode != http.StatusOK {
		e := errs.New(errs.KindUpstream, "%s answered HTTP %d", source, resp.StatusCode)
		if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable {
			e.Message += " (busy: try again later)"
			if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && s > 0 && s <= 3600 {
				e.RetryAfter = time.Duration(s) * time.Second
			}
		}
		return e
	}
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if strings.Contains(mt, "html") {
		return errs.New(errs.KindUpstream, "%s answered an HTML page instead of JSON (it may be overloaded)", source)
	}
	return nil
}

// decode reads the JSON array row by row, stopping at c.maxRows rows or
// c.maxBody bytes (the rows read by then are kept: the answer is
// incomplete, not wrong).
func (c *Client) decode(ctx context.Context, body io.Reader) (*answer, error) {
	counted := &countingReader{r: io.LimitReader(body, c.maxBody+1)}
	dec := json.NewDecoder(counted)
	tok, err := dec.Token()
	if err != nil {
		return nil, c.bodyError(ctx, err, counted)
	}
	if tok == nil { // JSON null: nothing found
		return &answer{}, nil
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		return nil, errs.New(errs.KindUpstream, "%s answered JSON that is not a list of certificates", source)
	}
	a := &answer{}
	for dec.More() {
		if len(a.rows) == c.maxRows {
			a.incomplete = true
			return a, nil
		}
		var r row
		if err := dec.Decode(&r); err != nil {
			if counted.n > c.maxBody {
				a.incomplete = true
				return a, nil
			}
			return nil, c.bodyError(ctx, err, counted)
		}
		a.rows = append(a.rows, r)
	}
	if _, err := dec.Token(); err != nil && counted.n > c.maxBody {
		a.incomplete = true
	} else if err != nil {
		return nil, c.bodyError(ctx, err, counted)
	}
	return a, nil
}

// bodyError classifies a failure while reading the answer.
func (c *Client) bodyError(ctx context.Context, err error, counted *countingReader) error {
	var syntax *json.SyntaxError
	var typeErr *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax) || errors.As(err, &typeErr):
		return errs.New(errs.KindUpstream, "%s answered invalid JSON (%s)", source, describeJSONError(err))
	case counted.n > c.maxBody:
		return errs.New(errs.KindUpstream, "%s answered more than %d bytes before the first certificate", source, c.maxBody)
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return errs.New(errs.KindUpstream, "%s answered a truncated list", source)
	}
	return c.classify(ctx, err)
}

// describeJSONError names what was wrong with the JSON, without echoing
// the source's bytes.
func describeJSONError(err error) string {
	var syntax *json.SyntaxError
	if errors.As(err, &syntax) {
		return fmt.Sprintf("syntax error at byte %d", syntax.Offset)
	}
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) {
		return fmt.Sprintf("field %q has a %s value", typeErr.Field, typeErr.Value)
	}
	return "unreadable"
}

// classify turns a transport error into the error model. Its message
// names the source but not its address, which only the operator knows;
// the original error stays in the chain for logs.
func (c *Client) classify(ctx context.Context, err error) error {
	var netErr net.Error
	var dnsErr *net.DNSError
	var kindErr *errs.Error
	switch {
	case errors.Is(err, context.Canceled) && ctx.Err() == context.Canceled:
		return fmt.Errorf("%s query cancelled: %w", source, hide(err, "cancelled"))
	case errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &netErr) && netErr.Timeout()):
		if ctx.Err() == context.DeadlineExceeded {
			return errs.Wrap(errs.KindTimeout, hide(err, "timeout"), "%s did not answer within %s", source, c.timeout)
		}
		return errs.Wrap(errs.KindTimeout, hide(err, "timeout"), "%s did not answer in time", source)
	case errors.As(err, &kindErr) && kindErr.Kind == errs.KindForbidden:
		return errs.Wrap(errs.KindUnavailable, hide(err, "address refused by the SSRF guard"),
			"%s is at an address this server may not reach (the operator can allow it with --allow-networks)", source)
	case errors.As(err, &dnsErr):
		return errs.Wrap(errs.KindUpstream, hide(err, "DNS lookup failed"), "%s unreachable", source)
	case errors.Is(err, syscall.ECONNREFUSED):
		return errs.Wrap(errs.KindUpstream, hide(err, "connection refused"), "%s unreachable", source)
	case errors.Is(err, syscall.ECONNRESET) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return errs.Wrap(errs.KindUpstream, hide(err, "connection closed"), "%s unreachable", source)
	}
	return errs.Wrap(errs.KindUpstream, hide(err, "request failed"), "%s unreachable", source)
}

// hidden keeps an error in the chain (errors.Is and As see it) under a
// message that does not reveal the operator's address.
type hidden struct {
	msg string
	err error
}

func hide(err error, msg string) error { return &hidden{msg: msg, err: err} }
func (h *hidden) Error() string        { return h.msg }
func (h *hidden) Unwrap() error        { return h.err }

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (r *countingReader) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	r.n += int64(n)
	return n, err
}
