package fetch

import (
	"errors"
	"fmt"
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
	rules, err := f.robotsFor(a, u)
	if err != nil {
		return err
	}
	agent := robotsAgent(f.opts.UserAgent)
	path := u.EscapedPath()
	if path == "" {
		path = "/"
	}
	if u.RawQuery != "" {
		path += "?" + u.RawQuery
	}
	if rules.data.TestAgent(path, agent) {
		return nil
	}
	if rules.status >= 500 {
		return errs.New(errs.KindForbidden, "%s is disallowed by robots.txt (it answered HTTP %d, which means disallow all)", u.Redacted(), rules.status)
	}
	return errs.New(errs.KindForbidden, "%s is disallowed by robots.txt for user agent %q", u.Redacted(), agent)
}

func (f *Fetcher) robotsFor(a *attempt, u *url.URL) (*robotsRules, error) {
	origin := u.Scheme + "://" + strings.ToLower(u.Host)
	if rules, _, ok := f.robots.get(origin, f.now(), robotsTTL); ok {
		return rules, nil
	}
	robotsURL := origin + "/robots.txt"
	req, err := http.NewRequestWithContext(a.ctx, http.MethodGet, robotsURL, nil)
	if err != nil {
		return nil, errs.Invalid("url", "%v", err)
	}
	req.Header.Set("User-Agent", f.opts.UserAgent)
	resp, err := f.client.Do(req)
	if err != nil {
		if a.parent.Err() != nil {
			return nil, fmt.Errorf("fetch %s: %w", robotsURL, a.parent.Err())
		}
		if a.ctx.Err() != nil {
			return nil, errs.Wrap(errs.KindUpstream, err, "fetch %s: no answer within %s (request timeout)", robotsURL, a.timeout)
		}
		if e := asErr(err); e != nil {
			return nil, errs.Wrap(e.Kind, e, "fetch %s", robotsURL)
		}
		return nil, errs.Wrap(errs.KindUpstream, err, "fetch %s failed", robotsURL)
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

// robotsAgent is the product token robots.txt groups are matched against:
// from "Mozilla/5.0 (compatible; webinfra/1.0; +url)" it is "webinfra",
// from "mybot/2.0" it is "mybot".
func robotsAgent(userAgent string) string {
	ua := userAgent
	if i := strings.Index(ua, "compatible;"); i >= 0 {
		ua = ua[i+len("compatible;"):]
	}
	ua = strings.TrimSpace(ua)
	if i := strings.IndexAny(ua, "/;) "); i >= 0 {
		ua = ua[:i]
	}
	if ua == "" {
		return "*"
	}
	return strings.ToLower(ua)
}

// asErr returns the first *errs.Error in err's chain, or nil.
func asErr(err error) *errs.Error {
	var e *errs.Error
	if errors.As(err, &e) {
		return e
	}
	return nil
}
