package render

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/fetch"
)

// TestPoolRetiresBrowsers renders 60 pages with PagesPerBrowser 20 and
// Contexts 3: three browsers serve them one after the other (never two
// alive at once), every tab is closed after use, and Close leaves no
// process and no user-data-dir behind.
func TestPoolRetiresBrowsers(t *testing.T) {
	t.Parallel()
	needBrowser(t)
	p, err := New(&Options{Contexts: 3, PagesPerBrowser: 20, IdleTime: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	base := p.baseDir
	s := newSite(t, map[string]http.HandlerFunc{
		"/": html(`<!DOCTYPE html><body><p id="n"></p><script>document.getElementById('n').textContent = 'page ' + location.search</script></body>`),
	})

	sampler := startSampler(base)
	var wg sync.WaitGroup
	errc := make(chan error, 60)
	for w := range 6 { // more workers than Contexts: the pool bounds them
		wg.Go(func() {
			for i := w; i < 60; i += 6 {
				res, err := p.Render(t.Context(), fetch.RenderRequest{URL: fmt.Sprintf("%s/?%d", s.URL, i), Timeout: 30 * time.Second})
				if err == nil && !bytes.Contains(res.HTML, []byte(fmt.Sprintf("page ?%d<", i))) {
					err = fmt.Errorf("render %d: wrong page:\n%s", i, res.HTML)
				}
				if err != nil {
					errc <- err
				}
			}
		})
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Error(err)
	}

	// One more page starts a fourth browser; once the page is done its
	// tab is gone: only the browser's first blank tab is left.
	if _, err := p.Render(t.Context(), fetch.RenderRequest{URL: s.URL + "/?last", Timeout: 30 * time.Second}); err != nil {
		t.Fatal(err)
	}
	p.mu.Lock()
	cur, started := p.cur, p.started
	p.mu.Unlock()
	if started != 4 || cur == nil {
		t.Fatalf("%d browsers started, want 4 (3 for 60 pages at 20 each, then 1)", started)
	}
	if pages := pageTargets(t, cur); len(pages) != 1 {
		t.Errorf("tabs left open: %v", pages)
	}

	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	maxBrowsers, maxProcs, maxPSS := sampler.stop()
	t.Logf("at most %d browser(s) and %d processes alive, %d MiB (PSS) at the peak", maxBrowsers, maxProcs, maxPSS>>20)
	if maxBrowsers > 1 {
		t.Errorf("%d browsers alive at once, want at most 1", maxBrowsers)
	}
	if maxBrowsers == 0 {
		t.Error("the sampler never saw a browser")
	}
	if left := processesUsing(base); len(left) > 0 {
		t.Errorf("processes left after Close: %v", left)
	}
	if _, err := os.Stat(base); !os.IsNotExist(err) {
		t.Errorf("%s still exists after Close (%v)", base, err)
	}
	if _, err := p.Render(t.Context(), fetch.RenderRequest{URL: s.URL}); err == nil || !strings.Contains(err.Error(), "closed") {
		t.Errorf("Render after Close: %v", err)
	}
}

// TestCloseAbortsRenders closes a pool while pages hang: the renders end at
// once with errs.KindUnavailable and no process is left.
func TestCloseAbortsRenders(t *testing.T) {
	t.Parallel()
	needBrowser(t)
	p, err := New(&Options{Contexts: 2})
	if err != nil {
		t.Fatal(err)
	}
	arrived := make(chan struct{}, 3)
	release := make(chan struct{})
	defer close(release)
	s := newSite(t, map[string]http.HandlerFunc{
		"/hang": func(w http.ResponseWriter, r *http.Request) {
			arrived <- struct{}{}
			select {
			case <-release:
			case <-r.Context().Done():
			}
		},
	})
	errc := make(chan error, 3)
	for range 3 { // two hang in tabs, the third waits for a slot
		go func() {
			_, err := p.Render(t.Context(), fetch.RenderRequest{URL: s.URL + "/hang", Timeout: time.Minute})
			errc <- err
		}()
	}
	<-arrived
	<-arrived
	start := time.Now()
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if err := <-errc; errs.KindOf(err) != errs.KindUnavailable || !strings.Contains(err.Error(), "closed") {
			t.Errorf("render during Close: %v (kind %s)", err, errs.KindOf(err))
		}
	}
	if d := time.Since(start); d > 15*time.Second {
		t.Errorf("Close took %s", d)
	}
	if left := processesUsing(p.baseDir); len(left) > 0 {
		t.Errorf("processes left after Close: %v", left)
	}
}

// TestCrashedBrowserIsReplaced kills a pool's browser between renders: the
// next render gets a fresh browser.
func TestCrashedBrowserIsReplaced(t *testing.T) {
	t.Parallel()
	needBrowser(t)
	p, err := New(&Options{Contexts: 1, IdleTime: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	s := newSite(t, map[string]http.HandlerFunc{"/": html("<p>alive</p>")})
	render := func() error {
		res, err := p.Render(t.Context(), fetch.RenderRequest{URL: s.URL + "/", Timeout: 30 * time.Second})
		if err == nil && !bytes.Contains(res.HTML, []byte("alive")) {
			err = fmt.Errorf("wrong page:\n%s", res.HTML)
		}
		return err
	}
	if err := render(); err != nil {
		t.Fatal(err)
	}
	p.mu.Lock()
	first := p.cur
	p.mu.Unlock()
	killProcessesUsing(first.dir)
	<-chromedp.FromContext(first.ctx).Browser.LostConnection
	if err := render(); err != nil {
		t.Fatalf("after the crash: %v", err)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.started != 2 || p.cur == first {
		t.Errorf("%d browsers started, want a second one", p.started)
	}
}

// pageTargets lists the page targets (tabs) of b.
func pageTargets(t *testing.T, b *browser) []string {
	t.Helper()
	infos, err := chromedp.Targets(b.ctx)
	if err != nil {
		t.Fatal(err)
	}
	var pages []string
	for _, info := range infos {
		if info.Type == "page" {
			pages = append(pages, info.URL)
		}
	}
	return pages
}

// sampler watches the processes under a pool's base directory.
type sampler struct {
	done                 chan struct{}
	wg                   sync.WaitGroup
	browsers, procs, pss int
}

func startSampler(base string) *sampler {
	s := &sampler{done: make(chan struct{})}
	s.wg.Go(func() {
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for {
			procs := processesUsing(base)
			dirs := make(map[string]bool)
			pss := 0
			for pid, dir := range procs {
				dirs[dir] = true
				pss += pssOf(pid)
			}
			s.browsers = max(s.browsers, len(dirs))
			s.procs = max(s.procs, len(procs))
			s.pss = max(s.pss, pss)
			select {
			case <-s.done:
				return
			case <-tick.C:
			}
		}
	})
	return s
}

func (s *sampler) stop() (browsers, procs, pss int) {
	close(s.done)
	s.wg.Wait()
	return s.browsers, s.procs, s.pss
}

var pssLine = regexp.MustCompile(`Pss:\s+(\d+) kB`)

// pssOf is a process's proportional set size in bytes (its resident
// memory with shared pages split among their users; 0 when unknown).
func pssOf(pid int) int {
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/smaps_rollup", pid))
	if err != nil {
		return 0
	}
	m := pssLine.FindSubmatch(status)
	if m == nil {
		return 0
	}
	kb, _ := strconv.Atoi(string(m[1]))
	return kb << 10
}

// TestRemoteBrowser drives a Chromium started outside the pool, through its
// DevTools websocket, as a remote CDP endpoint (--browser-url) is driven.
func TestRemoteBrowser(t *testing.T) {
	t.Parallel()
	wsURL, alive := startRemoteChromium(t)
	const ua = "webinfra-render-test/1.0"
	p, err := New(&Options{BrowserURL: wsURL, PagesPerBrowser: 2, IdleTime: 100 * time.Millisecond, UserAgent: ua})
	if err != nil {
		t.Fatal(err)
	}
	other := newSite(t, map[string]http.HandlerFunc{"/pixel.png": html("x")})
	s := newSite(t, map[string]http.HandlerFunc{
		"/":    html(shellPage + `<img src="` + other.URL + `/pixel.png">`),
		"/api": html("hello over CDP"),
	})
	guard := newRefuser(hostOf(t, other.URL))
	for i := range 3 { // the third page reconnects
		res, err := p.Render(t.Context(), fetch.RenderRequest{URL: s.URL + "/", CheckTarget: guard.check, Timeout: 20 * time.Second})
		if err != nil {
			t.Fatalf("render %d: %v", i, err)
		}
		if !bytes.Contains(res.HTML, []byte("hello over CDP")) {
			t.Fatalf("render %d:\n%s", i, res.HTML)
		}
	}
	for _, path := range []string{"/", "/api"} {
		if got := s.requestHeader(path).Get("User-Agent"); got != ua {
			t.Errorf("%s: User-Agent %q, want %q", path, got, ua)
		}
	}
	if n := other.total(); n != 0 {
		t.Errorf("the refused host got %d requests", n)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if !alive() {
		t.Error("Close stopped a remote browser the pool did not start")
	}
}

// startRemoteChromium starts a browser with a DevTools port and returns its
// websocket address and a func reporting whether it still runs.
func startRemoteChromium(t *testing.T) (string, func() bool) {
	t.Helper()
	path := needBrowser(t)
	dir, err := os.MkdirTemp("", "webinfra-remote-")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(path, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--remote-debugging-port=0", "--user-data-dir="+dir, "about:blank")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-exited
		killProcessesUsing(dir)
		removeAll(dir)
	})
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if rest, ok := strings.CutPrefix(sc.Text(), "DevTools listening on "); ok {
				found <- rest
			}
		}
	}()
	select {
	case ws := <-found:
		return ws, func() bool {
			select {
			case <-exited:
				return false
			default:
				return true
			}
		}
	case <-time.After(30 * time.Second):
		t.Fatal("chromium printed no DevTools address")
	}
	return "", nil
}

// BenchmarkRender renders a small loopback page, four callers at a time,
// with the pool (Contexts 4, the SSRF guard on, as the fetch tier calls it)
// and, in the same run, with a bare chromedp loop (one browser, a new tab
// per page, no guard) as the yardstick, with chromedp's default flags and
// with the pool's. All report renders/s and CPU per render. Run them in
// alternating rounds (-count 1 several times) and compare medians:
//
//	go test -run '^$' -bench 'Render$' -benchtime 60x ./fetch/render/
func BenchmarkRender(b *testing.B) {
	needBrowser(b)
	s := httptest.NewServer(html(`<!DOCTYPE html><title>small</title><p>small page</p>`))
	defer s.Close()
	b.Run("pool", func(b *testing.B) {
		p, err := New(&Options{Contexts: benchWorkers})
		if err != nil {
			b.Fatal(err)
		}
		defer p.Close()
		guard := newRefuser() // allows everything, but runs the guard proxy
		render := func() error {
			res, err := p.Render(context.Background(), fetch.RenderRequest{URL: s.URL, CheckTarget: guard.check})
			if err == nil && !bytes.Contains(res.HTML, []byte("small page")) {
				err = fmt.Errorf("wrong page:\n%s", res.HTML)
			}
			return err
		}
		benchRenders(b, p.baseDir, render)
	})
	b.Run("bare", func(b *testing.B) {
		benchBare(b, s.URL, func(dir string) []chromedp.ExecAllocatorOption {
			return append(chromedp.DefaultExecAllocatorOptions[:],
				chromedp.ExecPath(needBrowser(b)), chromedp.NoSandbox, chromedp.UserDataDir(dir))
		})
	})
	b.Run("bare-poolflags", func(b *testing.B) { // the pool's command line
		benchBare(b, s.URL, (&Pool{opts: Options{ExecPath: needBrowser(b)}}).execOptions)
	})
}

// benchWorkers is how many renders the benchmarks run at once.
const benchWorkers = 4

// benchRenders calls render b.N times from benchWorkers goroutines, after
// one call outside the timing (which starts the browser), and reports
// renders/s and the CPU time per render of this process and of the
// browser's processes (those under dir).
func benchRenders(b *testing.B, dir string, render func() error) {
	if err := render(); err != nil {
		b.Fatal(err)
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	b.ResetTimer()
	cpu := cpuTime(dir)
	start := time.Now()
	for range benchWorkers {
		wg.Go(func() {
			for next.Add(1) <= int64(b.N) {
				if err := render(); err != nil {
					b.Error(err)
				}
			}
		})
	}
	wg.Wait()
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "renders/s")
	b.ReportMetric(float64((cpuTime(dir)-cpu).Milliseconds())/float64(b.N), "cpu-ms/render")
}

// benchBare renders url with plain chromedp: one browser started with the
// command line that flags gives for a user-data-dir, a new tab per page
// (in the default browser context) closed after it, the DOM read once the
// load event has fired.
func benchBare(b *testing.B, url string, flags func(dir string) []chromedp.ExecAllocatorOption) {
	dir := b.TempDir()
	actx, acancel := chromedp.NewExecAllocator(context.Background(), flags(dir)...)
	defer acancel()
	bctx, bcancel := chromedp.NewContext(actx)
	defer bcancel()
	if err := chromedp.Do(bctx); err != nil {
		b.Fatal(err)
	}
	benchRenders(b, dir, func() error {
		tctx, cancel := chromedp.NewContext(bctx)
		defer cancel()
		if err := chromedp.Do(tctx, chromedp.Navigate(url)); err != nil {
			return err
		}
		html, err := chromedp.Run(tctx, chromedp.Evaluate[string](`document.documentElement.outerHTML`))
		if err == nil && !strings.Contains(html, "small page") {
			err = fmt.Errorf("wrong page:\n%s", html)
		}
		return err
	})
}
