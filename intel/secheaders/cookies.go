package secheaders

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
)

// maxCookies is how many Set-Cookie fields are judged.
const maxCookies = 50

// Cookie is one Set-Cookie judged.
type Cookie struct {
	Name        string   `json:"name" doc:"The cookie's name (its value is never reported)."`
	Secure      bool     `json:"secure" doc:"Sent only over HTTPS."`
	HTTPOnly    bool     `json:"http_only" doc:"Hidden from scripts."`
	SameSite    string   `json:"same_site,omitempty" enum:"strict,lax,none,invalid" doc:"The SameSite attribute; absent when not given."`
	SessionLike bool     `json:"session_like" doc:"Its name suggests a session or credential (sess, sid, auth, token, jwt, login, logged, remember), so it must be HttpOnly."`
	Problems    []string `json:"problems" doc:"What is wrong with it: no_secure, no_http_only, no_same_site, same_site_none_without_secure, invalid."`
}

// sessionWords mark a cookie name as a session or credential cookie.
// Anti-CSRF tokens (csrf, xsrf, ASP.NET's __RequestVerificationToken) are
// left out: the double-submit pattern needs scripts to read them.
var sessionWords = []string{"sess", "sid", "auth", "token", "jwt", "login", "logged", "remember"}

func isSessionLike(name string) bool {
	n := strings.ToLower(name)
	if strings.Contains(n, "csrf") || strings.Contains(n, "xsrf") || strings.Contains(n, "verificationtoken") {
		return false
	}
	for _, w := range sessionWords {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// judgeCookie parses one Set-Cookie field with net/http and lists its
// problems.
func judgeCookie(line string, https bool) Cookie {
	c, err := http.ParseSetCookie(line)
	if err != nil {
		name, _, _ := strings.Cut(line, "=")
		return Cookie{Name: cut(strings.TrimSpace(name)), Problems: []string{"invalid"}}
	}
	out := Cookie{Name: cut(c.Name), Secure: c.Secure, HTTPOnly: c.HttpOnly, SessionLike: isSessionLike(c.Name), Problems: []string{}}
	switch c.SameSite {
	case http.SameSiteStrictMode:
		out.SameSite = "strict"
	case http.SameSiteLaxMode:
		out.SameSite = "lax"
	case http.SameSiteNoneMode:
		out.SameSite = "none"
	case http.SameSiteDefaultMode:
		out.SameSite = "invalid"
	}
	if https && !c.Secure {
		out.Problems = append(out.Problems, "no_secure")
	}
	if out.SameSite == "none" && !c.Secure {
		out.Problems = append(out.Problems, "same_site_none_without_secure")
	}
	if out.SessionLike && !c.HttpOnly {
		out.Problems = append(out.Problems, "no_http_only")
	}
	if out.SameSite == "" || out.SameSite == "invalid" {
		out.Problems = append(out.Problems, "no_same_site")
	}
	return out
}

// cookieRules are what each cookie problem costs the cookies check, worst
// first; the worst problem of any cookie decides.
var cookieRules = []struct {
	problem string
	result  string
	points  int
	advice  string
}{
	{"no_secure", Fail, -20, "without Secure, so it also travels over plain HTTP where it can be read or replaced"},
	{"same_site_none_without_secure", Fail, -20, "with SameSite=None but not Secure, which browsers reject"},
	{"no_http_only", Fail, -10, "a session or credential cookie without HttpOnly, so an XSS can steal it"},
	{"invalid", Fail, -10, "malformed, so browsers may drop or misread it"},
	{"no_same_site", Warn, 0, "without a valid SameSite, so its protection against cross-site requests depends on the browser's default"},
}

// checkCookies judges every Set-Cookie (at most maxCookies) and sums them
// up in one check: the worst problem of any cookie decides its result.
func checkCookies(h http.Header, https bool) (Check, []Cookie) {
	lines := h.Values("Set-Cookie")
	c := Check{ID: "cookies", Header: "Set-Cookie", Present: len(lines) > 0}
	cookies := []Cookie{}
	for i, line := range lines {
		if i == maxCookies {
			break
		}
		cookies = append(cookies, judgeCookie(line, https))
	}
	if len(cookies) == 0 {
		return c.judged(Info, 0, "No cookies are set."), cookies
	}
	names := make([]string, len(cookies))
	for i, k := range cookies {
		names[i] = k.Name
	}
	c.Value = cut(strings.Join(names, ", "))
	for _, rule := range cookieRules {
		if bad := cookiesWith(cookies, rule.problem); len(bad) > 0 {
			return c.judged(rule.result, rule.points, fmt.Sprintf("%s: set %s.", strings.Join(bad, ", "), rule.advice)), cookies
		}
	}
	if !https {
		return c.judged(Warn, 0, "The page is served over HTTP, so its cookies travel in clear text whatever their flags."), cookies
	}
	return c.judged(Pass, 5, "Every cookie is Secure and has SameSite; session cookies are HttpOnly."), cookies
}

// cookiesWith names the cookies with the problem, at most
// maxNamesInReason of them.
func cookiesWith(cookies []Cookie, problem string) []string {
	var names []string
	for _, k := range cookies {
		if slices.Contains(k.Problems, problem) {
			names = append(names, k.Name)
		}
	}
	if len(names) > maxNamesInReason {
		names = append(names[:maxNamesInReason], fmt.Sprintf("and %d more", len(names)-maxNamesInReason))
	}
	return names
}

const maxNamesInReason = 10
