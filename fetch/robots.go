package fetch

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/temoto/robotstxt"

	"github.com/webinfra/webinfra/errs"
)

// robots.txt handling: fetched through the direct tier's guarded client,
// read up to robotsMaxBytes (Google reads 500 KiB), kept per origin for
// robotsTTL.
const (
	robotsMaxBytes     = 512 << 10
	robotsTTL          = 10 * time.Minute
	robotsCacheEntries = 256
	robotsCacheBytes   = 16 << 20
)

// robotsRules is one origin's robots.txt, parsed.
type robotsRules struct {
	data   *robotstxt.RobotsData
	status int // of the robots.txt response
}

// checkRobots refuses u with errs.KindForbidden when the origin's
// robots.txt disallows it for this fetcher's user agent. Following
// Google's rules (as robotstxt implements them): a 4xx robots.txt allows
// everything, a 5xx disallows everything, and a file that does not parse
// allows everything. A robots.txt that cannot be fetched at all is an
// errs.KindUpstream error (an SSRF refusal stays KindForbidden).
func (f *Fetcher) checkRobots(a *attempt) error {
	u := a.url
	rules, err := f.robotsFor(a)
	if err != nil {
		return err
	}
	agent := RobotsAgent(f.opts.UserAgent)
	if rules.data.TestAgent(RobotsPath(u), agent) {
		return nil
	}
	if rules.status >= 500 {
		return errs.New(errs.KindForbidden, "%s is disallowed by robots.txt (it answered HTTP %d, which means disallow all)", u.Redacted(), rules.status)
	}
	return errs.New(errs.KindForbidden, "%s is disallowed by robots.txt for user agent %q", u.Redacted(), agent)
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
	resp, err := f.client.Do(req)
	if err != nil {
		return nil, f.classify(a.parent, a.ctx, err, robotsURL, a.timeout)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, robotsMaxBytes))
	if err != nil {
		return nil, errs.Wrap(errs.KindUpstream, err, "reading %s", robotsURL)
	}
	data, err := robotstxt.FromStatusAndBytes(resp.StatusCode, body)
	if err != nil { // unparsable, or a status robotstxt has no rule for
		data, _ = robotstxt.FromStatusAndBytes(http.StatusNotFound, nil)
	}
	rules := &robotsRules{data: data, status: resp.StatusCode}
	f.robots.put(origin, rules, int64(len(body))+256, f.now())
	return rules, nil
}

// RobotsAgent is the product token robots.txt groups are matched against,
// taken from a User-Agent header: "webinfra" from "Mozilla/5.0
// (compatible; webinfra/1.0; +url)", "mybot" from "mybot/2.0 (+url)"; "*"
// when there is none. The crawler matches with it too.
func RobotsAgent(userAgent string) string {
	ua := userAgent
	if i := strings.Index(strings.ToLower(ua), "compatible;"); i >= 0 {
		ua = ua[i+len("compatible;"):]
	}
	ua = strings.TrimSpace(ua)
	if i := strings.IndexAny(ua, "/;() \t"); i >= 0 {
		ua = ua[:i]
	}
	if ua == "" {
		return "*"
	}
	return strings.ToLower(ua)
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
