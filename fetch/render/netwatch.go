package render

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/target"
)

// netWatch follows one tab's network and page events, in the order the
// browser sends them (it is a chromedp.Listen func): the requests in
// flight, for the network-idle wait; the main document's request and
// response, for the result's status, headers and final URL; and the
// subframes, which it hands to onFrame.
type netWatch struct {
	frame   cdp.FrameID // the main frame
	onFrame func(cdp.FrameID)
	now     func() time.Time

	mu       sync.Mutex
	inflight map[network.RequestID]struct{}
	last     time.Time     // of the last request start or end
	changed  chan struct{} // a token after each change, for waitIdle
	mainReq  network.RequestID
	mainURL  string // the main document request's latest URL (follows redirects)
	resp     *network.Response
	loaded   bool // the load event of the main document fired, or it failed
	// idleAtLoad: nothing was in flight when the main document loaded and
	// no request has started since.
	idleAtLoad bool
	icons      map[network.RequestID]bool // the browser's favicon downloads
}

func newNetWatch(frame cdp.FrameID, onFrame func(cdp.FrameID)) *netWatch {
	return &netWatch{
		frame: frame, onFrame: onFrame, now: time.Now,
		inflight: make(map[network.RequestID]struct{}),
		icons:    make(map[network.RequestID]bool),
		changed:  make(chan struct{}, 1),
		last:     time.Now(),
	}
}

// event is the chromedp.Listen func: it runs in the tab's event loop, so it
// only records.
func (w *netWatch) event(ev any) {
	switch ev := ev.(type) {
	case *page.EventFrameAttached:
		w.onFrame(ev.FrameID)
		return
	case *target.EventAttachedToTarget:
		if ev.TargetInfo != nil && ev.TargetInfo.Type == "iframe" {
			w.onFrame(cdp.FrameID(ev.TargetInfo.TargetID))
		}
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	switch ev := ev.(type) {
	case *network.EventRequestWillBeSent:
		if w.isIcon(ev) {
			w.icons[ev.RequestID] = true
			return
		}
		w.idleAtLoad = false
		if ev.LoaderID != "" {
			// A request with no loader is a worker's script, whose end
			// is reported to the worker's target, never to this one.
			w.inflight[ev.RequestID] = struct{}{}
		}
		if ev.Type == network.ResourceTypeDocument && ev.FrameID == w.frame {
			if ev.RequestID != w.mainReq { // a new navigation, not a redirect hop
				w.resp, w.loaded = nil, false
			}
			w.mainReq = ev.RequestID
			w.mainURL = ev.Request.URL
		}
	case *network.EventResponseReceived:
		if ev.RequestID == w.mainReq && ev.Type == network.ResourceTypeDocument {
			w.resp = ev.Response
		}
		return // not a start or an end
	case *network.EventLoadingFinished:
		if w.icons[ev.RequestID] {
			return
		}
		delete(w.inflight, ev.RequestID)
	case *network.EventLoadingFailed:
		if w.icons[ev.RequestID] {
			return
		}
		delete(w.inflight, ev.RequestID)
		if ev.RequestID == w.mainReq {
			w.loaded = true // nothing more to wait for from it
			w.idleAtLoad = len(w.inflight) == 0
		}
	case *page.EventLoadEventFired:
		if w.mainReq != "" {
			w.loaded = true
			w.idleAtLoad = len(w.inflight) == 0
		}
	default:
		return
	}
	w.last = w.now()
	select {
	case w.changed <- struct{}{}:
	default:
	}
}

// isIcon reports whether ev is the browser's download of the page's
// favicon: a request of the main frame, of no resource type and no
// initiator, after the load event. Nothing in the DOM waits for it, so it
// does not count as network activity (it would restart the quiet period
// of every page). The caller holds w.mu.
func (w *netWatch) isIcon(ev *network.EventRequestWillBeSent) bool {
	return w.loaded && ev.FrameID == w.frame && ev.Type == network.ResourceTypeOther &&
		ev.Initiator != nil && ev.Initiator.Type == network.InitiatorTypeOther
}

// waitIdle returns when the main document has loaded and no request has
// been in flight for quiet, or with ctx's error when ctx ends first. A page
// that was idle when it loaded, with no request since, only waits settle
// after its load: most pages are, and a full quiet period would be most of
// their render.
func (w *netWatch) waitIdle(ctx context.Context, quiet, settle time.Duration) error {
	for {
		w.mu.Lock()
		busy := len(w.inflight) > 0 || !w.loaded
		still := w.now().Sub(w.last)
		need := quiet
		if w.idleAtLoad {
			need = settle
		}
		w.mu.Unlock()
		if !busy && still >= need {
			return nil
		}
		var timer *time.Timer
		var fire <-chan time.Time
		if !busy {
			timer = time.NewTimer(need - still)
			fire = timer.C
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-w.changed:
		case <-fire:
		}
		if timer != nil {
			timer.Stop()
		}
	}
}

// navigation identifies the main frame's latest navigation (its document
// request), so that a caller can tell whether another one has begun since.
func (w *netWatch) navigation() network.RequestID {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.mainReq
}

// mainDocument reports the main document's final URL, status and header
// (zero when no response arrived).
func (w *netWatch) mainDocument() (finalURL string, status int, header http.Header) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.resp == nil {
		return w.mainURL, 0, http.Header{}
	}
	return w.resp.URL, int(w.resp.Status), toHeader(w.resp.Headers)
}

// toHeader converts CDP headers, whose repeated values are joined with
// newlines, to an http.Header.
func toHeader(h network.Headers) http.Header {
	out := make(http.Header, len(h))
	for name, v := range h {
		s, _ := v.(string)
		for line := range strings.SplitSeq(s, "\n") {
			out.Add(name, line)
		}
	}
	return out
}
