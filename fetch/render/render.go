package render

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/chromedp/cdproto"
	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/fetch"
)

// Render loads req.URL in a fresh tab (in a fresh browser context) and
// returns the page as the browser left it: the serialized DOM, the main
// document's status, headers and final URL, and a full-page PNG when asked.
//
// It waits for req.WaitFor to be in the DOM, or else for the network to be
// idle for Options.IdleTime (Options.SettleTime after the load event for a
// page that was idle then; a page that never goes quiet is taken when the
// wait runs out). req.CheckTarget, when set, is applied to the URL first and
// then to every request the page makes.
//
// Errors: an invalid URL is errs.KindInvalid; a refused URL, or a main
// document redirected to one, is CheckTarget's error (errs.KindForbidden);
// a page that fails to load, a selector that never appears and timeouts are
// errs.KindUpstream naming the cause; no browser is errs.KindUnavailable;
// the caller's context ending passes its error through.
func (p *Pool) Render(ctx context.Context, req fetch.RenderRequest) (*fetch.RenderResult, error) {
	u, err := parseTarget(req.URL)
	if err != nil {
		return nil, err
	}
	timeout := req.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil, errClosed()
	}
	p.renders.Add(1)
	p.mu.Unlock()
	defer p.renders.Done()

	rctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	defer context.AfterFunc(p.root, cancel)() // Close aborts renders
	r := &run{pool: p, req: req, url: u, ctx: ctx, rctx: rctx, timeout: timeout, phase: "checking the URL"}
	res, err := r.do()
	if err != nil {
		return nil, r.classify(err)
	}
	return res, nil
}

// parseTarget accepts absolute http(s) URLs with a host.
func parseTarget(raw string) (*url.URL, error) {
	if raw == "" {
		return nil, errs.Invalid("url", "is required")
	}
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		return nil, errs.Invalid("url", "is not a valid URL: %v", err)
	case u.Scheme != "http" && u.Scheme != "https":
		return nil, errs.Invalid("url", "scheme must be http or https, not %q", u.Scheme)
	case u.Host == "":
		return nil, errs.Invalid("url", "must have a host")
	}
	return u, nil
}

// run is one Render call.
type run struct {
	pool    *Pool
	req     fetch.RenderRequest
	url     *url.URL
	ctx     context.Context // the caller's
	rctx    context.Context // the caller's with the render's timeout
	timeout time.Duration
	phase   string // what the render was doing, for errors
	broken  bool   // the browser failed in a way that retires it
}

// classify turns an error into the package's error model.
func (r *run) classify(err error) error {
	var typed *errs.Error
	switch {
	case r.ctx.Err() != nil:
		return r.ctx.Err()
	case r.pool.root.Err() != nil:
		return errClosed()
	case errors.As(err, &typed):
		return err
	case r.rctx.Err() != nil:
		return errs.New(errs.KindUpstream, "render %s: timed out after %s while %s", r.req.URL, r.timeout, r.phase)
	}
	return errs.Wrap(errs.KindUpstream, err, "render %s: %s", r.req.URL, r.phase)
}

func (r *run) do() (*fetch.RenderResult, error) {
	if r.req.CheckTarget != nil {
		if err := r.req.CheckTarget(r.rctx, r.req.URL); err != nil {
			if r.rctx.Err() != nil {
				return nil, r.rctx.Err() // cut short, not refused
			}
			return nil, err
		}
	}
	r.phase = "waiting for a browser"
	select {
	case r.pool.slots <- struct{}{}:
	case <-r.rctx.Done():
		return nil, r.rctx.Err()
	}
	defer func() { <-r.pool.slots }()
	b, err := r.pool.acquire(r.rctx)
	if err != nil {
		return nil, err
	}
	res, err := r.onTab(b)
	r.pool.release(b, r.broken)
	return res, err
}

