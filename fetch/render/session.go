package render

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/webinfra/webinfra/errs"
)

// SessionOptions configure one Pool.Session. The zero value means defaults.
type SessionOptions struct {
	// CheckTarget is the SSRF guard, as in fetch.RenderRequest: Navigate
	// applies it to the URL first, and every request the session's pages
	// make (redirects, subresources, frames, workers) continues only when
	// it allows it. Nil allows everything; give it the fetch guard.
	CheckTarget func(ctx context.Context, url string) error
	// Timeout bounds the whole session, waiting for a browser included
	// (default DefaultTimeout).
	Timeout time.Duration
	// ViewportWidth and ViewportHeight are the page's viewport in CSS
	// pixels, at a device scale factor of 1 (default 1280x800, at most
	// MaxViewport each).
	ViewportWidth, ViewportHeight int
}

// Viewport bounds of a session.
const (
	DefaultViewportWidth  = 1280
	DefaultViewportHeight = 800
	MaxViewport           = 4096
)

// Session is one scripted browser session: a tab in a browser context of
// its own, with the guarantees of a render. The run func of Pool.Session
// drives it with chromedp actions on the context it is given.
type Session struct {
	guard *pageGuard
	proxy *guardProxy // nil: no guard proxy (remote browser, or no check)
	watch *netWatch
	check func(ctx context.Context, url string) error
}

// RefusedError is the error of a navigation the SSRF guard refused. Err is
// CheckTarget's error, so errs.KindOf sees its kind.
type RefusedError struct {
	URL string
	Err error
}

func (e *RefusedError) Error() string { return e.Err.Error() }
func (e *RefusedError) Unwrap() error { return e.Err }

// Session runs script in a fresh tab of a fresh browser context (its own
// cookies, cache and storage, shared with no other render or session),
// with every request of the tab checked by opts.CheckTarget as a render's
// are, JavaScript dialogs accepted, downloads denied and the viewport of
// opts. The ctx given to script is a chromedp context of the tab that ends
// with the session's timeout, the caller's ctx or the pool's Close; script
// must return when it ends. The tab, its browser context and its guard
// proxy are gone when Session returns, whatever happened (a panic in
// script included).
//
// It returns script's error as it is, except that the caller's context
// ending returns that context's error and a closed pool errs.KindUnavailable.
// An invalid viewport is errs.KindInvalid; no browser is
// errs.KindUnavailable; a timeout before script runs is errs.KindUpstream.
func (p *Pool) Session(ctx context.Context, opts SessionOptions, script func(ctx context.Context, s *Session) error) error {
	if err := checkViewport(&opts); err != nil {
		return err
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return errClosed()
	}
	p.renders.Add(1)
	p.mu.Unlock()
	defer p.renders.Done()

	rctx, cancel := context.WithTimeout(ctx, opts.Timeout)
	defer cancel()
	defer context.AfterFunc(p.root, cancel)() // Close aborts sessions
	sr := &sessionRun{pool: p, opts: opts, ctx: ctx, rctx: rctx, phase: "waiting for a browser"}
	err := sr.do(script)
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil:
		return ctx.Err()
	case p.root.Err() != nil:
		return errClosed()
	case sr.scripted:
		return err
	}
	var typed *errs.Error
	if errors.As(err, &typed) {
		return err
	}
	if rctx.Err() != nil {
		return errs.New(errs.KindUpstream, "render session: timed out after %s while %s", opts.Timeout, sr.phase)
	}
	return errs.Wrap(errs.KindUpstream, err, "render session: %s", sr.phase)
}

func checkViewport(o *SessionOptions) error {
	if o.ViewportWidth == 0 {
		o.ViewportWidth = DefaultViewportWidth
	}
	if o.ViewportHeight == 0 {
		o.ViewportHeight = DefaultViewportHeight
	}
	if o.ViewportWidth < 1 || o.ViewportWidth > MaxViewport {
		return errs.Invalid("viewport_width", "must be between 1 and %d", MaxViewport)
	}
	if o.ViewportHeight < 1 || o.ViewportHeight > MaxViewport {
		return errs.Invalid("viewport_height", "must be between 1 and %d", MaxViewport)
	}
	return nil
}

// sessionRun is one Session call.
type sessionRun struct {
	pool     *Pool
	opts     SessionOptions
	ctx      context.Context // the caller's
	rctx     context.Context // the caller's with the session's timeout
	phase    string
	broken   bool // the browser failed in a way that retires it
	scripted bool // the error is the script's
}

func (sr *sessionRun) do(script func(context.Context, *Session) error) error {
	select {
	case sr.pool.slots <- struct{}{}:
	case <-sr.rctx.Done():
		return sr.rctx.Err()
	}
	defer func() { <-sr.pool.slots }()
	b, err := sr.pool.acquire(sr.rctx)
	if err != nil {
		return err
	}
	defer func() { sr.pool.release(b, sr.broken) }() // deferred: runs on a panic too
	return sr.onTab(b, script)
}

