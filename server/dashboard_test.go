package server_test

import (
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// browser is a cookie-keeping HTTP client of the dashboard that sends the
// headers a browser sends on a same-origin form post.
type browser struct {
	e      *env
	client *http.Client
	token  string // the CSRF token of the last page read
}

type htmlPage struct {
	status int
	header http.Header
	body   string
}

func (e *env) browser() *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{e: e, client: &http.Client{Jar: jar, Transport: e.client.Transport,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

var csrfInput = regexp.MustCompile(`name="csrf_token" value="([0-9a-f]+)"`)

func (b *browser) do(req *http.Request) htmlPage {
	b.e.t.Helper()
	res, err := b.client.Do(req)
	if err != nil {
		b.e.t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	p := htmlPage{status: res.StatusCode, header: res.Header, body: string(body)}
	if m := csrfInput.FindStringSubmatch(p.body); m != nil {
		b.token = m[1]
	}
	return p
}

func (b *browser) get(path string) htmlPage {
	b.e.t.Helper()
	req, _ := http.NewRequest("GET", b.e.ts.URL+path, nil)
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	return b.do(req)
}

// post sends a form as a page of this site would, with the last page's
// token unless form carries one; headers (name, value pairs) replace the
// browser's.
func (b *browser) post(path string, form url.Values, headers ...string) htmlPage {
	b.e.t.Helper()
	if _, ok := form["csrf_token"]; !ok {
		form.Set("csrf_token", b.token)
	}
	req, _ := http.NewRequest("POST", b.e.ts.URL+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", b.e.ts.URL)
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	return b.do(req)
}

func (b *browser) want(p htmlPage, status int) htmlPage {
	b.e.t.Helper()
	if p.status != status {
		b.e.t.Fatalf("status %d, want %d; body %.600s", p.status, status, p.body)
	}
	return p
}

// signup creates an account through the sign-up form and returns its
// first developer key, shown once on the welcome page.
func (b *browser) signup(email string) string {
	b.e.t.Helper()
	b.get("/dashboard/signup")
	p := b.want(b.post("/dashboard/signup", url.Values{"email": {email}, "password": {"correct horse battery"}, "password_confirm": {"correct horse battery"}}), 200)
	m := regexp.MustCompile(`<code id="new-key">(osk_[0-9a-f]+)</code>`).FindStringSubmatch(p.body)
	if m == nil {
		b.e.t.Fatalf("no key on the welcome page: %.800s", p.body)
	}
	return m[1]
}

func (b *browser) login(email string) {
	b.e.t.Helper()
	b.get("/dashboard/login")
	b.want(b.post("/dashboard/login", url.Values{"email": {email}, "password": {"correct horse battery"}}), http.StatusSeeOther)
}

// activeKeys counts the account's active keys of kind (GET /v1/keys).
func (e *env) activeKeys(key, kind string) int {
	e.t.Helper()
	var list struct {
		Keys []struct {
			Kind   string `json:"kind"`
			Active bool   `json:"active"`
		} `json:"keys"`
	}
	e.want(e.call("GET", "/v1/keys", key, nil), 200).json(e.t, &list)
	n := 0
	for _, k := range list.Keys {
		if k.Active && k.Kind == kind {
			n++
		}
	}
	return n
}

// Every POST of the dashboard is refused (403, nothing changed) unless it
// comes from the dashboard's own page: a cross-site form post, a post
// without the session's token, with another session's token, or a log-in
// posted from another site.
func TestDashboardRefusesCrossSiteForms(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withDashboard())
	b := e.browser()
	dev := b.signup("csrf@example.com")
	b.get("/dashboard/keys")
	good := b.token
	other := e.browser()
	other.signup("other@example.com")
	other.get("/dashboard/keys")

	for _, c := range []struct {
		name    string
		form    url.Values
		headers []string
	}{
		{"cross-site form post", url.Values{"label": {"evil"}}, []string{"Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site"}},
		{"other origin, no fetch metadata", url.Values{"label": {"evil"}}, []string{"Origin", "https://evil.example", "Sec-Fetch-Site", ""}},
		{"no token", url.Values{"label": {"evil"}, "csrf_token": {""}}, nil},
		{"another session's token", url.Values{"label": {"evil"}, "csrf_token": {other.token}}, nil},
		{"a forged token", url.Values{"label": {"evil"}, "csrf_token": {strings.Repeat("ab", 32)}}, nil},
	} {
		p := b.post("/dashboard/keys", c.form, c.headers...)
		if p.status != http.StatusForbidden || !strings.Contains(p.body, "did not come from this dashboard") {
			t.Errorf("%s: status %d, want 403", c.name, p.status)
		}
	}
	if n := e.activeKeys(dev, "developer"); n != 1 {
		t.Fatalf("%d developer keys after refused posts, want 1", n)
	}
	anon := e.browser()
	anon.get("/dashboard/login")
	p := anon.post("/dashboard/login", url.Values{"email": {"csrf@example.com"}, "password": {"correct horse battery"}},
		"Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site")
	if p.status != http.StatusForbidden || strings.Contains(p.header.Get("Set-Cookie"), "webinfra_session") {
		t.Fatalf("cross-site log-in: status %d, cookies %q", p.status, p.header.Values("Set-Cookie"))
	}

	b.token = good
	b.want(b.post("/dashboard/keys", url.Values{"label": {"mine"}}), 200)
	if n := e.activeKeys(dev, "developer"); n != 2 {
		t.Fatalf("%d developer keys after a same-origin post, want 2", n)
	}
}

// The session cookie is HttpOnly, SameSite=Strict, limited to the
// dashboard's path, and Secure when the request came over TLS; logging out
// revokes the dashboard key, so the old cookie opens nothing.
func TestDashboardSessionCookie(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withDashboard())
	dev := e.signup("cookie@example.com")

	for _, tls := range []bool{false, true} {
		base := "http://example.com"
		if tls {
			base = "https://example.com"
		}
		req := httptest.NewRequest("GET", base+"/dashboard/login", nil)
		rec := httptest.NewRecorder()
		e.srv.ServeHTTP(rec, req)
		token := csrfInput.FindStringSubmatch(rec.Body.String())[1]
		form := url.Values{"email": {"cookie@example.com"}, "password": {"correct horse battery"}, "csrf_token": {token}}
		req = httptest.NewRequest("POST", base+"/dashboard/login", strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		for _, c := range rec.Result().Cookies() {
			req.AddCookie(c)
		}
		rec = httptest.NewRecorder()
		e.srv.ServeHTTP(rec, req)
		var session *http.Cookie
		for _, c := range rec.Result().Cookies() {
			if c.Name == "webinfra_session" {
				session = c
			}
		}
		if rec.Code != http.StatusSeeOther || session == nil {
			t.Fatalf("tls=%v: log-in status %d, no session cookie", tls, rec.Code)
		}
		if !session.HttpOnly || session.SameSite != http.SameSiteStrictMode || session.Path != "/dashboard" || session.Secure != tls {
			t.Fatalf("tls=%v: session cookie %+v", tls, session)
		}
	}

	b := e.browser()
	b.login("cookie@example.com")
	b.want(b.get("/dashboard/"), 200)
	sessions := e.activeKeys(dev, "dashboard")
	b.want(b.post("/dashboard/logout", url.Values{}), http.StatusSeeOther)
	if n := e.activeKeys(dev, "dashboard"); n != sessions-1 {
		t.Fatalf("%d dashboard keys after logging out, want %d", n, sessions-1)
	}
	if p := b.get("/dashboard/keys"); p.status != http.StatusSeeOther || !strings.HasPrefix(p.header.Get("Location"), "/dashboard/login") {
		t.Fatalf("after log-out: status %d, Location %q", p.status, p.header.Get("Location"))
	}
}

// regexMatch is the first group of pattern in s.
func regexMatch(t *testing.T, pattern, s string) string {
	t.Helper()
	m := regexp.MustCompile(pattern).FindStringSubmatch(s)
	if m == nil {
		t.Fatalf("no %s in %.800s", pattern, s)
	}
	return m[1]
}

// GET / links to the dashboard; its routes are not API operations: not in
// the OpenAPI document, and not answered as API errors.
func TestDashboardIsLinkedButNotAnOperation(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withDashboard())
	home := e.want(e.call("GET", "/", "", nil, "Accept", "text/html"), 200)
	if !strings.Contains(string(home.body), `href="/dashboard"`) {
		t.Fatal("the home page does not link to the dashboard")
	}
	var links struct {
		Links map[string]string `json:"links"`
	}
	e.want(e.call("GET", "/", "", nil, "Accept", "application/json"), 200).json(t, &links)
	if links.Links["dashboard"] != "/dashboard" {
		t.Fatalf("links %v", links.Links)
	}
	for path := range e.srv.OpenAPI().Paths {
		if strings.HasPrefix(path, "/dashboard") {
			t.Errorf("the OpenAPI document holds the dashboard route %s", path)
		}
	}
	p := e.browser().get("/dashboard/login")
	if p.status != 200 || !strings.Contains(p.header.Get("Content-Security-Policy"), "default-src 'none'") || p.header.Get("Cache-Control") != "no-store" {
		t.Fatalf("log-in page: status %d, headers %v", p.status, p.header)
	}
	plain := newEnv(t)
	if page := plain.want(plain.call("GET", "/", "", nil, "Accept", "text/html"), 200); strings.Contains(string(page.body), "/dashboard") {
		t.Fatal("a server without the dashboard links to it")
	}
}
