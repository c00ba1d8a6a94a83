package render

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image/png"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/fetch"
)

// shellPage is an empty shell whose text comes from an API call made by
// JavaScript, so only a browser sees it.
const shellPage = `<!DOCTYPE html><html><head><title>shell</title></head><body><main id="app"></main>
<script>fetch('/api').then(r => r.text()).then(t => { document.getElementById('app').textContent = t; });</script>
</body></html>`

func TestRenderRunsJavaScript(t *testing.T) {
	t.Parallel()
	pool := sharedPool(t)
	s := newSite(t, map[string]http.HandlerFunc{
		"/": html(shellPage),
		"/api": func(w http.ResponseWriter, r *http.Request) {
			time.Sleep(150 * time.Millisecond)
			w.Write([]byte("hello from the " + "API"))
		},
	})
	res, err := pool.Render(t.Context(), fetch.RenderRequest{URL: s.URL + "/", Timeout: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(shellPage, "hello from the API") {
		t.Fatal("the shell must not hold the text")
	}
	if !bytes.Contains(res.HTML, []byte(`<main id="app">hello from the API</main>`)) {
		t.Fatalf("rendered DOM lacks the API text:\n%s", res.HTML)
	}
	if !bytes.HasPrefix(res.HTML, []byte("<!DOCTYPE html>")) {
		t.Errorf("HTML does not start with the doctype: %.60s", res.HTML)
	}
	if res.FinalURL != s.URL+"/" || res.StatusCode != 200 {
		t.Errorf("FinalURL %q status %d, want %q 200", res.FinalURL, res.StatusCode, s.URL+"/")
	}
	if ct := res.Header.Get("Content-Type"); ct != "text/html; charset=utf-8" {
		t.Errorf("Content-Type = %q", ct)
	}
	if res.Screenshot != nil {
		t.Error("a screenshot nobody asked for")
	}
}

func TestRenderWaitFor(t *testing.T) {
	t.Parallel()
	pool := sharedPool(t)
	s := newSite(t, map[string]http.HandlerFunc{
		"/": html(`<!DOCTYPE html><body><p>early</p><script>
setTimeout(() => { const p = document.createElement('p'); p.id = 'late'; p.textContent = 'arrived ' + 'late'; document.body.append(p); }, 300);
</script></body>`),
	})
	cases := []struct {
		name     string
		waitFor  string
		timeout  time.Duration
		wantKind errs.Kind // "" means success
		want     string    // in the HTML, or in the error
	}{
		{"appears after 300ms", "#late", 20 * time.Second, "", `<p id="late">arrived late</p>`},
		// Long enough that opening the tab fits in it on a loaded machine:
		// the deadline must fall while waiting for the selector.
		{"never appears", "#never", 8 * time.Second, errs.KindUpstream, `selector "#never" did not appear`},
		{"invalid selector", "p[", 5 * time.Second, errs.KindInvalid, "wait_for"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res, err := pool.Render(t.Context(), fetch.RenderRequest{URL: s.URL + "/", WaitFor: tc.waitFor, Timeout: tc.timeout})
			if tc.wantKind == "" {
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Contains(res.HTML, []byte(tc.want)) {
					t.Fatalf("HTML lacks %q:\n%s", tc.want, res.HTML)
				}
				return
			}
			if errs.KindOf(err) != tc.wantKind || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v (kind %s), want kind %s containing %q", err, errs.KindOf(err), tc.wantKind, tc.want)
			}
		})
	}
}

