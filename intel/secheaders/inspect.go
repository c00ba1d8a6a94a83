package secheaders

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/webinfra/webinfra/errs"
)

// DefaultTimeout bounds Inspect's request when Options.Timeout is zero.
const DefaultTimeout = 20 * time.Second

// maxDrainBytes is how much of a body Inspect reads before closing it, so
// that a small answer's connection can be reused.
const maxDrainBytes = 4 << 10

// Input names the page whose security headers are graded.
type Input struct {
	URL string `json:"url" minLength:"1" maxLength:"8192" format:"uri" example:"https://example.com/" doc:"The http or https URL to request; redirects are followed and the final answer is graded."`
}

// Options tune Inspect.
type Options struct {
	// HTTPClient sends the request. Required: the server passes its
	// fetcher's guarded client (fetch.Fetcher.Client), which applies the
	// SSRF guard, its redirect limit and its timeouts.
	HTTPClient *http.Client
	// UserAgent is sent with the request; empty means a webinfra agent.
	UserAgent string
	// Timeout bounds the request, redirects included; 0 means
	// DefaultTimeout.
	Timeout time.Duration
}

const defaultUserAgent = "Mozilla/5.0 (compatible; webinfra/1.0; +https://github.com/webinfra/webinfra)"

// Inspect requests in.URL with a GET (following redirects as
// opts.HTTPClient does), reads only the final answer's headers, and grades
// them. A URL that is not absolute http(s) is errs.KindInvalid ("url");
// an address the client's SSRF guard refuses is its errs.KindForbidden
// error; no answer in time is errs.KindTimeout; any other failure to get
// an answer is errs.KindUpstream. Any HTTP status is an answer and is
// graded.
func Inspect(ctx context.Context, in Input, opts *Options) (*Report, error) {
	if opts == nil || opts.HTTPClient == nil {
		return nil, errs.New(errs.KindInternal, "secheaders: Options.HTTPClient is required")
	}
	u, err := parseTarget(in.URL)
	if err != nil {
		return nil, err
	}
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, errs.Invalid("url", "%v", err)
	}
	ua := opts.UserAgent
	if ua == "" {
		ua = defaultUserAgent
	}
	req.Header.Set("User-Agent", ua)
	req.Header.Set("Accept", "text/html,application/xhtml+xml,*/*;q=0.8")
	resp, err := opts.HTTPClient.Do(req)
	if err != nil {
		return nil, classify(ctx, err, u, timeout)
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxDrainBytes))
	resp.Body.Close()
	final := u.String()
	if resp.Request != nil && resp.Request.URL != nil {
		final = resp.Request.URL.String()
	}
	return Grade(Page{URL: final, Status: resp.StatusCode, Header: resp.Header}), nil
}

func parseTarget(raw string) (*url.URL, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return nil, errs.Invalid("url", "is required")
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, errs.Invalid("url", "is not a URL: %v", err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, errs.Invalid("url", "must be an http or https URL")
	}
	if u.Hostname() == "" {
		return nil, errs.Invalid("url", "has no host")
	}
	if u.User != nil {
		return nil, errs.Invalid("url", "must not carry credentials")
	}
	return u, nil
}

// classify turns a client error into the error model. The URL is the
// caller's, so naming it exposes nothing of ours.
func classify(ctx context.Context, err error, u *url.URL, timeout time.Duration) error {
	target := u.Redacted()
	var e *errs.Error
	if errors.As(err, &e) { // the SSRF guard's refusal, the fetcher's own limits
		return err
	}
	if errors.Is(err, context.Canceled) && ctx.Err() == context.Canceled {
		return err
	}
	var netErr net.Error
	if errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &netErr) && netErr.Timeout()) {
		return errs.Wrap(errs.KindTimeout, err, "%s did not answer within %s", target, timeout)
	}
	return errs.Wrap(errs.KindUpstream, err, "request to %s failed", target)
}
