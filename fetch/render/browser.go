package render

import (
	"context"
	"fmt"
	"os"
	"sync/atomic"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/remote"

	"github.com/webinfra/webinfra/errs"
)

// browser is one Chromium process (or one connection to a remote
// endpoint) and the pages it has served. The Pool's mutex guards pages,
// active, retiring and stopping; ready closes once start has set ctx, icpt
// and err.
type browser struct {
	remote bool
	dir    string // the user-data-dir of a local browser, removed on retire

	ready chan struct{}
	err   error
	gone  chan struct{} // closed when stop has finished

	ctx         context.Context // the chromedp browser context
	cancel      context.CancelFunc
	allocCancel context.CancelFunc
	icpt        *interceptor
	lost        <-chan struct{} // closed when the connection drops
	broken      atomic.Bool     // it failed to start or misbehaved

	pages    int // pages handed out, ever
	active   int // pages in flight
	retiring bool
	stopping bool
}

const (
	startTimeout = 45 * time.Second
	closeTimeout = 5 * time.Second
)

func discardf(string, ...any) {}

// start launches (or connects to) the browser and enables interception.
// On failure it sets b.err and marks b broken. It always closes b.ready.
func (p *Pool) start(b *browser) {
	defer close(b.ready)
	defer func() {
		if b.err != nil {
			b.broken.Store(true)
		}
	}()
	var allocCtx context.Context
	if p.opts.BrowserURL != "" {
		b.remote = true
		allocCtx, b.allocCancel = remote.NewAllocator(p.root, p.opts.BrowserURL)
	} else {
		dir, err := p.userDataDir()
		if err != nil {
			b.err = err
			b.allocCancel = func() {}
			b.cancel = func() {}
			return
		}
		b.dir = dir
		allocCtx, b.allocCancel = chromedp.NewExecAllocator(p.root, p.execOptions(dir)...)
	}
	b.ctx, b.cancel = chromedp.NewContext(allocCtx,
		chromedp.WithLogf(discardf), chromedp.WithErrorf(discardf))
	watchdog := time.AfterFunc(startTimeout, b.cancel)
	defer watchdog.Stop()
	if _, err := chromedp.Targets(b.ctx); err != nil {
		b.err = p.startError(err)
		return
	}
	icpt, err := startInterceptor(b.ctx)
	if err != nil {
		b.err = p.startError(err)
		return
	}
	b.icpt = icpt
	b.lost = chromedp.FromContext(b.ctx).Browser.LostConnection
}

// dead reports whether b can take no more pages: it failed, or its
// connection dropped (the process died).
func (b *browser) dead() bool {
	if b.broken.Load() {
		return true
	}
	select {
	case <-b.ready:
		if b.lost != nil {
			select {
			case <-b.lost:
				return true
			default:
			}
		}
	default:
	}
	return false
}

func (p *Pool) startError(err error) error {
	if p.opts.BrowserURL != "" {
		return errs.Wrap(errs.KindUnavailable, err, "render tier unavailable: connecting to %s", p.opts.BrowserURL)
	}
	return errs.Wrap(errs.KindUnavailable, err, "render tier unavailable: starting %s", p.opts.ExecPath)
}

// disabledFeatures are the Chromium features a local browser runs
// without. Besides services a render never uses, two cost a process each
// per browser context, and every render has its own context:
//
//   - SpareRendererForSitePerProcess keeps a spare renderer process warm,
//     but for the default context, which no render uses: each new context
//     then starts its own renderer anyway and the spare is replaced;
//   - WebUIOmniboxPopup and WebUIOmniboxAimPopup preload the omnibox popup's
//     web UI (chrome://omnibox-popup.top-chrome/) in every new window, in a
//     renderer of its own, though a headless browser never shows it.
//
// With them off a new context costs one renderer (its page's) instead of
// three.
const disabledFeatures = "Translate,MediaRouter,OptimizationHints,DialMediaRouteProvider," +
	"SpareRendererForSitePerProcess,WebUIOmniboxPopup,WebUIOmniboxAimPopup"

// execOptions are the command line of a local browser.
func (p *Pool) execOptions(dir string) []chromedp.ExecAllocatorOption {
	return []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(p.opts.ExecPath),
		chromedp.UserDataDir(dir),
		chromedp.Headless, // also hides scrollbars and mutes audio
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.WindowSize(1280, 800),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-breakpad", true),
		chromedp.Flag("disable-client-side-phishing-detection", true),
		chromedp.Flag("disable-default-apps", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("disable-hang-monitor", true),
		chromedp.Flag("disable-popup-blocking", true),
		chromedp.Flag("disable-prompt-on-repost", true),
		chromedp.Flag("disable-background-timer-throttling", true),
		chromedp.Flag("disable-backgrounding-occluded-windows", true),
		chromedp.Flag("disable-renderer-backgrounding", true),
		chromedp.Flag("disable-ipc-flooding-protection", true),
		chromedp.Flag("disable-features", disabledFeatures),
		chromedp.Flag("enable-features", "NetworkService,NetworkServiceInProcess"),
		chromedp.Flag("metrics-recording-only", true),
		chromedp.Flag("safebrowsing-disable-auto-update", true),
		chromedp.Flag("password-store", "basic"),
		chromedp.Flag("use-mock-keychain", true),
		// WebRTC may only use the (guarded) proxy, never raw UDP.
		chromedp.Flag("force-webrtc-ip-handling-policy", "disable_non_proxied_udp"),
	}
}

// stop closes the browser: gracefully first, then by killing every process
// that uses its user-data-dir, which it then removes. For a remote endpoint
// it only closes the connection.
func (b *browser) stop() {
	if b.ctx != nil {
		cctx, cancel := context.WithTimeout(b.ctx, closeTimeout)
		chromedp.Cancel(cctx)
		cancel()
		b.cancel()
	}
	b.allocCancel() // waits for the process of a local browser
	if b.dir != "" {
		killProcessesUsing(b.dir)
		removeAll(b.dir)
	}
}

// removeAll removes dir, trying again for a while: a process that was just
// killed can still be writing there.
func removeAll(dir string) error {
	var err error
	for range 20 {
		if err = os.RemoveAll(dir); err == nil {
			return nil
		}
		time.Sleep(25 * time.Millisecond)
	}
	return fmt.Errorf("removing %s: %w", dir, err)
}
