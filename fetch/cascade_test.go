package fetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/webinfra/webinfra/errs"
)

// fakePNG stands in for a screenshot.
var fakePNG = []byte("\x89PNG\r\n\x1a\nfake")

// fakeRenderer is the render tier in tests: it loads the page over HTTP
// (after the SSRF check the seam asks for) with "X-Test-Browser: 1", which
// the test site answers as it would answer a real browser.
type fakeRenderer struct {
	mu    sync.Mutex
	calls []RenderRequest
	fail  error // when set, every render fails with it
}

func (r *fakeRenderer) Render(ctx context.Context, req RenderRequest) (*RenderResult, error) {
	r.mu.Lock()
	r.calls = append(r.calls, req)
	r.mu.Unlock()
	if r.fail != nil {
		return nil, r.fail
	}
	if err := req.CheckTarget(ctx, req.URL); err != nil {
		return nil, err
	}
	hr, err := http.NewRequestWithContext(ctx, http.MethodGet, req.URL, nil)
	if err != nil {
		return nil, err
	}
	for k, v := range req.Headers {
		hr.Header.Set(k, v)
	}
	hr.Header.Set("X-Test-Browser", "1")
	hr.Header.Set("X-Test-Wait-For", req.WaitFor)
	resp, err := http.DefaultClient.Do(hr)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	out := &RenderResult{FinalURL: resp.Request.URL.String(), StatusCode: resp.StatusCode, Header: resp.Header, HTML: body}
	if req.Screenshot {
		out.Screenshot = fakePNG
	}
	return out, nil
}

func (r *fakeRenderer) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.calls)
}

const (
	article = `<html lang="en"><head><title>Real page</title></head><body><article><h1>Real page</h1>
<p>This is the real content of the page, long enough to be taken for an article by anybody who reads it.</p>
<p>It has a second paragraph as well, so that nobody mistakes it for an empty shell or a challenge.</p></article></body></html>`
	challenge = `<!DOCTYPE html><html><head><title>Just a moment...</title></head><body>
<div id="cf-wrapper">Checking your browser. CHALLENGE-SECRET-TOKEN</div>
<script src="/cdn-cgi/challenge-platform/h/b/orchestrate/chl_page/v1"></script></body></html>`
	jsShell = `<!DOCTYPE html><html><head><title>App</title><script type="module" src="/assets/index.js"></script></head>
<body><noscript>You need to enable JavaScript to run this app.</noscript><div id="root"></div></body></html>`
)

// wallSite is a test site with bot walls:
//
//	/ok          the article for everyone
//	/cf          a Cloudflare challenge (403) unless a browser asks
//	/cf-always   the challenge for everyone
//	/cf-proxy    the challenge unless the request came through a proxy
//	/shell       a JavaScript shell unless a browser asks
//	/wait        a page whose #late element only a browser sees
//	/plain-403   a bare 403 with no wall markers
func wallSite(t *testing.T) *httptest.Server {
	t.Helper()
	return serve(t, func(w http.ResponseWriter, r *http.Request) {
		browser := r.Header.Get("X-Test-Browser") == "1"
		proxied := r.Header.Get("X-Via-Proxy") != ""
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		page := func(status int, body string) { w.WriteHeader(status); io.WriteString(w, body) }
		switch r.URL.Path {
		case "/ok":
			page(200, article)
		case "/cf":
			if browser {
				page(200, article)
				return
			}
			w.Header().Set("Server", "cloudflare")
			page(403, challenge)
		case "/cf-always":
			page(403, challenge)
		case "/cf-proxy":
			if proxied {
				page(200, article)
				return
			}
			page(503, challenge)
		case "/shell":
			if browser {
				page(200, strings.Replace(jsShell, `<div id="root"></div>`, `<div id="root">`+article+`</div>`, 1))
				return
			}
			page(200, jsShell)
		case "/wait":
			if browser {
				page(200, strings.Replace(article, "</article>", `<div id="late">loaded later</div></article>`, 1))
				return
			}
			page(200, article)
		case "/plain-403":
			page(403, "<html><body><h1>Forbidden</h1><p>You may not see this.</p></body></html>")
		default:
			http.NotFound(w, r)
		}
	})
}