// onTab renders the page in a new tab of b.
func (r *run) onTab(b *browser) (*fetch.RenderResult, error) {
	guard := newPageGuard(r.rctx, r.url, r.req.CheckTarget, r.req.Headers)
	var proxy *guardProxy
	if r.req.CheckTarget != nil && !b.remote && !r.pool.noGuardProxy {
		var err error
		if proxy, err = startGuardProxy(guard.allowed); err != nil {
			return nil, errs.Wrap(errs.KindInternal, err, "render: starting the guard proxy")
		}
		defer proxy.close()
	}
	defer b.icpt.unregister(guard) // after the tab is gone: its last requests are its own
	r.phase = "opening a tab"
	t, err := openTab(r.rctx, b, proxy)
	if err != nil {
		if r.rctx.Err() == nil {
			r.broken = true
			return nil, errs.Wrap(errs.KindUnavailable, err, "render tier unavailable: opening a tab")
		}
		return nil, err
	}
	defer t.close() // closes the tab and disposes of its browser context
	tctx := t.ctx
	guard.frame = cdp.FrameID(chromedp.FromContext(tctx).Target.TargetID)
	b.icpt.register(guard)
	watch := newNetWatch(guard.frame, func(id cdp.FrameID) { b.icpt.addFrame(guard, id) })
	if err := chromedp.Listen(tctx, watch.event); err != nil {
		return nil, err
	}
	if err := r.prepare(tctx, t.id); err != nil {
		return nil, err
	}
	if err := r.navigate(tctx, guard, watch, proxy); err != nil {
		return nil, err
	}
	if err := r.settle(tctx, guard, watch); err != nil {
		return nil, err
	}
	return r.read(tctx, guard, watch)
}

// settle waits for the page (see wait); a navigation the guard refused
// meanwhile (the page sent itself to a refused URL) is that refusal.
func (r *run) settle(tctx context.Context, guard *pageGuard, watch *netWatch) error {
	err := r.wait(tctx, watch, guard.refusedCh)
	if refused := guard.refusal(); refused != nil {
		return refused
	}
	return err
}

// read snapshots the page. A page that moves on while it is being read (a
// meta refresh or a script firing late: its document replaced under the
// read, or a new navigation begun) is waited for again and read once
// more, and a navigation the guard refused is that refusal; a second
// move is taken as it comes (or is an error).
func (r *run) read(tctx context.Context, guard *pageGuard, watch *netWatch) (*fetch.RenderResult, error) {
	nav := watch.navigation()
	res, err := r.snapshot(tctx, watch)
	if !movedOn(res, err, nav, watch) {
		return res, err
	}
	if err := r.settle(tctx, guard, watch); err != nil {
		return nil, err
	}
	res, err = r.snapshot(tctx, watch)
	if refused := guard.refusal(); refused != nil {
		return nil, refused
	}
	return res, err
}

// movedOn reports whether a snapshot (res, err) caught the page moving on
// from the navigation nav: its document replaced under the read, a
// document not yet begun (no root element), or another navigation begun.
func movedOn(res *fetch.RenderResult, err error, nav network.RequestID, watch *netWatch) bool {
	if err != nil {
		return navigatedAway(err)
	}
	return len(res.HTML) == 0 || watch.navigation() != nav
}

// navigatedAway reports whether err is the DevTools protocol's answer to
// a call on a document that was replaced under it.
func navigatedAway(err error) bool {
	var cdpErr *cdproto.Error
	return errors.As(err, &cdpErr) && cdpErr.Code == -32000 &&
		(strings.Contains(cdpErr.Message, "navigated or closed") || strings.Contains(cdpErr.Message, "context was destroyed"))
}

// prepare denies downloads in the tab's browser context, sets the
// User-Agent and checks the WaitFor selector's syntax, all before any
// network traffic.
func (r *run) prepare(tctx context.Context, bcid cdp.BrowserContextID) error {
	r.phase = "denying downloads"
	if _, err := chromedp.CallBrowser(tctx, cdpbrowser.SetDownloadBehavior, cdpbrowser.SetDownloadBehaviorParams{
		Behavior:         cdpbrowser.SetDownloadBehaviorBehaviorDeny,
		BrowserContextID: bcid,
	}); err != nil {
		return err
	}
	if ua := r.pool.opts.UserAgent; ua != "" {
		r.phase = "setting the user agent"
		if _, err := chromedp.Call(tctx, emulation.SetUserAgentOverride, emulation.SetUserAgentOverrideParams{UserAgent: ua}); err != nil {
			return err
		}
	}
	if r.req.WaitFor == "" {
		return nil
	}
	r.phase = "checking the selector"
	sel, _ := json.Marshal(r.req.WaitFor)
	msg, err := chromedp.Run(tctx, chromedp.Evaluate[string](fmt.Sprintf(
		`(() => { try { document.createDocumentFragment().querySelector(%s); return "" } catch (e) { return String(e && e.message || e) } })()`, sel)))
	if err != nil {
		return err
	}
	if msg != "" {
		return errs.Invalid("wait_for", "is not a valid CSS selector: %s", msg)
	}
	return nil
}

