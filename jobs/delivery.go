package jobs

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/fetch"
	"github.com/webinfra/webinfra/internal/dnsmsg"
)

// The webhook retry policy.
//
// SPEC §6 states two retry rules without reconciling them: "up to three
// retries at 1 s, 2 s, 4 s within one delivery attempt" and "up to five
// attempts over 24 hours". Webinfra reads them as two levels:
//
//   - A delivery attempt (Sender.Attempt) is an immediate try plus up to
//     three retries after 1 s, 2 s and 4 s (Sender.Backoff): at most four
//     POSTs, each bounded by a 15 s timeout (Sender.TryTimeout). Short
//     outages, a restarting receiver or a dropped connection are absorbed
//     here.
//   - A delivery is up to MaxAttempts (five) such attempts. After failed
//     attempt n the next one is scheduled AttemptDelay(n) later: 1 min,
//     10 min, 1 h, 6 h. The waits add up to 7 h 11 min and an attempt lasts
//     at most about 67 s, so all five attempts fall well within 24 hours.
//     After the fifth failed attempt the delivery is failed for good: the
//     job result carries "_webhook" and it shows in the dead-letter view.
//
// All retrying lives in this file; the queue only schedules the next
// attempt at the time AttemptDelay gives.

// MaxAttempts is the number of delivery attempts made for one event.
const MaxAttempts = 5

// attemptDelays[n-1] is the wait after failed attempt n.
var attemptDelays = [MaxAttempts - 1]time.Duration{
	time.Minute,
	10 * time.Minute,
	time.Hour,
	6 * time.Hour,
}

// AttemptDelay returns how long to wait after failed delivery attempt n
// (1-based) before attempt n+1: 1m, 10m, 1h, 6h. It returns 0 when there is
// no next attempt (n >= MaxAttempts) or n < 1.
func AttemptDelay(attempt int) time.Duration {
	if attempt < 1 || attempt >= MaxAttempts {
		return 0
	}
	return attemptDelays[attempt-1]
}

// Defaults used for zero Sender fields.
const (
	// DefaultTryTimeout bounds one POST: connect, request, response
	// headers and the (capped) body read. A slower receiver has failed.
	DefaultTryTimeout = 15 * time.Second
	// DefaultWebhookUserAgent is sent when Sender.UserAgent is empty.
	DefaultWebhookUserAgent = "webinfra-webhooks/1.0 (+https://github.com/webinfra/webinfra)"
	// maxResponseRead is how much of a receiver's response body is read
	// (and discarded) so the connection can be reused.
	maxResponseRead = 64 << 10
	// maxWebhookURLLen is the longest webhook URL accepted.
	maxWebhookURLLen = 2048
)

// DefaultBackoff returns the waits before the retries of one attempt:
// 1s, 2s, 4s. It returns a new slice each time.
func DefaultBackoff() []time.Duration {
	return []time.Duration{time.Second, 2 * time.Second, 4 * time.Second}
}

// Delivery is one signed POST to send: Body goes to URL, signed with Secret,
// with EventID in EventIDHeader.
type Delivery struct {
	URL     string
	EventID string
	Body    []byte
	Secret  string
}

// TryResult describes one POST of an attempt.
type TryResult struct {
	Try        int           `json:"try"`             // 1-based within the attempt
	StatusCode int           `json:"status_code"`     // 0 when no response arrived
	Error      string        `json:"error,omitempty"` // why the try failed; empty on 2xx
	Latency    time.Duration `json:"latency_ns"`      // from sending to the end of the body read
	At         time.Time     `json:"at"`              // when the try started (its signature time)
}

// AttemptResult is the outcome of one delivery attempt.
type AttemptResult struct {
	Delivered      bool        `json:"delivered"` // a try got a 2xx
	Tries          []TryResult `json:"tries"`
	LastStatusCode int         `json:"last_status_code"` // of the last try; 0 if none
	LastError      string      `json:"last_error,omitempty"`
}

// Sender POSTs signed webhook deliveries. The zero value is usable; it is
// safe for concurrent use as long as its fields are not changed.
type Sender struct {
	// Client sends the POSTs. Pass the SSRF-guarded client
	// (fetch.Fetcher.Client) configured for this deployment; nil means a
	// guarded client with fetch's default options, which refuses private
	// and loopback addresses. Redirects are never followed whatever the
	// client's policy: a 3xx is a failed try.
	Client *http.Client
	// Now is the clock; nil means time.Now. Each try is signed with the
	// time Now returns when it starts.
	Now func() time.Time
	// Sleep waits between tries; nil means a timer that returns early with
	// ctx's error when ctx ends.
	Sleep func(ctx context.Context, d time.Duration) error
	// TryTimeout bounds each try; zero means DefaultTryTimeout.
	TryTimeout time.Duration
	// Backoff holds the wait before each retry, so an attempt is at most
	// 1+len(Backoff) tries. Nil means DefaultBackoff (1s, 2s, 4s); an empty
	// non-nil slice means a single try (for a test delivery).
	Backoff []time.Duration
	// UserAgent is sent with each POST; empty means DefaultWebhookUserAgent.
	UserAgent string
}