// cascadeFetcher is a Fetcher allowed onto loopback with a render tier
// through r when r is not nil and a residential tier through proxy when
// proxy is not nil.
func cascadeFetcher(t *testing.T, r *fakeRenderer, proxy *testProxy) *Fetcher {
	t.Helper()
	var o Options
	if r != nil { // a nil *fakeRenderer in the interface would be a tier
		o.Renderer = r
	}
	if proxy != nil {
		o.Proxies = []string{proxy.URL()}
	}
	return privateFetcher(t, o)
}

func TestCascade(t *testing.T) {
	t.Parallel()
	site := wallSite(t)
	tests := []struct {
		name       string
		path       string
		req        Request
		noRenderer bool
		withProxy  bool
		wantTier   Tier
		wantPath   []Tier
		wantStatus int
		wantBody   string // a fragment
		renders    int
	}{
		{"plain page stays direct", "/ok", Request{}, false, true, TierDirect, []Tier{TierDirect}, 200, "Real page", 0},
		{"challenge escalates to render", "/cf", Request{}, false, false, TierRender, []Tier{TierDirect, TierRender}, 200, "Real page", 1},
		{"js shell escalates to render", "/shell", Request{}, false, false, TierRender, []Tier{TierDirect, TierRender}, 200, "Real page", 1},
		{"js shell without renderer is the answer", "/shell", Request{}, true, false, TierDirect, []Tier{TierDirect}, 200, `id="root"`, 0},
		{"js shell capped at direct", "/shell", Request{MaxTier: TierDirect}, false, false, TierDirect, []Tier{TierDirect}, 200, `id="root"`, 0},
		{"bare 403 is content", "/plain-403", Request{}, false, false, TierDirect, []Tier{TierDirect}, 403, "You may not see this", 0},
		{"wait_for missing escalates", "/wait", Request{WaitFor: "#late"}, false, false, TierRender, []Tier{TierDirect, TierRender}, 200, "loaded later", 1},
		{"wait_for present stays direct", "/wait", Request{WaitFor: "article h1"}, false, false, TierDirect, []Tier{TierDirect}, 200, "Real page", 0},
		{"challenge on two tiers reaches residential", "/cf-proxy", Request{UseResidential: true}, false, true, TierResidential,
			[]Tier{TierDirect, TierRender, TierResidential}, 200, "Real page", 1},
		{"residential not used unless asked", "/ok", Request{}, true, true, TierDirect, []Tier{TierDirect}, 200, "Real page", 0},
		{"pinned render", "/ok", Request{Tier: TierRender}, false, false, TierRender, []Tier{TierRender}, 200, "Real page", 1},
		{"pinned residential", "/cf-proxy", Request{Tier: TierResidential}, false, true, TierResidential, []Tier{TierResidential}, 200, "Real page", 0},
		{"screenshot goes straight to render", "/ok", Request{Screenshot: true}, false, false, TierRender, []Tier{TierRender}, 200, "Real page", 1},
		{"cap at render skips residential", "/cf", Request{MaxTier: TierRender}, false, true, TierRender, []Tier{TierDirect, TierRender}, 200, "Real page", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := &fakeRenderer{}
			renderer := r
			if tt.noRenderer {
				renderer = nil
			}
			var proxy *testProxy
			if tt.withProxy {
				proxy = newTestProxy(t, "p0")
			}
			req := tt.req
			req.URL = site.URL + tt.path
			res, err := cascadeFetcher(t, renderer, proxy).Fetch(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			if res.TierUsed != tt.wantTier || !slices.Equal(res.CascadePath, tt.wantPath) || res.StatusCode != tt.wantStatus ||
				!strings.Contains(string(res.Body), tt.wantBody) || r.count() != tt.renders {
				t.Fatalf("tier %s path %v status %d renders %d body %.80q", res.TierUsed, res.CascadePath, res.StatusCode, r.count(), res.Body)
			}
			if req.Screenshot && string(res.Screenshot) != string(fakePNG) {
				t.Errorf("screenshot %q", res.Screenshot)
			}
			if tt.wantTier == TierResidential && len(proxy.carried()) != 1 {
				t.Errorf("proxy carried %v", proxy.carried())
			}
		})
	}
}