// navigate loads the URL and returns once the main document has
// committed, or why it did not.
func (r *run) navigate(tctx context.Context, guard *pageGuard, watch *netWatch, proxy *guardProxy) error {
	r.phase = "loading the page"
	nav, err := chromedp.Call(tctx, page.Navigate, page.NavigateParams{URL: r.req.URL})
	if refused := guard.refusal(); refused != nil {
		return refused
	}
	if err != nil {
		return err
	}
	if nav.ErrorText == "" || nav.ErrorText == "net::ERR_HTTP_RESPONSE_CODE_FAILURE" {
		return nil // the latter: an HTTP error status with an empty body, still a page
	}
	if proxy != nil {
		finalURL, _, _ := watch.mainDocument()
		if refused := proxy.refusal(finalURL); refused != nil {
			return refused
		}
	}
	if nav.IsDownload {
		return errs.New(errs.KindUpstream, "render %s: the URL is a download, not a page", r.req.URL)
	}
	return errs.New(errs.KindUpstream, "render %s: loading failed: %s", r.req.URL, nav.ErrorText)
}

// waitReserve is the part of the timeout kept for reading the page after
// a wait that ran out.
func (r *run) waitReserve() time.Duration {
	return min(r.timeout/4, 5*time.Second)
}

// wait waits for the selector, or for the network to go idle, and stops
// early when refused closes. A selector that does not appear in time is an
// error; a network that does not go idle is not (the page is taken as it
// is).
func (r *run) wait(tctx context.Context, watch *netWatch, refused <-chan struct{}) error {
	deadline, _ := r.rctx.Deadline()
	wctx, cancel := context.WithDeadline(tctx, deadline.Add(-r.waitReserve()))
	defer cancel()
	go func() {
		select {
		case <-refused:
			cancel()
		case <-wctx.Done():
		}
	}()
	if r.req.WaitFor != "" {
		r.phase = fmt.Sprintf("waiting for %q", r.req.WaitFor)
		start := time.Now()
		err := chromedp.Do(wctx, chromedp.WaitReady(chromedp.CSS(r.req.WaitFor)))
		if err != nil && r.rctx.Err() == nil && wctx.Err() != nil {
			return errs.New(errs.KindUpstream, "render %s: selector %q did not appear within %s",
				r.req.URL, r.req.WaitFor, time.Since(start).Round(time.Millisecond))
		}
		return err
	}
	r.phase = "waiting for the network to be idle"
	if err := watch.waitIdle(wctx, r.pool.opts.IdleTime, r.pool.opts.SettleTime); err != nil && r.rctx.Err() != nil {
		return err
	}
	return nil
}

// snapshot is what the page says about itself.
type snapshot struct {
	URL  string `json:"url"`
	HTML string `json:"html"`
}

const snapshotJS = `(() => {
	const d = document;
	if (!d.documentElement) return {url: location.href, html: ""};
	let html = d.documentElement.outerHTML;
	if (d.doctype) html = new XMLSerializer().serializeToString(d.doctype) + "\n" + html;
	return {url: location.href, html: html};
})()`

// snapshot reads the DOM, the main document's response and, when asked,
// a full-page PNG.
func (r *run) snapshot(tctx context.Context, watch *netWatch) (*fetch.RenderResult, error) {
	r.phase = "reading the page"
	snap, err := chromedp.Run(tctx, chromedp.Evaluate[snapshot](snapshotJS))
	if err != nil {
		return nil, err
	}
	finalURL, status, header := watch.mainDocument()
	if finalURL == "" {
		finalURL = snap.URL
	}
	res := &fetch.RenderResult{FinalURL: finalURL, StatusCode: status, Header: header, HTML: []byte(snap.HTML)}
	if r.req.Screenshot {
		r.phase = "taking the screenshot"
		if res.Screenshot, err = chromedp.Run(tctx, chromedp.FullScreenshot(100)); err != nil {
			return nil, err
		}
	}
	return res, nil
}
