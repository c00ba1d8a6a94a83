package render

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/webinfra/webinfra/errs"
)

// interceptor pauses every request of one browser with the CDP Fetch
// domain, enabled on the browser session so that it also sees the requests
// of workers, service workers and out-of-process iframes, and lets a request
// continue only when the SSRF check of the render that owns it allows it.
//
// A request belongs to a render by its frame: the main frame of a tab has
// the tab's target id, and the render registers its subframes as they are
// attached. A request no render claims (a service worker's, or a frame seen
// before its attach event) must pass the checks of every render in flight;
// with no render in flight it is refused.
type interceptor struct {
	ctx context.Context // the browser's chromedp context

	mu     sync.Mutex
	pages  map[*pageGuard]struct{}
	frames map[cdp.FrameID]*pageGuard
}

// interceptTimeout bounds one check plus the command that answers it.
const interceptTimeout = 15 * time.Second

// startInterceptor enables request interception on the browser of bctx.
func startInterceptor(bctx context.Context) (*interceptor, error) {
	in := &interceptor{
		ctx:    bctx,
		pages:  make(map[*pageGuard]struct{}),
		frames: make(map[cdp.FrameID]*pageGuard),
	}
	paused := chromedp.BrowserEvents(bctx, fetch.RequestPaused)
	_, err := chromedp.CallBrowser(bctx, fetch.Enable, fetch.EnableParams{
		Patterns: []*fetch.RequestPattern{{URLPattern: "*", RequestStage: fetch.RequestStageRequest}},
	})
	if err != nil {
		return nil, fmt.Errorf("enabling request interception: %w", err)
	}
	go func() {
		for ev, err := range paused {
			if err != nil {
				return
			}
			go in.handle(ev)
		}
	}()
	return in, nil
}

// pageGuard is one render as the interceptor sees it.
type pageGuard struct {
	ctx     context.Context // the render's; its end ends pending checks
	check   func(ctx context.Context, url string) error
	frame   cdp.FrameID       // the tab's main frame (its target id)
	host    string            // host[:port] of the requested URL
	headers map[string]string // extra headers for the main document

	refusedCh chan struct{} // closed with the first refusal of a main-frame document

	mu      sync.Mutex
	frames  []cdp.FrameID
	refused error            // that refusal
	cache   map[string]error // check results by scheme://host:port
}

func newPageGuard(ctx context.Context, req *url.URL, check func(context.Context, string) error, headers map[string]string) *pageGuard {
	return &pageGuard{
		ctx: ctx, check: check, host: req.Host, headers: headers,
		refusedCh: make(chan struct{}), cache: make(map[string]error),
	}
}

// allowed applies the render's check to rawURL, remembering the answer for
// each scheme://host:port so a page of many images costs one DNS lookup.
func (g *pageGuard) allowed(ctx context.Context, rawURL string) error {
	if g.check == nil {
		return nil
	}
	key := rawURL
	if u, err := url.Parse(rawURL); err == nil {
		key = u.Scheme + "://" + u.Host
	}
	g.mu.Lock()
	err, ok := g.cache[key]
	g.mu.Unlock()
	if ok {
		return err
	}
	err = g.check(ctx, rawURL)
	if ctx.Err() != nil {
		return err // a check cut short says nothing about the host
	}
	g.mu.Lock()
	g.cache[key] = err
	g.mu.Unlock()
	return err
}

func (g *pageGuard) refuse(err error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.refused == nil {
		g.refused = err
		close(g.refusedCh)
	}
}

func (g *pageGuard) refusal() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.refused
}

// register makes g the owner of the requests of its main frame.
func (in *interceptor) register(g *pageGuard) {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.pages[g] = struct{}{}
	in.frames[g.frame] = g
}

// addFrame makes g the owner of a subframe's requests.
func (in *interceptor) addFrame(g *pageGuard, id cdp.FrameID) {
	in.mu.Lock()
	defer in.mu.Unlock()
	if _, live := in.pages[g]; !live {
		return
	}
	in.frames[id] = g
	g.mu.Lock()
	g.frames = append(g.frames, id)
	g.mu.Unlock()
}

