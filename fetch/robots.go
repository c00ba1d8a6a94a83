package fetch

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/fetch/robots"
)

// robots.txt handling: fetched through the direct tier's guarded client,
// read up to robots.MaxBytes (500 KiB; one byte more, so that the parser
// knows and warns when the file is longer), kept per origin for robotsTTL.
const (
	robotsTTL          = 10 * time.Minute
	robotsCacheEntries = 256
	robotsCacheBytes   = 16 << 20
)

// robotsRules is one origin's robots.txt, read by package robots.
type robotsRules struct {
	data *robots.Robots
}

// checkRobots refuses u with errs.KindForbidden when the origin's
// robots.txt disallows it for this fetcher's user agent, as package
// robots decides (RFC 9309 as Google reads it): a 2xx robots.txt is
// parsed, a 4xx allows everything, a 5xx or 429 disallows everything, and
// at most robots.MaxRedirects redirects are followed (a 3xx after them
// allows everything). A robots.txt that cannot be fetched at all is an
// errs.KindUpstream error, so the page is not fetched, as a complete
// disallow would have it (an SSRF refusal stays KindForbidden).
func (f *Fetcher) checkRobots(a *attempt) error {
	u := a.url
	rules, err := f.robotsFor(a)
	if err != nil {
		return err
	}
	agent := RobotsAgent(f.opts.UserAgent)
	d := rules.data.Test(agent, RobotsPath(u))
	switch {
	case d.Allowed:
		return nil
	case rules.data.Blanket == robots.DisallowAllURLs:
		return errs.New(errs.KindForbidden, "%s is disallowed by robots.txt (it answered HTTP %d, which means disallow all)", u.Redacted(), rules.data.Status)
	case d.MatchedRule != nil:
		return errs.New(errs.KindForbidden, "%s is disallowed by robots.txt for user agent %q (line %d: disallow: %s)", u.Redacted(), agent, d.MatchedRule.Line, d.MatchedRule.Pattern)
	}
	return errs.New(errs.KindForbidden, "%s is disallowed by robots.txt for user agent %q", u.Redacted(), agent)
}

// Robots returns the robots.txt of pageURL's origin as package robots
// reads it, with the status rules applied (a 4xx allows all, a 5xx or 429
// disallows all): from the fetcher's cache, or fetched through the SSRF
// guard within the fetcher's timeout. An origin that cannot be reached is
// an error (KindUpstream, KindForbidden for an SSRF refusal); RFC 9309
// then means a complete disallow, which callers apply.
func (f *Fetcher) Robots(ctx context.Context, pageURL string) (*robots.Robots, error) {
	u, err := parseURL(pageURL)
	if err != nil {
		return nil, err
	}
	bounded, cancel := context.WithTimeout(ctx, f.opts.Timeout)
	defer cancel()
	rules, err := f.robotsFor(&attempt{parent: ctx, ctx: bounded, url: u, timeout: f.opts.Timeout})
	if err != nil {
		return nil, err
	}
	return rules.data, nil
}

// robotsFor returns the robots.txt rules of a.url's origin, from the
// cache or fetched; a failed fetch is classified as Fetch's are.
func (f *Fetcher) robotsFor(a *attempt) (*robotsRules, error) {
	host := strings.ToLower(a.url.Host)
	origin := a.url.Scheme + "://" + host
	if rules, _, ok := f.robots.get(origin, f.now(), robotsTTL); ok {
		return rules, nil
	}
	robotsURL := &url.URL{Scheme: a.url.Scheme, Host: host, Path: "/robots.txt"}
	req, err := http.NewRequestWithContext(a.ctx, http.MethodGet, robotsURL.String(), nil)
	if err != nil {
		return nil, errs.Invalid("url", "%v", err)
	}
	req.Header.Set("User-Agent", f.opts.UserAgent)
	client := *f.client // the same guard, with robots.txt's redirect limit
	next := f.client.CheckRedirect
	client.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if len(via) > robots.MaxRedirects {
			return http.ErrUseLastResponse // a 3xx: robots.FromStatus allows all
		}
		if next == nil {
			return nil
		}
		return next(req, via)
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, f.classify(a.parent, a.ctx, err, robotsURL, a.timeout)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, robots.MaxBytes+1))
	if err != nil {
		return nil, errs.Wrap(errs.KindUpstream, err, "reading %s", robotsURL)
	}
	rules := &robotsRules{data: robots.FromStatus(resp.StatusCode, body)}
	f.robots.put(origin, rules, int64(len(body))+256, f.now())
	return rules, nil
}

// RobotsAgent is the product token robots.txt groups are matched against,
// taken from a User-Agent header (robots.ProductToken), in lower case:
// "webinfra" from "Mozilla/5.0 (compatible; webinfra/1.0; +url)", "mybot"
// from "mybot/2.0 (+url)"; "*" when there is none. The crawler matches
// with it too.
func RobotsAgent(userAgent string) string {
	if token := robots.ProductToken(userAgent); token != "" {
		return strings.ToLower(token)
	}
	return "*"
}

// RobotsPath is the part of u that robots.txt rules match: the escaped
// path ("/" when empty) and the query.
func RobotsPath(u *url.URL) string {
	path := u.EscapedPath()
	if path == "" {
		path = "/"
	}
	if u.RawQuery != "" {
		path += "?" + u.RawQuery
	}
	return path
}
