package editor

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/fetch"
	"github.com/webinfra/webinfra/fetch/render"
	"github.com/webinfra/webinfra/internal/testenv"
)

const skipNoBrowser = "no chromium found: install Debian's chromium (or chromium-headless-shell) to run the editor tests"

// needBrowser skips the test (fails it under CI=true) when no browser is
// installed.
func needBrowser(t testing.TB) {
	t.Helper()
	if _, err := render.FindBrowser(""); err != nil {
		testenv.Missing(t, skipNoBrowser)
	}
}

var shared struct {
	once sync.Once
	pool *render.Pool
	err  error
}

// sharedPool is the pool most tests run in, started by the first and
// closed by TestMain.
func sharedPool(t *testing.T) *render.Pool {
	t.Helper()
	needBrowser(t)
	shared.once.Do(func() { shared.pool, shared.err = render.New(&render.Options{Contexts: 4}) })
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	return shared.pool
}

// newPool is a pool of the test's own, closed when it ends.
func newPool(t *testing.T) *render.Pool {
	t.Helper()
	needBrowser(t)
	p, err := render.New(&render.Options{Contexts: 2})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := p.Close(); err != nil {
			t.Error(err)
		}
	})
	return p
}

func TestMain(m *testing.M) {
	code := m.Run()
	if shared.pool != nil {
		if err := shared.pool.Close(); err != nil {
			fmt.Fprintln(os.Stderr, "closing the shared pool:", err)
			code = 1
		}
	}
	os.Exit(code)
}

// openGuard is the fetch guard with private networks allowed, as a
// self-hoster's --allow-private-networks: the test sites are on loopback.
var openGuard = sync.OnceValue(func() func(context.Context, string) error {
	f, err := fetch.New(&fetch.Options{AllowPrivateNetworks: true})
	if err != nil {
		panic(err)
	}
	return f.CheckTarget
})

// openOpts are Run options that reach loopback sites.
func openOpts() *Options { return &Options{CheckTarget: openGuard()} }

// refusing is openGuard refusing the given host:port values as the fetch
// guard refuses private addresses.
func refusing(hostports ...string) *Options {
	refused := make(map[string]bool)
	for _, h := range hostports {
		refused[h] = true
	}
	return &Options{CheckTarget: func(ctx context.Context, raw string) error {
		if u, err := url.Parse(raw); err == nil && refused[u.Host] {
			return errs.New(errs.KindForbidden, "refused: %s is not allowed (test guard)", u.Host)
		}
		return openGuard()(ctx, raw)
	}}
}

// site is a loopback test server that counts requests and keeps the last
// request's Cookie header per path.
type site struct {
	*httptest.Server
	hits    atomic.Int64
	cookies sync.Map // path -> string
}

func newSite(t *testing.T, routes map[string]string) *site {
	t.Helper()
	s := &site{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.hits.Add(1)
		s.cookies.Store(r.URL.Path, r.Header.Get("Cookie"))
		body, ok := routes[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		if to, ok := strings.CutPrefix(body, "redirect:"); ok {
			http.Redirect(w, r, to, http.StatusFound)
			return
		}
		if r.URL.Path == "/set" {
			http.SetCookie(w, &http.Cookie{Name: "session", Value: "s3cret", Path: "/"})
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, body)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *site) host() string { return s.Listener.Addr().String() }

func (s *site) cookie(path string) string {
	v, _ := s.cookies.Load(path)
	c, _ := v.(string)
	return c
}

// editorPage is a small code editor: a textarea whose Enter key is
// handled, Control+Enter runs the code, a Run button that writes the
// output after a delay, a contenteditable, a hidden element and a link.
const editorPage = `<!DOCTYPE html><html><head><title>editor</title>
<style>body { margin: 0; font: 14px sans-serif } #code { width: 600px; height: 160px } #hidden { display: none }</style>
</head><body>
<textarea id="code"></textarea>
<div id="rich" contenteditable="true" style="min-height: 40px; border: 1px solid #888"></div>
<button id="run">Run</button>
<div id="output"></div>
<div id="log"></div>
<div id="hidden">secret</div>
<div style="height: 2000px"></div>
<button id="far">Far below</button>
<script>
const code = document.getElementById("code");
const log = document.getElementById("log");
document.getElementById("run").addEventListener("click", () => {
	setTimeout(() => { document.getElementById("output").textContent = "ran: " + code.value; }, 150);
});
document.getElementById("far").addEventListener("click", () => { log.textContent = "far clicked"; });
code.addEventListener("keydown", e => {
	if (e.key === "Enter" && e.ctrlKey) { e.preventDefault(); log.textContent = "ctrl-enter: " + code.value; }
	else if (e.key === "Enter") { log.textContent = "enter pressed"; }
});
</script>
</body></html>`

// decodePNG returns the PNG's size.
func decodePNG(t *testing.T, b []byte) (int, int) {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	return img.Bounds().Dx(), img.Bounds().Dy()
}

// shotByName finds a screenshot.
func shotByName(shots []Screenshot, name string) []byte {
	for _, s := range shots {
		if s.Name == name {
			return s.PNG
		}
	}
	return nil
}