// onTab opens the tab as Render does and runs script in it.
func (sr *sessionRun) onTab(b *browser, script func(context.Context, *Session) error) error {
	s := &Session{check: sr.opts.CheckTarget}
	s.guard = newPageGuard(sr.rctx, &url.URL{}, sr.opts.CheckTarget, nil)
	if sr.opts.CheckTarget != nil && !b.remote && !sr.pool.noGuardProxy {
		var err error
		if s.proxy, err = startGuardProxy(s.guard.allowed); err != nil {
			return errs.Wrap(errs.KindInternal, err, "render: starting the guard proxy")
		}
		defer s.proxy.close()
	}
	defer b.icpt.unregister(s.guard) // after the tab is gone: its last requests are its own
	sr.phase = "opening a tab"
	t, err := openTab(sr.rctx, b, s.proxy)
	if err != nil {
		if sr.rctx.Err() == nil {
			sr.broken = true
			return errs.Wrap(errs.KindUnavailable, err, "render tier unavailable: opening a tab")
		}
		return err
	}
	defer t.close() // closes the tab and disposes of its browser context
	tctx := t.ctx
	s.guard.frame = cdp.FrameID(chromedp.FromContext(tctx).Target.TargetID)
	b.icpt.register(s.guard)
	s.watch = newNetWatch(s.guard.frame, func(id cdp.FrameID) { b.icpt.addFrame(s.guard, id) })
	if err := chromedp.Listen(tctx, func(ev any) {
		s.watch.event(ev)
		if _, ok := ev.(*page.EventJavascriptDialogOpening); ok {
			go chromedp.Call(tctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: true})
		}
	}); err != nil {
		return err
	}
	sr.phase = "preparing the tab"
	if err := (&run{pool: sr.pool}).prepare(tctx, t.id); err != nil {
		return err
	}
	sr.phase = "setting the viewport"
	if _, err := chromedp.Call(tctx, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{
		Width: int64(sr.opts.ViewportWidth), Height: int64(sr.opts.ViewportHeight), DeviceScaleFactor: 1,
	}); err != nil {
		return err
	}
	deadline, _ := sr.rctx.Deadline()
	sctx, cancel := context.WithDeadline(tctx, deadline)
	defer cancel()
	sr.phase, sr.scripted = "running the session", true
	return script(sctx, s)
}

// Navigate loads rawURL in the session's tab and waits for its load
// event. CheckTarget is applied to the URL first, then to every request
// the load makes. A refusal, of the URL or of a redirect, is a
// *RefusedError; an invalid URL is errs.KindInvalid; a page that fails to
// load is errs.KindUpstream naming the browser's error. An HTTP error
// status is a page like any other.
func (s *Session) Navigate(ctx context.Context, rawURL string) error {
	if _, err := parseTarget(rawURL); err != nil {
		return err
	}
	if s.check != nil {
		if err := s.check(ctx, rawURL); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return &RefusedError{URL: rawURL, Err: err}
		}
	}
	s.guard.clearRefusal()
	_, err := chromedp.Run(ctx, chromedp.NavigateResponse(rawURL))
	if err == nil {
		return nil
	}
	if refused := s.Refusal(); refused != nil {
		return refused
	}
	var load *chromedp.LoadError
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case errors.As(err, &load) && load.ErrorText == "net::ERR_HTTP_RESPONSE_CODE_FAILURE":
		return nil // an HTTP error status with an empty body, still a page
	case errors.As(err, &load):
		return errs.New(errs.KindUpstream, "loading %s failed: %s", rawURL, load.ErrorText)
	}
	return fmt.Errorf("loading %s: %w", rawURL, err)
}

// Refusal returns the refusal of the tab's last main-document load since
// the last Navigate (one the page started itself included: a link, a form,
// a script), as a *RefusedError, or nil.
func (s *Session) Refusal() error {
	finalURL, _, _ := s.watch.mainDocument()
	if err := s.guard.refusal(); err != nil {
		return &RefusedError{URL: finalURL, Err: err}
	}
	if s.proxy != nil {
		if err := s.proxy.refusal(finalURL); err != nil {
			return &RefusedError{URL: finalURL, Err: err}
		}
	}
	return nil
}

// clearRefusal forgets the guard's refusal, for a session's next
// navigation. refusedCh, which only Render waits on, is replaced under the
// lock that refuse closes it with.
func (g *pageGuard) clearRefusal() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.refused != nil {
		g.refused = nil
		g.refusedCh = make(chan struct{})
	}
}