func TestRenderScreenshot(t *testing.T) {
	t.Parallel()
	pool := sharedPool(t)
	s := newSite(t, map[string]http.HandlerFunc{
		"/": html(`<!DOCTYPE html><body style="margin:0"><div style="height:1500px;background:#c00">tall</div></body>`),
	})
	res, err := pool.Render(t.Context(), fetch.RenderRequest{URL: s.URL + "/", Screenshot: true, Timeout: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(res.Screenshot, []byte("\x89PNG\r\n\x1a\n")) {
		t.Fatalf("screenshot is not a PNG: % x", res.Screenshot[:min(8, len(res.Screenshot))])
	}
	img, err := png.Decode(bytes.NewReader(res.Screenshot))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() < 100 || b.Dy() < 1500 {
		t.Errorf("screenshot is %v, want the full 1500px page", b)
	}
}

func TestRenderStatusAndHeaders(t *testing.T) {
	t.Parallel()
	pool := sharedPool(t)
	s := newSite(t, map[string]http.HandlerFunc{
		"/missing": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			w.Header().Set("X-Custom", "kept")
			w.Header().Add("X-Multi", "one")
			w.Header().Add("X-Multi", "two")
			w.WriteHeader(http.StatusNotFound)
			w.Write([]byte("<h1>not here</h1>"))
		},
		"/empty-error": func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusServiceUnavailable)
		},
		"/moved": func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "/final", http.StatusFound)
		},
		"/final": html("<p>final page</p>"),
	})
	cases := []struct {
		path, wantURL string
		status        int
		wantHTML      string
	}{
		{"/missing", "/missing", 404, "<h1>not here</h1>"},
		{"/empty-error", "/empty-error", 503, ""},
		{"/moved", "/final", 200, "final page"},
	}
	for _, tc := range cases {
		t.Run(tc.path, func(t *testing.T) {
			t.Parallel()
			res, err := pool.Render(t.Context(), fetch.RenderRequest{URL: s.URL + tc.path, Timeout: 20 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			if res.StatusCode != tc.status || res.FinalURL != s.URL+tc.wantURL {
				t.Fatalf("status %d final %q, want %d %q", res.StatusCode, res.FinalURL, tc.status, s.URL+tc.wantURL)
			}
			if !bytes.Contains(res.HTML, []byte(tc.wantHTML)) {
				t.Errorf("HTML lacks %q:\n%s", tc.wantHTML, res.HTML)
			}
			if tc.path == "/missing" {
				if got := res.Header.Get("X-Custom"); got != "kept" {
					t.Errorf("X-Custom = %q", got)
				}
				if got := res.Header.Values("X-Multi"); len(got) != 2 {
					t.Errorf("X-Multi = %q, want two values", got)
				}
			}
		})
	}
}

// guardLayers are the two pools the refusal tests run on: the default one
// (Fetch-domain interception plus the guard proxy) and one with the
// interception alone, so each layer is shown to refuse on its own.
var guardLayers = []struct {
	name string
	pool *lazyPool
}{{"interception and proxy", shared}, {"interception only", interceptOnly}}

func TestRenderRefusesSubresource(t *testing.T) {
	t.Parallel()
	for _, layer := range guardLayers {
		t.Run(layer.name, func(t *testing.T) {
			t.Parallel()
			pool := layer.pool.get(t)
			other := newSite(t, map[string]http.HandlerFunc{
				"/pixel.png": func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("x")) },
				"/api":       html("leaked"),
			})
			page := newSite(t, map[string]http.HandlerFunc{
				"/": html(`<!DOCTYPE html><body><p>the page itself</p><img src="` + other.URL + `/pixel.png">
<iframe src="` + other.URL + `/api"></iframe>
<script>fetch('` + other.URL + `/api').catch(() => {}); new Worker(URL.createObjectURL(new Blob(["fetch('` + other.URL + `/api')"])));</script></body>`),
			})
			guard := newRefuser(hostOf(t, other.URL))
			res, err := pool.Render(t.Context(), fetch.RenderRequest{URL: page.URL + "/", CheckTarget: guard.check, Timeout: 20 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(res.HTML, []byte("the page itself")) || res.StatusCode != 200 {
				t.Fatalf("the page did not render: %d\n%s", res.StatusCode, res.HTML)
			}
			time.Sleep(100 * time.Millisecond) // a worker's request in flight would have landed
			if n := other.total(); n != 0 {
				t.Errorf("the refused host got %d requests", n)
			}
			// Chromium may drop the image request once the page is done (or
			// never start it for a refused host), so the guard must have
			// seen at least one of the page's requests to the other host.
			if !guard.wasAsked(other.URL + "/") {
				t.Errorf("CheckTarget was never asked about the other host; asked %q", guard.asked)
			}
		})
	}
}

func TestRenderRefusesTarget(t *testing.T) {
	t.Parallel()
	for _, layer := range guardLayers {
		t.Run(layer.name, func(t *testing.T) {
			t.Parallel()
			pool := layer.pool.get(t)
			refused := newSite(t, map[string]http.HandlerFunc{"/secret": html("secret")})
			allowed := newSite(t, map[string]http.HandlerFunc{
				"/go": func(w http.ResponseWriter, r *http.Request) {
					http.Redirect(w, r, refused.URL+"/secret", http.StatusFound)
				},
				"/js":   html(`<script>location.href = "` + refused.URL + `/secret";</script>`),
				"/meta": html(`<meta http-equiv="refresh" content="0;url=` + refused.URL + `/secret">`),
			})
			guard := newRefuser(hostOf(t, refused.URL))
			for _, target := range []string{refused.URL + "/secret", allowed.URL + "/go", allowed.URL + "/js", allowed.URL + "/meta"} {
				_, err := pool.Render(t.Context(), fetch.RenderRequest{URL: target, CheckTarget: guard.check, Timeout: 20 * time.Second})
				if err == nil && strings.HasSuffix(target, "/meta") {
					// A meta refresh fires after the load event; on a busy
					// machine the render may be over first. Either way the
					// refused host gets nothing (checked below).
					continue
				}
				if errs.KindOf(err) != errs.KindForbidden || !strings.Contains(err.Error(), "test guard") {
					t.Errorf("%s: err = %v (kind %s), want the guard's refusal", target, err, errs.KindOf(err))
				}
			}
			if n := refused.total(); n != 0 {
				t.Errorf("the refused host got %d requests", n)
			}
		})
	}
}

// A WebSocket handshake never reaches the Fetch domain; the guard proxy
// refuses it.
func TestRenderRefusesWebSocket(t *testing.T) {
	t.Parallel()
	pool := sharedPool(t)
	refused := newSite(t, map[string]http.HandlerFunc{"/ws": html("no")})
	page := newSite(t, map[string]http.HandlerFunc{
		"/": html(`<body><p>ws page</p><script>
const ws = new WebSocket("ws://` + hostOf(t, refused.URL) + `/ws"); ws.onerror = () => document.body.append("ws-error");
</script></body>`),
	})
	guard := newRefuser(hostOf(t, refused.URL))
	res, err := pool.Render(t.Context(), fetch.RenderRequest{URL: page.URL + "/", CheckTarget: guard.check, Timeout: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(res.HTML, []byte("ws page")) {
		t.Fatalf("page did not render:\n%s", res.HTML)
	}
	time.Sleep(200 * time.Millisecond) // a handshake in flight would have landed
	if n := refused.total(); n != 0 {
		t.Errorf("the refused host got %d WebSocket requests", n)
	}
}

func TestRenderSendsHeadersToMainDocumentOnly(t *testing.T) {
	t.Parallel()
	pool := sharedPool(t)
	other := newSite(t, map[string]http.HandlerFunc{"/img": html("")})
	s := newSite(t, map[string]http.HandlerFunc{
		"/":          func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/page", http.StatusFound) },
		"/page":      html(`<img src="/local.png"><img src="` + other.URL + `/img">`),
		"/local.png": html(""),
	})
	_, err := pool.Render(t.Context(), fetch.RenderRequest{
		URL: s.URL + "/", Headers: map[string]string{"X-Api-Key": "k1"}, Timeout: 20 * time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		site *site
		path string
		want string
	}{{s, "/", "k1"}, {s, "/page", "k1"}, {s, "/local.png", ""}, {other, "/img", ""}} {
		h := c.site.requestHeader(c.path)
		if h == nil {
			t.Errorf("%s: no request", c.path)
			continue
		}
		if got := h.Get("X-Api-Key"); got != c.want {
			t.Errorf("%s: X-Api-Key = %q, want %q", c.path, got, c.want)
		}
		if ua := h.Get("User-Agent"); !strings.Contains(ua, "Mozilla") {
			t.Errorf("%s: User-Agent = %q", c.path, ua)
		}
	}
}

func TestRenderErrors(t *testing.T) {
	t.Parallel()
	pool := sharedPool(t)
	hang := make(chan struct{})
	t.Cleanup(func() { close(hang) })
	s := newSite(t, map[string]http.HandlerFunc{
		"/file.zip": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/zip")
			w.Header().Set("Content-Disposition", `attachment; filename="file.zip"`)
			w.Write([]byte("PK not really"))
		},
		"/hang": func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-hang:
			case <-r.Context().Done():
			}
		},
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closedURL := "http://" + ln.Addr().String() + "/"
	ln.Close()

	cases := []struct {
		name    string
		req     fetch.RenderRequest
		cancel  time.Duration // cancel the caller's context after this
		kind    errs.Kind
		wantErr string
		is      error
	}{
		{name: "no URL", req: fetch.RenderRequest{}, kind: errs.KindInvalid, wantErr: "url: is required"},
		{name: "file URL", req: fetch.RenderRequest{URL: "file:///etc/passwd"}, kind: errs.KindInvalid, wantErr: "scheme"},
		{name: "connection refused", req: fetch.RenderRequest{URL: closedURL, Timeout: 20 * time.Second}, kind: errs.KindUpstream, wantErr: "ERR_CONNECTION_REFUSED"},
		{name: "download", req: fetch.RenderRequest{URL: s.URL + "/file.zip", Timeout: 20 * time.Second}, kind: errs.KindUpstream, wantErr: "download"},
		{name: "timeout", req: fetch.RenderRequest{URL: s.URL + "/hang", Timeout: 2 * time.Second}, kind: errs.KindUpstream, wantErr: "timed out after 2s while "},
		{name: "caller cancels", req: fetch.RenderRequest{URL: s.URL + "/hang", Timeout: 20 * time.Second}, cancel: time.Second, is: context.Canceled},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx := t.Context()
			if tc.cancel > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithCancel(ctx)
				time.AfterFunc(tc.cancel, cancel)
			}
			start := time.Now()
			_, err := pool.Render(ctx, tc.req)
			if tc.is != nil {
				if !errors.Is(err, tc.is) {
					t.Fatalf("err = %v, want %v", err, tc.is)
				}
			} else if errs.KindOf(err) != tc.kind || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("err = %v (kind %s), want kind %s containing %q", err, errs.KindOf(err), tc.kind, tc.wantErr)
			}
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("took %s", d)
			}
		})
	}
}

