package render

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
)

// TestNetWatchWaitIdle runs the network-idle wait on fake time: a page idle
// at its load event is taken SettleTime after it; a request in flight at
// load, or one started while the page settles, makes it wait IdleTime of
// quiet after that request ends, but the browser's favicon download does
// not; a page that never loads waits until the
// context ends.
func TestNetWatchWaitIdle(t *testing.T) {
	t.Parallel()
	const quiet, settle = 500 * time.Millisecond, 50 * time.Millisecond
	const frame = cdp.FrameID("main")
	start := func(id string, typ network.ResourceType) any {
		return &network.EventRequestWillBeSent{
			RequestID: network.RequestID(id), LoaderID: cdp.LoaderID("loader"), Type: typ,
			FrameID: frame, Request: &network.Request{URL: "http://example.test/" + id},
		}
	}
	icon := &network.EventRequestWillBeSent{
		RequestID: "icon", LoaderID: cdp.LoaderID("loader"), Type: network.ResourceTypeOther, FrameID: frame,
		Request: &network.Request{URL: "http://example.test/favicon.ico"}, Initiator: &network.Initiator{Type: network.InitiatorTypeOther},
	}
	end := func(id string) any { return &network.EventLoadingFinished{RequestID: network.RequestID(id)} }
	load := &page.EventLoadEventFired{}
	type step struct {
		at time.Duration // after the wait starts
		ev any
	}
	tests := []struct {
		name  string
		steps []step
		want  time.Duration // when waitIdle returns; 0: it never does
	}{
		{"idle at load", []step{{0, start("doc", network.ResourceTypeDocument)}, {10 * time.Millisecond, end("doc")},
			{20 * time.Millisecond, load}}, 20*time.Millisecond + settle},
		{"in flight at load", []step{{0, start("doc", network.ResourceTypeDocument)}, {10 * time.Millisecond, end("doc")},
			{15 * time.Millisecond, start("img", network.ResourceTypeImage)}, {20 * time.Millisecond, load},
			{100 * time.Millisecond, end("img")}}, 100*time.Millisecond + quiet},
		{"started while settling", []step{{0, start("doc", network.ResourceTypeDocument)}, {10 * time.Millisecond, end("doc")},
			{20 * time.Millisecond, load}, {40 * time.Millisecond, start("xhr", network.ResourceTypeXHR)},
			{60 * time.Millisecond, end("xhr")}}, 60*time.Millisecond + quiet},
		{"favicon while settling", []step{{0, start("doc", network.ResourceTypeDocument)}, {10 * time.Millisecond, end("doc")},
			{20 * time.Millisecond, load}, {30 * time.Millisecond, icon}, {40 * time.Millisecond, end("icon")}}, 20*time.Millisecond + settle},
		{"never loads", []step{{0, start("doc", network.ResourceTypeDocument)}, {10 * time.Millisecond, end("doc")}}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				w := newNetWatch(frame, func(cdp.FrameID) {})
				ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
				defer cancel()
				begin := time.Now()
				go func() {
					for _, s := range tt.steps {
						time.Sleep(s.at - time.Since(begin))
						w.event(s.ev)
					}
				}()
				err := w.waitIdle(ctx, quiet, settle)
				took := time.Since(begin)
				switch {
				case tt.want == 0 && err == nil:
					t.Errorf("returned after %s, want it to wait until the context ends", took)
				case tt.want != 0 && (err != nil || took != tt.want):
					t.Errorf("returned after %s (%v), want %s", took, err, tt.want)
				}
			})
		})
	}
}
