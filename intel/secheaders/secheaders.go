package secheaders

import (
	"net/http"
	"net/url"
	"strings"
)

// Results of a check.
const (
	Pass = "pass" // the header does its job
	Warn = "warn" // weaker than recommended, or a recommended header is missing
	Fail = "fail" // missing or configured so that it does not protect
	Info = "info" // worth knowing; never costs points
)

// maxValueBytes caps a header value copied into a report: a hostile server
// can send huge headers and the report must stay small.
const maxValueBytes = 2048

// Page is one HTTP response whose headers are graded.
type Page struct {
	URL    string      `json:"url" doc:"The URL that answered; its scheme decides whether HSTS and cookie Secure flags apply (https only)."`
	Status int         `json:"status" doc:"The HTTP status of the answer."`
	Header http.Header `json:"header" doc:"The response headers, names in canonical form."`
}

// Report is a page's security headers graded.
type Report struct {
	URL     string   `json:"url" doc:"The URL whose answer was graded."`
	Status  int      `json:"status" doc:"Its HTTP status."`
	HTTPS   bool     `json:"https" doc:"The answer came over HTTPS; HSTS and cookie Secure flags are judged only then."`
	Score   int      `json:"score" minimum:"0" maximum:"100" doc:"100 plus every check's points (bonuses only when the penalties leave 90 or more), held within 0-100."`
	Grade   string   `json:"grade" enum:"A+,A,A-,B+,B,B-,C+,C,C-,D+,D,D-,F" doc:"The letter for the score before it is held at 100: A+ needs 100 or more."`
	Passed  int      `json:"passed" doc:"Checks that passed."`
	Warned  int      `json:"warned" doc:"Checks that warned."`
	Failed  int      `json:"failed" doc:"Checks that failed."`
	Checks  []Check  `json:"checks" doc:"Every check, in a fixed order, each with its reason."`
	Cookies []Cookie `json:"cookies" doc:"Each cookie the answer sets (at most 50), with its flags and problems."`
}

// Check is one header (or header family) judged.
type Check struct {
	ID      string `json:"id" example:"hsts" doc:"Stable identifier of the check: hsts, csp, x_content_type_options, clickjacking, referrer_policy, permissions_policy, coop, corp, coep, x_xss_protection, server, x_powered_by, x_aspnet_version, x_aspnetmvc_version, cookies, cors."`
	Header  string `json:"header" example:"Strict-Transport-Security" doc:"The header judged (for clickjacking, the one that decided)."`
	Present bool   `json:"present" doc:"The header was sent."`
	Value   string `json:"value,omitempty" doc:"Its value as sent (several values joined with \", \"), cut at 2,048 bytes."`
	Result  string `json:"result" enum:"pass,warn,fail,info" doc:"pass, warn, fail, or info (never costs points)."`
	Points  int    `json:"points" doc:"What this check adds to the score: a penalty (negative), 0, or a bonus (positive)."`
	Reason  string `json:"reason" doc:"Why, and what to change."`
}

// Grade judges the security headers of one answer. It reads only
// in.Header and the scheme of in.URL, and never fails: an empty or odd
// header set is graded as what it is. The rules, points and sources are
// in the package documentation.
func Grade(in Page) *Report {
	https := isHTTPS(in.URL)
	h := in.Header
	if h == nil {
		h = http.Header{}
	}
	policies := parseCSPHeaders(h.Values("Content-Security-Policy"))
	cookieCheck, cookies := checkCookies(h, https)
	checks := []Check{
		checkHSTS(h, https),
		checkCSP(h, policies),
		checkContentTypeOptions(h),
		checkClickjacking(h, policies),
		checkReferrerPolicy(h),
		checkPermissionsPolicy(h),
		checkCOOP(h),
		checkCORP(h),
		checkCOEP(h),
		checkXSSProtection(h),
		checkServer(h),
		checkDisclosure(h, "x_powered_by", "X-Powered-By", "names the framework or language and often its version"),
		checkDisclosure(h, "x_aspnet_version", "X-AspNet-Version", "names the ASP.NET version"),
		checkDisclosure(h, "x_aspnetmvc_version", "X-AspNetMvc-Version", "names the ASP.NET MVC version"),
		cookieCheck,
		checkCORS(h),
	}
	rep := &Report{URL: in.URL, Status: in.Status, HTTPS: https, Checks: checks, Cookies: cookies}
	rep.Score, rep.Grade = score(checks)
	for _, c := range checks {
		switch c.Result {
		case Pass:
			rep.Passed++
		case Warn:
			rep.Warned++
		case Fail:
			rep.Failed++
		}
	}
	return rep
}

// score applies the points: 100 plus the penalties, then the bonuses
// when that is at least bonusFloor. The grade is read from the sum before
// it is held within 0-100, so that A+ needs 100 or more.
func score(checks []Check) (int, string) {
	total, bonus := 100, 0
	for _, c := range checks {
		if c.Points < 0 {
			total += c.Points
		} else {
			bonus += c.Points
		}
	}
	if total >= bonusFloor {
		total += bonus
	}
	letter := gradeOf(total)
	return min(max(total, 0), 100), letter
}

// bonusFloor is the score the penalties must leave for bonuses to count,
// as in Mozilla's HTTP Observatory: bonuses polish a good set of headers,
// they do not make up for a missing one.
const bonusFloor = 90

// gradeScale is Mozilla HTTP Observatory's grading chart: the lowest
// score of each letter.
var gradeScale = []struct {
	min   int
	grade string
}{
	{100, "A+"}, {90, "A"}, {85, "A-"}, {80, "B+"}, {70, "B"}, {65, "B-"},
	{60, "C+"}, {50, "C"}, {45, "C-"}, {40, "D+"}, {30, "D"}, {25, "D-"},
}

func gradeOf(total int) string {
	for _, g := range gradeScale {
		if total >= g.min {
			return g.grade
		}
	}
	return "F"
}

func isHTTPS(rawURL string) bool {
	u, err := url.Parse(strings.TrimSpace(rawURL))
	return err == nil && strings.EqualFold(u.Scheme, "https")
}

// headerValue is every value of name joined with ", " as HTTP folds
// repeated fields, and whether the header was sent at all.
func headerValue(h http.Header, name string) (string, bool) {
	vs := h.Values(name)
	if len(vs) == 0 {
		return "", false
	}
	return strings.Join(vs, ", "), true
}

// cut shortens a value for the report.
func cut(s string) string {
	if len(s) <= maxValueBytes {
		return s
	}
	s = s[:maxValueBytes]
	for len(s) > 0 && !isRuneStart(s[len(s)-1]) {
		s = s[:len(s)-1]
	}
	return s + "…"
}

func isRuneStart(b byte) bool { return b < 0x80 || b >= 0xC0 }

// newCheck starts a check of the named header with its value.
func newCheck(id, header string, h http.Header) Check {
	v, ok := headerValue(h, header)
	return Check{ID: id, Header: header, Present: ok, Value: cut(v)}
}

func (c Check) judged(result string, points int, reason string) Check {
	c.Result, c.Points, c.Reason = result, points, reason
	return c
}
