package render

import (
	"context"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
)

// tab is one render's (or session's) page: a tab in a browser context of
// its own, no cookie, cache or storage shared with any other. The pool
// creates and disposes of the browser context itself over CDP rather than
// through chromedp.WithNewBrowserContext, whose teardown closes the tab
// and then polls the browser's target list until it is gone before it
// disposes of the context: disposing of the context closes its tabs
// anyway, and answers once they are closed, in one command.
type tab struct {
	ctx    context.Context    // a chromedp context attached to the page
	cancel context.CancelFunc // detaches from the page, leaving it open
	stop   func() bool        // stops cancelling with the ctx of openTab
	id     cdp.BrowserContextID
	b      *browser
}

// openTab creates a browser context in b, its traffic through proxy when
// there is one, opens a blank page in a window of its own there and
// attaches to it. The end of ctx ends the commands, and every action on
// the tab's context from then on. On failure nothing is left. The caller
// must call close when it is done, on every path.
func openTab(ctx context.Context, b *browser, proxy *guardProxy) (*tab, error) {
	conn := chromedp.FromContext(b.ctx).Browser
	params := target.CreateBrowserContextParams{DisposeOnDetach: new(true)}
	if proxy != nil {
		params.ProxyServer = proxy.url()
		params.ProxyBypassList = "<-loopback>" // loopback goes through the guard too
	}
	created, err := cdp.Call(ctx, conn, target.CreateBrowserContext, params)
	if err != nil {
		return nil, err
	}
	t := &tab{id: created.BrowserContextID, b: b, cancel: func() {}, stop: func() bool { return false }}
	page, err := cdp.Call(ctx, conn, target.CreateTarget, target.CreateTargetParams{
		URL: "about:blank", BrowserContextID: t.id,
		NewWindow: new(true), // a new context has no window to share
	})
	if err != nil {
		t.close()
		return nil, err
	}
	t.ctx, t.cancel = chromedp.NewContext(b.ctx, chromedp.WithTargetID(page.TargetID), chromedp.WithDetachOnCancel())
	t.stop = context.AfterFunc(ctx, t.cancel)
	if err := chromedp.Do(t.ctx); err != nil { // attaches
		t.close()
		return nil, err
	}
	return t, nil
}

// close detaches from the page and disposes of its browser context, which
// closes the page (and any other it opened) and drops the context's
// cookies, cache and storage. It is bounded by closeTimeout and safe to
// call more than once.
func (t *tab) close() {
	t.stop()
	t.cancel()
	if t.id == "" {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), closeTimeout)
	defer cancel()
	cdp.Call(ctx, chromedp.FromContext(t.b.ctx).Browser, target.DisposeBrowserContext,
		target.DisposeBrowserContextParams{BrowserContextID: t.id})
	t.id = ""
}
