package robots

import "net/http"

// MaxRedirects is how many redirects a robots.txt fetch follows (RFC 9309
// §2.3.1.2 asks for at least five, Google follows five). A fetcher that
// stops at this limit hands FromStatus the last 3xx answer, which allows
// everything, as a robots.txt that was not found does.
const MaxRedirects = 5

// FromStatus reads a robots.txt answer by its HTTP status (RFC 9309
// §2.3.1, as Google applies it):
//
//   - 2xx: body is parsed;
//   - 3xx (the fetcher followed MaxRedirects redirects and met another, or
//     followed none): unavailable, AllowAll;
//   - 429 Too Many Requests: DisallowAll, since Google reads it as a
//     server error;
//   - other 4xx (404 included): unavailable, AllowAll;
//   - 5xx, and any other status: unreachable, DisallowAll.
//
// A robots.txt that could not be fetched at all (DNS, connection, TLS,
// timeout) is unreachable too: callers use DisallowAll. The status is
// kept in Robots.Status.
func FromStatus(status int, body []byte) *Robots {
	var r *Robots
	switch {
	case status >= 200 && status < 300:
		r = Parse(body)
	case status == http.StatusTooManyRequests:
		r = DisallowAll()
	case status >= 300 && status < 500:
		r = AllowAll()
	default:
		r = DisallowAll()
	}
	r.Status = status
	return r
}

// AllowAll is the robots.txt of a site without one: every URL is allowed.
func AllowAll() *Robots { return blanket(AllowAllURLs) }

// DisallowAll is the robots.txt of a site whose robots.txt is
// unreachable: no URL is allowed but /robots.txt itself.
func DisallowAll() *Robots { return blanket(DisallowAllURLs) }

func blanket(b Blanket) *Robots {
	return &Robots{Blanket: b, Groups: []Group{}, Sitemaps: []string{}, Warnings: []Warning{}}
}