func TestCascadeBlocked(t *testing.T) {
	t.Parallel()
	site := wallSite(t)
	tests := []struct {
		name       string
		path       string
		req        Request
		renderer   *fakeRenderer
		withProxy  bool
		wantTiers  string
		wantReason string
	}{
		{"every tier walled", "/cf-always", Request{UseResidential: true}, &fakeRenderer{}, true,
			"(direct → render → residential)", `render: Cloudflare challenge ("Just a moment...") (HTTP 403)`},
		{"no renderer", "/cf", Request{}, nil, false, "(direct)", `direct: Cloudflare challenge ("Just a moment...") (HTTP 403)`},
		{"pinned direct does not escalate", "/cf", Request{Tier: TierDirect}, &fakeRenderer{}, false, "(direct)", "HTTP 403"},
		{"capped at direct", "/cf", Request{MaxTier: TierDirect}, &fakeRenderer{}, true, "(direct)", "HTTP 403"},
		{"renderer fails after the wall", "/cf", Request{}, &fakeRenderer{fail: errors.New("browser crashed")}, false,
			"(direct → render)", "render: fetch " + "%s/cf: the render tier failed: browser crashed"},
		{"503 challenge", "/cf-proxy", Request{}, nil, false, "(direct)", "(HTTP 503)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var proxy *testProxy
			if tt.withProxy {
				proxy = newTestProxy(t, "walled")
			}
			req := tt.req
			req.URL = site.URL + tt.path
			res, err := cascadeFetcher(t, tt.renderer, proxy).Fetch(context.Background(), req)
			if res != nil {
				t.Fatalf("got a response from a wall: %+v", res)
			}
			reason := tt.wantReason
			if strings.Contains(reason, "%s") {
				reason = fmt.Sprintf(reason, site.URL)
			}
			wantErr(t, err, errs.KindBlocked, "blocked on every tier tried "+tt.wantTiers, reason)
			if strings.Contains(err.Error(), "CHALLENGE-SECRET-TOKEN") || strings.Contains(err.Error(), "Checking your browser") {
				t.Errorf("the wall's content leaked into the error: %v", err)
			}
		})
	}
}

func TestCascadeFirstTierErrorIsFinal(t *testing.T) {
	t.Parallel()
	r := &fakeRenderer{}
	f := cascadeFetcher(t, r, nil)
	_, err := f.Fetch(context.Background(), Request{URL: "http://127.0.0.1:1/"})
	wantErr(t, err, errs.KindUpstream)
	if r.count() != 0 {
		t.Errorf("a failed direct fetch escalated to render")
	}
}

func TestCascadeRenderChecksTarget(t *testing.T) {
	t.Parallel()
	site, hits := countingServer(t)
	r := &fakeRenderer{}
	f := strictFetcher(t, Options{Renderer: r}, nil)
	_, err := f.Fetch(context.Background(), Request{URL: site.URL, Tier: TierRender})
	assertRefused(t, err, "127.0.0.1 is a loopback address")
	if r.count() != 0 || hits.Load() != 0 {
		t.Fatalf("refused target handed to the renderer (%d renders, %d hits)", r.count(), hits.Load())
	}
	// What the renderer is told to check with is the guard itself.
	ok := strictFetcher(t, Options{Renderer: r}, targetOnly(t, site))
	if _, err := ok.Fetch(context.Background(), Request{URL: site.URL, Tier: TierRender, WaitFor: "#x"}); err != nil {
		t.Fatal(err)
	}
	call := r.calls[0]
	if call.URL != site.URL || call.WaitFor != "#x" || call.Timeout <= 0 || call.CheckTarget == nil {
		t.Fatalf("render request %+v", call)
	}
	assertRefused(t, call.CheckTarget(context.Background(), "http://10.0.0.1/"), "10.0.0.1 is a private address")
}

func TestCascadeRendererErrorKinds(t *testing.T) {
	t.Parallel()
	site := wallSite(t)
	for _, tt := range []struct {
		fail error
		kind errs.Kind
	}{
		{errs.New(errs.KindBlocked, "captcha"), errs.KindBlocked},
		{errors.New("chrome gone"), errs.KindUpstream},
	} {
		f := cascadeFetcher(t, &fakeRenderer{fail: tt.fail}, nil)
		_, err := f.Fetch(context.Background(), Request{URL: site.URL + "/ok", Tier: TierRender})
		wantErr(t, err, tt.kind, "render tier")
	}
}

