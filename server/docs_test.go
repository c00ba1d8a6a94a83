package server_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/webinfra/webinfra/fetch/render"
	"github.com/webinfra/webinfra/internal/testenv"
)

// /docs works offline: in headless Chromium with every other network
// refused (a proxy on a closed port for everything but loopback), the page
// shows the catalog's operations, and every request it made went to this
// server.
func TestDocsPageWorksOffline(t *testing.T) {
	t.Parallel()
	browser, err := render.FindBrowser("")
	if err != nil {
		testenv.Missing(t, "no Chromium installed (apt-get install chromium); .ci/run installs it")
	}
	e := newEnv(t)
	alloc, cancel := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(browser), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.UserDataDir(t.TempDir()), chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.ProxyServer("http://127.0.0.1:9"), // nothing listens: only loopback (never proxied) is reachable
	)
	defer cancel()
	ctx, cancel := chromedp.NewContext(alloc)
	defer cancel()
	ctx, cancel = context.WithTimeout(ctx, 60*time.Second)
	defer cancel()

	var mu sync.Mutex
	var requested []string
	if err := chromedp.Do(ctx); err != nil {
		t.Fatal(err)
	}
	chromedp.Listen(ctx, func(ev any) {
		if req, ok := ev.(*network.EventRequestWillBeSent); ok {
			mu.Lock()
			requested = append(requested, req.Request.URL)
			mu.Unlock()
		}
	})
	if _, err := chromedp.Run(ctx, chromedp.Navigate(e.ts.URL+"/docs")); err != nil {
		t.Fatal(err)
	}
	// The sidebar lists the catalog's tags; opening one lists its
	// operations by summary.
	const openScraping = `(() => {
		const tag = [...document.querySelectorAll("div")].find(d => d.childElementCount === 0 && d.textContent === "Scraping");
		if (tag && !window.opened) { tag.click(); window.opened = true; }
		return document.body.innerText.includes("Fetch one URL");
	})()`
	shown, err := chromedp.Run(ctx, chromedp.Poll[bool](openScraping, chromedp.WithPollingTimeout(45*time.Second)))
	if err != nil || !shown {
		text, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.innerText.slice(0, 500)`))
		t.Fatalf("the operations never showed (%v); page text: %q", err, text)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, u := range requested {
		if !strings.HasPrefix(u, e.ts.URL+"/") && !strings.HasPrefix(u, "data:") {
			t.Errorf("the page requested %s, off this server", u)
		}
	}
	if len(requested) < 3 {
		t.Errorf("requests %q: want the page, its script and styles, and /openapi.json", requested)
	}
}
