package redirects

import (
	"net/url"
	"strings"
)

// canonicalisation says what a redirect from one URL to another changed
// when all it did was canonicalise the URL, the moves a site makes for
// good and should make with 301 or 308:
//
//   - https: the scheme went from http to https;
//   - www / no_www: the host gained or lost one leading "www.";
//   - trailing_slash / no_trailing_slash: the path gained or lost a
//     final "/";
//   - lowercase: the path went to lower case.
//
// Host case and default ports are ignored; the query must not change. It
// returns the changes joined with "+", or "" when the hop did something
// else (another host, path or query, a downgrade) or nothing at all.
func canonicalisation(from, to *url.URL) string {
	var changes []string
	switch {
	case from.Scheme == to.Scheme:
	case from.Scheme == "http" && to.Scheme == "https":
		changes = append(changes, "https")
	default:
		return ""
	}
	fh, th := hostPort(from), hostPort(to)
	switch {
	case fh == th:
	case "www."+fh == th:
		changes = append(changes, "www")
	case fh == "www."+th:
		changes = append(changes, "no_www")
	default:
		return ""
	}
	fp, tp := pathOf(from), pathOf(to)
	switch {
	case fp == tp:
	case fp+"/" == tp:
		changes = append(changes, "trailing_slash")
	case fp == tp+"/":
		changes = append(changes, "no_trailing_slash")
	case strings.ToLower(fp) == tp:
		changes = append(changes, "lowercase")
	default:
		return ""
	}
	if from.RawQuery != to.RawQuery {
		return ""
	}
	return strings.Join(changes, "+")
}

// hostPort is u's host in lower case, with its port unless it is the
// scheme's default.
func hostPort(u *url.URL) string {
	host, port := strings.ToLower(u.Hostname()), u.Port()
	if port == "" || (u.Scheme == "http" && port == "80") || (u.Scheme == "https" && port == "443") {
		return host
	}
	return host + ":" + port
}

func pathOf(u *url.URL) string {
	if p := u.EscapedPath(); p != "" {
		return p
	}
	return "/"
}