// Attempt makes one delivery attempt: an immediate try, then a retry after
// each Backoff wait, stopping at the first 2xx. Each try POSTs d.Body as
// application/json with a fresh SignatureHeader (signed at that try's
// start) and EventIDHeader. A non-2xx status (3xx included: redirects are
// not followed), a connection error or a try slower than TryTimeout is a
// failed try. onTry, when not nil, is called after every try, for logging.
//
// An invalid d.URL (see ValidateWebhookURL) ends the attempt before any
// try, with the reason in LastError. When ctx ends, the attempt stops and
// LastError says so.
func (s *Sender) Attempt(ctx context.Context, d Delivery, onTry func(TryResult)) AttemptResult {
	var res AttemptResult
	if err := ValidateWebhookURL(d.URL); err != nil {
		res.LastError = err.Error()
		return res
	}
	client, err := s.client()
	if err != nil {
		res.LastError = err.Error()
		return res
	}
	backoff := s.Backoff
	if backoff == nil {
		backoff = DefaultBackoff()
	}
	for n := 1; n <= 1+len(backoff); n++ {
		if n > 1 {
			if err := s.sleep(ctx, backoff[n-2]); err != nil {
				res.LastError = fmt.Sprintf("stopped before try %d: %v", n, err)
				return res
			}
		}
		tr := s.try(ctx, client, d, n)
		res.Tries = append(res.Tries, tr)
		res.LastStatusCode, res.LastError = tr.StatusCode, tr.Error
		if onTry != nil {
			onTry(tr)
		}
		if tr.Error == "" {
			res.Delivered = true
			return res
		}
		if err := ctx.Err(); err != nil {
			res.LastError = fmt.Sprintf("%s; stopped after try %d: %v", tr.Error, n, err)
			return res
		}
	}
	return res
}

// try makes one POST and reports it; Error is empty exactly when the
// receiver answered 2xx.
func (s *Sender) try(ctx context.Context, client *http.Client, d Delivery, n int) (tr TryResult) {
	timeout := s.TryTimeout
	if timeout <= 0 {
		timeout = DefaultTryTimeout
	}
	tctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	start := s.now()
	tr = TryResult{Try: n, At: start}
	defer func() { tr.Latency = s.now().Sub(start) }()

	req, err := http.NewRequestWithContext(tctx, http.MethodPost, d.URL, bytes.NewReader(d.Body))
	if err != nil {
		tr.Error = "building request: " + err.Error()
		return tr
	}
	userAgent := s.UserAgent
	if userAgent == "" {
		userAgent = DefaultWebhookUserAgent
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", userAgent)
	req.Header.Set(SignatureHeader, Sign(d.Body, d.Secret, start))
	req.Header.Set(EventIDHeader, d.EventID)

	resp, err := client.Do(req)
	if err != nil {
		tr.Error = describeTryError(ctx, tctx, err, timeout)
		return tr
	}
	tr.StatusCode = resp.StatusCode
	// Drain a bounded amount so the connection can be reused; a failure
	// here does not undo the status the receiver already sent.
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxResponseRead))
	_ = resp.Body.Close()
	switch code := resp.StatusCode; {
	case code >= 200 && code <= 299:
	case code >= 300 && code <= 399:
		tr.Error = fmt.Sprintf("receiver answered %d %s: redirects are not followed", code, http.StatusText(code))
	default:
		tr.Error = fmt.Sprintf("receiver answered %d %s", code, http.StatusText(code))
	}
	return tr
}

// describeTryError turns a failed client.Do into a message for the delivery
// log, without repeating the URL.
func describeTryError(parent, tctx context.Context, err error, timeout time.Duration) string {
	if parent.Err() == nil && errors.Is(tctx.Err(), context.DeadlineExceeded) {
		return fmt.Sprintf("no response within %s", timeout)
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return dnsmsg.Hide(err).Error()
}

func (s *Sender) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

func (s *Sender) sleep(ctx context.Context, d time.Duration) error {
	if s.Sleep != nil {
		return s.Sleep(ctx, d)
	}
	return sleepContext(ctx, d)
}

// client returns a shallow copy of the configured (or default guarded)
// client that never follows redirects.
func (s *Sender) client() (*http.Client, error) {
	base := s.Client
	if base == nil {
		var err error
		if base, err = defaultGuardedClient(); err != nil {
			return nil, err
		}
	}
	c := *base
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &c, nil
}

// defaultGuardedClient is the SSRF-guarded client used when Sender.Client
// is nil, built once.
var defaultGuardedClient = sync.OnceValues(func() (*http.Client, error) {
	f, err := fetch.New(nil)
	if err != nil {
		return nil, errs.Wrap(errs.KindInternal, err, "webhook client")
	}
	return f.Client(), nil
})

// sleepContext waits for d or until ctx ends, whichever is first, and
// returns ctx's error in the second case.
func sleepContext(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.C:
		return nil
	}
}

// ValidateWebhookURL checks a webhook URL before it is stored: it must
// parse as an absolute https URL with a host, carry no user information
// and be at most 2048 characters. The error is errs.Invalid for the field
// "webhook_url". Addresses are checked later, at dial time, by the guarded
// client.
func ValidateWebhookURL(raw string) error {
	const field = "webhook_url"
	if strings.TrimSpace(raw) == "" {
		return errs.Invalid(field, "must not be empty")
	}
	if len(raw) > maxWebhookURLLen {
		return errs.Invalid(field, "must be at most %d characters (got %d)", maxWebhookURLLen, len(raw))
	}
	u, err := url.Parse(raw)
	if err != nil {
		return errs.Invalid(field, "is not a valid URL")
	}
	switch {
	case strings.EqualFold(u.Scheme, "http"):
		return errs.Invalid(field, "must use https")
	case u.Scheme == "":
		return errs.Invalid(field, "must be an absolute https URL (https://host/path)")
	case !strings.EqualFold(u.Scheme, "https"):
		return errs.Invalid(field, "must use https, not %q", u.Scheme)
	case u.User != nil:
		return errs.Invalid(field, "must not contain a user name or password")
	case u.Opaque != "" || u.Hostname() == "":
		return errs.Invalid(field, "must be an absolute https URL with a host (https://host/path)")
	}
	return nil
}
