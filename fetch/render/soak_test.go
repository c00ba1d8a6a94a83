package render

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/webinfra/webinfra/fetch"
)

// renderers counts the renderer processes of the browsers under base once
// the count has held still for half a second (processes of a closed
// context take a moment to go), or after five seconds.
func renderers(base string) int {
	count := func() int {
		n := 0
		for pid := range processesUsing(base) {
			cmdline, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
			if bytes.Contains(cmdline, []byte("--type=renderer")) {
				n++
			}
		}
		return n
	}
	last, same := count(), 0
	for deadline := time.Now().Add(5 * time.Second); same < 5 && time.Now().Before(deadline); {
		time.Sleep(100 * time.Millisecond)
		if n := count(); n == last {
			same++
		} else {
			last, same = n, 0
		}
	}
	return last
}

// TestOneRendererPerContext opens three tabs, each in a browser context of
// its own as a render's is, and counts renderer processes: each context
// costs one, its page's. Chromium's spare renderer (warmed for the default
// context, which no render uses) and the omnibox popup web UIs it preloads
// in every window would cost two more; the features that turn them off
// are named in disabledFeatures, and a new Chromium can rename them.
func TestOneRendererPerContext(t *testing.T) {
	t.Parallel()
	needBrowser(t)
	if runtime.GOOS != "linux" {
		t.Skip("counts processes in /proc")
	}
	p, err := New(&Options{Contexts: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	s := newSite(t, map[string]http.HandlerFunc{"/": html("<p>warm</p>")})
	if _, err := p.Render(t.Context(), fetch.RenderRequest{URL: s.URL + "/", Timeout: 30 * time.Second}); err != nil {
		t.Fatal(err) // starts the browser
	}
	p.mu.Lock()
	b := p.cur
	p.mu.Unlock()
	before := renderers(p.baseDir)
	for range 3 {
		tab, err := openTab(t.Context(), b, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer tab.close()
	}
	after := renderers(p.baseDir)
	t.Logf("renderer processes: %d, then %d with three more contexts", before, after)
	if after-before > 3 {
		t.Errorf("three contexts started %d renderer processes, want 3", after-before)
	}
	infos, err := chromedp.Targets(b.ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, info := range infos {
		if info.Type != "page" {
			t.Errorf("a %s target: %s", info.Type, info.URL)
		}
	}
}

// TestRenderSoak renders 1,000 pages, four at a time, with PagesPerBrowser
// 150 (six browsers retired on the way), and compares the pool after 100
// and after 1,000 renders, both 100 pages into a browser: the Go heap and
// goroutines and the browser's processes must be where they were. Close
// must then leave no process and no directory. It takes minutes, so it
// only runs with WEBINFRA_RENDER_SOAK=1:
//
//	WEBINFRA_RENDER_SOAK=1 go test -run RenderSoak -v -timeout 30m ./fetch/render/
func TestRenderSoak(t *testing.T) {
	if os.Getenv("WEBINFRA_RENDER_SOAK") != "1" {
		t.Skip("set WEBINFRA_RENDER_SOAK=1 to run the 1,000-render soak")
	}
	needBrowser(t)
	p, err := New(&Options{Contexts: 4, PagesPerBrowser: 150})
	if err != nil {
		t.Fatal(err)
	}
	base := p.baseDir
	s := newSite(t, map[string]http.HandlerFunc{
		"/": html(`<!DOCTYPE html><title>soak</title><p id="n"></p><script>document.getElementById('n').textContent = 'page ' + location.search</script>`),
	})
	allow := func(context.Context, string) error { return nil } // the guard proxy runs; nothing is recorded
	done := 0
	renderUpTo := func(n int) {
		var next atomic.Int64
		next.Store(int64(done))
		var wg sync.WaitGroup
		for range 4 {
			wg.Go(func() {
				for i := next.Add(1); i <= int64(n); i = next.Add(1) {
					res, err := p.Render(t.Context(), fetch.RenderRequest{URL: fmt.Sprintf("%s/?%d", s.URL, i), CheckTarget: allow, Timeout: time.Minute})
					if err == nil && !bytes.Contains(res.HTML, fmt.Appendf(nil, "page ?%d<", i)) {
						err = fmt.Errorf("render %d: wrong page:\n%s", i, res.HTML)
					}
					if err != nil {
						t.Error(err)
					}
				}
			})
		}
		wg.Wait()
		done = n
	}
	type state struct{ heap, goroutines, procs, pss int }
	measure := func() state {
		renderers(base) // let the processes of the last contexts go
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		st := state{heap: int(ms.HeapAlloc), goroutines: runtime.NumGoroutine()}
		for pid := range processesUsing(base) {
			st.procs++
			st.pss += pssOf(pid)
		}
		return st
	}
	start := time.Now()
	renderUpTo(100)
	at100 := measure()
	renderUpTo(1000)
	at1000 := measure()
	elapsed := time.Since(start)
	p.mu.Lock()
	started := p.started
	p.mu.Unlock()
	t.Logf("1,000 renders in %s (%.1f/s), %d browsers", elapsed.Round(time.Second), 1000/elapsed.Seconds(), started)
	for _, m := range []struct {
		at string
		st state
	}{{"100", at100}, {"1,000", at1000}} {
		t.Logf("after %s renders: Go heap %.1f MiB, %d goroutines, %d Chromium processes, %d MiB PSS",
			m.at, float64(m.st.heap)/(1<<20), m.st.goroutines, m.st.procs, m.st.pss>>20)
	}
	if at1000.heap > at100.heap+4<<20 {
		t.Errorf("the Go heap grew from %d to %d bytes", at100.heap, at1000.heap)
	}
	if at1000.goroutines > at100.goroutines+5 {
		t.Errorf("goroutines grew from %d to %d", at100.goroutines, at1000.goroutines)
	}
	if at1000.procs != at100.procs {
		t.Errorf("%d Chromium processes after 1,000 renders, %d after 100", at1000.procs, at100.procs)
	}
	if started != 7 {
		t.Errorf("%d browsers started, want 7 (150 pages each)", started)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if left := processesUsing(base); len(left) > 0 {
		t.Errorf("processes left after Close: %v", left)
	}
	if _, err := os.Stat(base); !os.IsNotExist(err) {
		t.Errorf("%s still exists after Close (%v)", base, err)
	}
}