func TestCascadePlanErrors(t *testing.T) {
	t.Parallel()
	bare := privateFetcher(t, Options{})
	full := cascadeFetcher(t, &fakeRenderer{}, newTestProxy(t, "p"))
	u := "http://example.com/"
	tests := []struct {
		name  string
		f     *Fetcher
		req   Request
		kind  errs.Kind
		field string
		want  string
	}{
		{"render unavailable", bare, Request{Tier: TierRender}, errs.KindUnavailable, "", "no renderer is configured"},
		{"residential unavailable", bare, Request{Tier: TierResidential}, errs.KindUnavailable, "", "no proxies are configured"},
		{"use residential unavailable", bare, Request{UseResidential: true}, errs.KindUnavailable, "", "no proxies are configured"},
		{"screenshot unavailable", bare, Request{Screenshot: true}, errs.KindUnavailable, "", "a screenshot needs the render tier"},
		{"unknown max tier", full, Request{MaxTier: "warp"}, errs.KindInvalid, "max_tier", `unknown tier "warp"`},
		{"pin above cap", full, Request{Tier: TierResidential, MaxTier: TierDirect}, errs.KindInvalid, "max_tier", "above max_tier"},
		{"screenshot pinned direct", full, Request{Tier: TierDirect, Screenshot: true}, errs.KindInvalid, "tier", "screenshot needs the render tier"},
		{"screenshot capped", full, Request{MaxTier: TierDirect, Screenshot: true}, errs.KindInvalid, "max_tier", "screenshot"},
		{"screenshot and residential", full, Request{UseResidential: true, Screenshot: true}, errs.KindInvalid, "use_residential_proxy", "screenshot"},
		{"residential with render pinned", full, Request{UseResidential: true, Tier: TierRender}, errs.KindInvalid, "use_residential_proxy", "pinned"},
		{"residential capped", full, Request{UseResidential: true, MaxTier: TierRender}, errs.KindInvalid, "use_residential_proxy", "max_tier"},
		{"bad wait_for", full, Request{WaitFor: "div[[["}, errs.KindInvalid, "wait_for", "not a CSS selector"},
		{"bad proxy index", full, Request{UseResidential: true, Proxy: "#9"}, errs.KindInvalid, "proxy", "#0 to #0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			req := tt.req
			req.URL = u
			_, err := tt.f.Fetch(context.Background(), req)
			wantErr(t, err, tt.kind, tt.want)
			if errs.FieldOf(err) != tt.field {
				t.Errorf("field %q, want %q", errs.FieldOf(err), tt.field)
			}
		})
	}
}

func TestCheckHeaders(t *testing.T) {
	t.Parallel()
	many := map[string]string{}
	for i := range maxHeaders + 1 {
		many[fmt.Sprintf("X-H%d", i)] = "v"
	}
	tests := []struct {
		name    string
		headers map[string]string
		want    string // "" = accepted
	}{
		{"ordinary", map[string]string{"Cookie": "a=b", "Accept-Language": "fr", "Authorization": "Bearer x"}, ""},
		{"accept-encoding replaced, not refused", map[string]string{"Accept-Encoding": "br"}, ""},
		{"host", map[string]string{"host": "internal.example"}, `"host" may not be set`},
		{"connection", map[string]string{"Connection": "close"}, "hop-by-hop"},
		{"transfer-encoding", map[string]string{"Transfer-Encoding": "chunked"}, "hop-by-hop"},
		{"upgrade", map[string]string{"Upgrade": "websocket"}, "hop-by-hop"},
		{"te", map[string]string{"TE": "trailers"}, "hop-by-hop"},
		{"proxy-authorization", map[string]string{"Proxy-Authorization": "Basic eA=="}, "proxy configuration"},
		{"content-length", map[string]string{"Content-Length": "5"}, "no body"},
		{"bad name", map[string]string{"Bad Name": "x"}, "invalid header name"},
		{"crlf value", map[string]string{"X": "a\r\nB: c"}, "invalid value"},
		{"long value", map[string]string{"X": strings.Repeat("a", maxHeaderValueBytes+1)}, "longer than"},
		{"too many", many, "at most 50 headers"},
	}
	for _, tt := range tests {
		err := checkHeaders(tt.headers)
		if tt.want == "" {
			if err != nil {
				t.Errorf("%s: refused: %v", tt.name, err)
			}
			continue
		}
		if errs.KindOf(err) != errs.KindInvalid || errs.FieldOf(err) != "headers" || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want invalid headers %q", tt.name, err, tt.want)
		}
	}
}
