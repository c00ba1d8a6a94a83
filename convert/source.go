package convert

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/fetch"
)

// imageAccept is the Accept header of an image download.
const imageAccept = "image/png,image/jpeg,image/webp,image/bmp,image/tiff;q=0.9,*/*;q=0.5"

// parseImageURL checks a caller's image URL: absolute http(s), a host, no
// credentials, at most MaxURLLength characters.
func parseImageURL(raw string) (*url.URL, error) {
	if len(raw) > MaxURLLength {
		return nil, errs.Invalid("url", "is %d characters; at most %d", len(raw), MaxURLLength)
	}
	u, err := url.Parse(strings.TrimSpace(raw))
	switch {
	case err != nil:
		return nil, errs.Invalid("url", "is not a URL: %v", err)
	case u.Scheme != "http" && u.Scheme != "https":
		return nil, errs.Invalid("url", "must be an http or https URL, not %q", u.Scheme)
	case u.Hostname() == "":
		return nil, errs.Invalid("url", "has no host")
	case u.User != nil:
		return nil, errs.Invalid("url", "must not carry credentials (user:password@)")
	}
	return u, nil
}

// download gets the image at u through the fetcher's guarded client (the
// SSRF guard on every hop, the fetcher's trusted roots, redirect limit and
// timeouts) and reads at most maxBytes of it as it was sent: the client
// asks for no compression and converts no charset, so the bytes are the
// image's whatever its Content-Type says. Fetcher.Fetch is not used
// because it turns bodies labelled text/* into UTF-8, which would mangle
// an image served with the wrong type.
func download(ctx context.Context, f *fetch.Fetcher, u *url.URL, maxBytes int64) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, errs.Invalid("url", "%v", err)
	}
	req.Header.Set("User-Agent", fetch.DefaultUserAgent)
	req.Header.Set("Accept", imageAccept)
	client := f.Client()
	resp, err := client.Do(req)
	if err != nil {
		return nil, classifyDownload(ctx, err, u, client.Timeout)
	}
	defer resp.Body.Close()
	target := u.Redacted()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, errs.New(errs.KindUpstream, "fetch %s: the server answered %s, not the image", target, resp.Status)
	}
	if resp.ContentLength > maxBytes {
		return nil, tooLarge("url", "%s is %d bytes (Content-Length); an image may have at most %d",
			target, resp.ContentLength, maxBytes)
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxBytes+1))
	switch {
	case err != nil:
		return nil, classifyDownload(ctx, err, u, client.Timeout)
	case int64(len(data)) > maxBytes:
		return nil, tooLarge("url", "%s is more than %d bytes; an image may have at most %d", target, maxBytes, maxBytes)
	case len(data) == 0:
		return nil, errs.Invalid("url", "%s answered with an empty body, not an image", target)
	}
	return data, nil
}

// classifyDownload puts a client error into the error model: the guard's
// own errors (an SSRF refusal is errs.KindForbidden) keep their kind, no
// answer in time is errs.KindTimeout, the caller giving up is ctx's
// error, and anything else is errs.KindUpstream.
func classifyDownload(ctx context.Context, err error, u *url.URL, timeout time.Duration) error {
	target := u.Redacted()
	var e *errs.Error
	if errors.As(err, &e) {
		return errs.Wrap(e.Kind, e, "fetch %s", target)
	}
	if ctx.Err() != nil {
		return fmt.Errorf("fetch %s: %w", target, ctx.Err())
	}
	var netErr net.Error
	if errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &netErr) && netErr.Timeout()) {
		return errs.Wrap(errs.KindTimeout, err, "fetch %s: no complete answer within %s", target, timeout)
	}
	return errs.Wrap(errs.KindUpstream, err, "fetch %s failed", target)
}
