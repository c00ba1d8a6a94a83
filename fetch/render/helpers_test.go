package render

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/internal/testenv"
)

const skipNoBrowser = "no chromium found: install Debian's chromium (or chromium-headless-shell) to run the render tests"

// needBrowser skips the test when no browser binary is installed.
func needBrowser(t testing.TB) string {
	t.Helper()
	path, err := FindBrowser("")
	if err != nil {
		testenv.Missing(t, skipNoBrowser)
	}
	return path
}

// lazyPool is a pool shared by tests, started by the first; TestMain
// closes it.
type lazyPool struct {
	once     sync.Once
	pool     *Pool
	err      error
	noProxy  bool
	contexts int
}

var (
	shared          = &lazyPool{contexts: 4}
	interceptOnly   = &lazyPool{contexts: 2, noProxy: true}
	sharedPoolsList = []*lazyPool{shared, interceptOnly}
)

func (lp *lazyPool) get(t *testing.T) *Pool {
	t.Helper()
	needBrowser(t)
	lp.once.Do(func() {
		lp.pool, lp.err = New(&Options{Contexts: lp.contexts, IdleTime: 200 * time.Millisecond})
		if lp.err == nil {
			lp.pool.noGuardProxy = lp.noProxy
		}
	})
	if lp.err != nil {
		t.Fatal(lp.err)
	}
	return lp.pool
}

// sharedPool is the pool most tests render with.
func sharedPool(t *testing.T) *Pool { return shared.get(t) }

func TestMain(m *testing.M) {
	code := m.Run()
	for _, lp := range sharedPoolsList {
		if lp.pool == nil {
			continue
		}
		if err := lp.pool.Close(); err != nil {
			fmt.Fprintln(os.Stderr, "closing a shared pool:", err)
			code = 1
		}
	}
	os.Exit(code)
}

// site is a loopback test server that counts the requests per path.
type site struct {
	*httptest.Server
	hits   sync.Map // path -> *atomic.Int64
	header sync.Map // path -> http.Header of the last request
}

func newSite(t *testing.T, routes map[string]http.HandlerFunc) *site {
	t.Helper()
	s := &site{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, _ := s.hits.LoadOrStore(r.URL.Path, new(atomic.Int64))
		n.(*atomic.Int64).Add(1)
		s.header.Store(r.URL.Path, r.Header.Clone())
		if h, ok := routes[r.URL.Path]; ok {
			h(w, r)
			return
		}
		http.NotFound(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

// total is how many requests the site got on any path.
func (s *site) total() int64 {
	var sum int64
	s.hits.Range(func(_, n any) bool {
		sum += n.(*atomic.Int64).Load()
		return true
	})
	return sum
}

func (s *site) requestHeader(path string) http.Header {
	h, ok := s.header.Load(path)
	if !ok {
		return nil
	}
	return h.(http.Header)
}

func html(body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, body)
	}
}

// refuseHosts is a CheckTarget that refuses the given host:port values (as
// the fetch guard refuses private addresses) and records what it was asked.
type refuseHosts struct {
	hosts map[string]bool
	mu    sync.Mutex
	asked []string
}

func newRefuser(hostports ...string) *refuseHosts {
	r := &refuseHosts{hosts: make(map[string]bool)}
	for _, h := range hostports {
		r.hosts[h] = true
	}
	return r
}

func (r *refuseHosts) check(_ context.Context, raw string) error {
	r.mu.Lock()
	r.asked = append(r.asked, raw)
	r.mu.Unlock()
	u, err := url.Parse(raw)
	if err != nil {
		return errs.Invalid("url", "is not a valid URL: %v", err)
	}
	if r.hosts[u.Host] {
		return errs.New(errs.KindForbidden, "refused: %s is not allowed (test guard)", u.Host)
	}
	return nil
}

func (r *refuseHosts) wasAsked(prefix string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, a := range r.asked {
		if strings.HasPrefix(a, prefix) {
			return true
		}
	}
	return false
}

func hostOf(t *testing.T, raw string) string {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u.Host
}