func (in *interceptor) unregister(g *pageGuard) {
	in.mu.Lock()
	defer in.mu.Unlock()
	delete(in.pages, g)
	delete(in.frames, g.frame)
	g.mu.Lock()
	for _, id := range g.frames {
		if in.frames[id] == g {
			delete(in.frames, id)
		}
	}
	g.mu.Unlock()
}

// owner returns the render that owns frame, or nil and a snapshot of every
// render in flight.
func (in *interceptor) owner(frame cdp.FrameID) (*pageGuard, []*pageGuard) {
	in.mu.Lock()
	defer in.mu.Unlock()
	if g := in.frames[frame]; g != nil {
		return g, nil
	}
	all := make([]*pageGuard, 0, len(in.pages))
	for g := range in.pages {
		all = append(all, g)
	}
	return nil, all
}

// handle decides one paused request and answers it.
func (in *interceptor) handle(ev fetch.EventRequestPaused) {
	ctx, cancel := context.WithTimeout(in.ctx, interceptTimeout)
	defer cancel()
	if ev.Request == nil { // never, per the protocol; refuse what cannot be checked
		chromedp.CallBrowser(ctx, fetch.FailRequest, fetch.FailRequestParams{
			RequestID: ev.RequestID, ErrorReason: network.ErrorReasonBlockedByClient,
		})
		return
	}
	rawURL := ev.Request.URL
	owner, all := in.owner(ev.FrameID)
	err := in.decide(ctx, rawURL, owner, all)
	if err != nil {
		mainDoc := owner != nil && ev.FrameID == owner.frame && ev.ResourceType == network.ResourceTypeDocument
		if mainDoc {
			owner.refuse(err)
		}
		chromedp.CallBrowser(ctx, fetch.FailRequest, fetch.FailRequestParams{
			RequestID: ev.RequestID, ErrorReason: network.ErrorReasonBlockedByClient,
		})
		return
	}
	params := fetch.ContinueRequestParams{RequestID: ev.RequestID}
	if owner != nil && len(owner.headers) > 0 && ev.FrameID == owner.frame &&
		ev.ResourceType == network.ResourceTypeDocument && sameHost(rawURL, owner.host) {
		params.Headers = mergeHeaders(ev.Request.Headers, owner.headers)
	}
	chromedp.CallBrowser(ctx, fetch.ContinueRequest, params)
}

// decide returns nil when the request may go out.
func (in *interceptor) decide(ctx context.Context, rawURL string, owner *pageGuard, all []*pageGuard) error {
	if strings.HasPrefix(rawURL, "data:") || strings.HasPrefix(rawURL, "blob:") {
		return nil // served by the browser itself
	}
	if owner != nil {
		return owner.allowed(mergeDone(ctx, owner.ctx), rawURL)
	}
	if len(all) == 0 {
		return errs.New(errs.KindForbidden, "refused: %s: no render in flight claims the request", rawURL)
	}
	for _, g := range all {
		if err := g.allowed(mergeDone(ctx, g.ctx), rawURL); err != nil {
			return err
		}
	}
	return nil
}

// mergeDone returns ctx, also cancelled when other ends.
func mergeDone(ctx, other context.Context) context.Context {
	merged, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(other, cancel)
	context.AfterFunc(merged, func() { stop() })
	return merged
}

// sameHost reports whether rawURL's host[:port] is host, so the caller's
// headers follow same-host redirects of the main document and no others.
func sameHost(rawURL, host string) bool {
	u, err := url.Parse(rawURL)
	return err == nil && strings.EqualFold(u.Host, host)
}

// mergeHeaders returns the request's headers with extra set over them
// (names compared without case); Host is never overridden.
func mergeHeaders(orig network.Headers, extra map[string]string) []*fetch.HeaderEntry {
	out := make([]*fetch.HeaderEntry, 0, len(orig)+len(extra))
	for name, v := range orig {
		if _, over := lookupFold(extra, name); over {
			continue
		}
		out = append(out, &fetch.HeaderEntry{Name: name, Value: fmt.Sprint(v)})
	}
	for name, v := range extra {
		if strings.EqualFold(name, "Host") {
			continue
		}
		out = append(out, &fetch.HeaderEntry{Name: name, Value: v})
	}
	return out
}

func lookupFold(m map[string]string, name string) (string, bool) {
	for k, v := range m {
		if strings.EqualFold(k, name) {
			return v, true
		}
	}
	return "", false
}