func TestNewWithoutBrowser(t *testing.T) {
	t.Parallel()
	_, err := New(&Options{ExecPath: "/nonexistent/chromium"})
	if errs.KindOf(err) != errs.KindUnavailable || !strings.Contains(err.Error(), "no chromium found") {
		t.Fatalf("err = %v (kind %s)", err, errs.KindOf(err))
	}
}

// newPoolOfFalse is a pool whose "browser" is false(1), which exits at
// once; it is closed when the test ends.
func newPoolOfFalse(t *testing.T) (*Pool, string) {
	t.Helper()
	notABrowser, err := FindBrowser("false")
	if err != nil {
		t.Skip("no false(1) in PATH")
	}
	p, err := New(&Options{ExecPath: notABrowser})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p, notABrowser
}

// A browser that does not start fails the render with errs.KindUnavailable
// and is retired: the next render tries a fresh one.
func TestBrowserThatDoesNotStart(t *testing.T) {
	t.Parallel()
	p, notABrowser := newPoolOfFalse(t)
	for i := range 2 {
		_, err := p.Render(t.Context(), fetch.RenderRequest{URL: "http://127.0.0.1:1/", Timeout: 20 * time.Second})
		if errs.KindOf(err) != errs.KindUnavailable || !strings.Contains(err.Error(), "starting "+notABrowser) {
			t.Fatalf("render %d: %v (kind %s)", i, err, errs.KindOf(err))
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.started != 2 {
		t.Errorf("%d browsers started, want 2", p.started)
	}
}

// The pool's temporary directory is made when its first browser starts, so
// a pool that never renders leaves nothing in the temporary directory even
// when its process dies before Close; Close removes it.
func TestTemporaryDirectoryIsLazy(t *testing.T) {
	t.Parallel()
	p, _ := newPoolOfFalse(t)
	if _, err := os.Stat(p.baseDir); !os.IsNotExist(err) {
		t.Fatalf("%s exists before any render (%v)", p.baseDir, err)
	}
	p.Render(t.Context(), fetch.RenderRequest{URL: "http://127.0.0.1:1/", Timeout: 20 * time.Second})
	if _, err := os.Stat(p.baseDir); err != nil {
		t.Fatalf("after the first browser started: %v", err)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p.baseDir); !os.IsNotExist(err) {
		t.Errorf("%s still exists after Close (%v)", p.baseDir, err)
	}
}

// A page that navigates itself to an allowed page around the time it is
// read (a meta refresh) is rendered, the first page or the second, never
// failed for having moved under the read.
func TestRenderPageThatMovesOn(t *testing.T) {
	t.Parallel()
	pool := sharedPool(t)
	s := newSite(t, map[string]http.HandlerFunc{
		"/first":  html(`<meta http-equiv="refresh" content="0;url=/second"><p>the first page</p>`),
		"/second": html(`<p>the second page</p>`),
	})
	guard := newRefuser("refused.invalid")
	for range 3 {
		res, err := pool.Render(t.Context(), fetch.RenderRequest{URL: s.URL + "/first", CheckTarget: guard.check, Timeout: 20 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(res.HTML, []byte("the first page")) && !bytes.Contains(res.HTML, []byte("the second page")) {
			t.Fatalf("neither page was read:\n%s", res.HTML)
		}
	}
}

func TestNavigatedAway(t *testing.T) {
	for _, c := range []struct {
		err  error
		want bool
	}{
		{&cdproto.Error{Code: -32000, Message: "Inspected target navigated or closed"}, true},
		{fmt.Errorf("reading: %w", &cdproto.Error{Code: -32000, Message: "Execution context was destroyed."}), true},
		{&cdproto.Error{Code: -32000, Message: "Cannot find context with specified id"}, false},
		{&cdproto.Error{Code: -32602, Message: "Invalid parameters"}, false},
		{errors.New("Inspected target navigated or closed"), false},
	} {
		if got := navigatedAway(c.err); got != c.want {
			t.Errorf("navigatedAway(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}
