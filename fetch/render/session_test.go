package render

import (
	"bytes"
	"context"
	"errors"
	"image/png"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"

	"github.com/webinfra/webinfra/errs"
)

// evalString evaluates a JavaScript expression in a session's tab.
func evalString(ctx context.Context, expr string) (string, error) {
	return chromedp.Run(ctx, chromedp.Evaluate[string](expr))
}

// browserContexts lists the browser contexts other than the default one.
func browserContexts(t *testing.T, b *browser) []cdp.BrowserContextID {
	t.Helper()
	res, err := chromedp.CallBrowser(b.ctx, target.GetBrowserContexts, cdp.Empty{})
	if err != nil {
		t.Fatal(err)
	}
	return res.BrowserContextIDs
}

// assertNoLeak checks that the pool's browser has no tab but its first
// blank one and no browser context but the default one.
func assertNoLeak(t *testing.T, p *Pool) {
	t.Helper()
	p.mu.Lock()
	cur := p.cur
	p.mu.Unlock()
	if cur == nil {
		t.Fatal("no browser")
	}
	if pages := pageTargets(t, cur); len(pages) != 1 {
		t.Errorf("tabs left open: %v", pages)
	}
	if ids := browserContexts(t, cur); len(ids) != 0 {
		t.Errorf("browser contexts left: %v", ids)
	}
}

// TestSessionIsolationAndCleanup: a cookie and localStorage set in one
// session are absent from the next; every session, a panicking one
// included, leaves no tab and no browser context behind.
func TestSessionIsolationAndCleanup(t *testing.T) {
	t.Parallel()
	needBrowser(t)
	p, err := New(&Options{Contexts: 2, IdleTime: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	s := newSite(t, map[string]http.HandlerFunc{
		"/set": func(w http.ResponseWriter, r *http.Request) {
			http.SetCookie(w, &http.Cookie{Name: "a", Value: "1", Path: "/"})
			html(`<!DOCTYPE html><script>localStorage.setItem("k", "v")</script><p>set</p>`)(w, r)
		},
		"/read": html(`<!DOCTYPE html><p>read</p>`),
	})
	const state = `document.cookie + "|" + localStorage.getItem("k")`
	sess := func(path, want string) {
		t.Helper()
		err := p.Session(t.Context(), SessionOptions{Timeout: 30 * time.Second}, func(ctx context.Context, sess *Session) error {
			if err := sess.Navigate(ctx, s.URL+path); err != nil {
				return err
			}
			got, err := evalString(ctx, state)
			if err == nil && got != want {
				t.Errorf("%s: state %q, want %q", path, got, want)
			}
			return err
		})
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
	}
	sess("/set", "a=1|v")
	sess("/read", "|null")
	if c := s.requestHeader("/read").Get("Cookie"); c != "" {
		t.Errorf("the second session sent Cookie %q", c)
	}
	assertNoLeak(t, p)

	func() {
		defer func() {
			if r := recover(); r != "boom" {
				t.Errorf("recovered %v, want the script's panic", r)
			}
		}()
		p.Session(t.Context(), SessionOptions{}, func(ctx context.Context, sess *Session) error {
			if err := sess.Navigate(ctx, s.URL+"/read"); err != nil {
				return err
			}
			panic("boom")
		})
	}()
	assertNoLeak(t, p)
	if n := len(p.slots); n != 0 {
		t.Errorf("%d slots still taken", n)
	}
}

// TestSessionGuard: Navigate refuses a refused URL and a redirect to one
// with CheckTarget's error; a navigation the page starts itself is refused
// too; the refused host gets no request.
func TestSessionGuard(t *testing.T) {
	t.Parallel()
	pool := sharedPool(t)
	other := newSite(t, map[string]http.HandlerFunc{"/": html("other"), "/pixel.png": html("x")})
	s := newSite(t, map[string]http.HandlerFunc{
		"/":         html(`<!DOCTYPE html><p>home</p><img src="` + other.URL + `/pixel.png">`),
		"/redirect": func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, other.URL+"/", http.StatusFound) },
	})
	guard := newRefuser(hostOf(t, other.URL))
	err := pool.Session(t.Context(), SessionOptions{CheckTarget: guard.check, Timeout: 30 * time.Second}, func(ctx context.Context, sess *Session) error {
		for _, u := range []string{other.URL + "/", s.URL + "/redirect"} {
			err := sess.Navigate(ctx, u)
			var refused *RefusedError
			if !errors.As(err, &refused) || errs.KindOf(err) != errs.KindForbidden || !strings.Contains(err.Error(), "test guard") {
				t.Errorf("Navigate(%s) = %v, want the guard's refusal", u, err)
			}
		}
		if err := sess.Navigate(ctx, s.URL+"/"); err != nil {
			return err
		}
		if refused := sess.Refusal(); refused != nil {
			t.Errorf("Refusal after an allowed load: %v", refused)
		}
		_, err := chromedp.Run(ctx, chromedp.WaitEvent(page.LoadEventFired, nil,
			chromedp.Evaluate[any](`location.href = `+"`"+other.URL+"/`")))
		if err != nil {
			return err
		}
		if refused := sess.Refusal(); refused == nil || !strings.Contains(refused.Error(), "test guard") {
			t.Errorf("Refusal after the page navigated to a refused host: %v", refused)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n := other.total(); n != 0 {
		t.Errorf("the refused host got %d requests", n)
	}
}

// TestSessionViewportAndDialogs: the viewport is the one asked for (the
// screenshot too), dialogs do not block the page, the script's context
// has the session's deadline and the script's error comes back as it is.
func TestSessionViewportAndDialogs(t *testing.T) {
	t.Parallel()
	pool := sharedPool(t)
	s := newSite(t, map[string]http.HandlerFunc{
		"/": html(`<!DOCTYPE html><body><script>alert("hi"); window.ok = confirm("sure?");</script><p>after dialogs</p></body>`),
	})
	errScript := errors.New("the script's own error")
	err := pool.Session(t.Context(), SessionOptions{Timeout: 30 * time.Second, ViewportWidth: 800, ViewportHeight: 600}, func(ctx context.Context, sess *Session) error {
		if d, ok := ctx.Deadline(); !ok || d.After(time.Now().Add(30*time.Second)) {
			t.Errorf("script deadline %v (%v), want within the session's 30s", d, ok)
		}
		if err := sess.Navigate(ctx, s.URL+"/"); err != nil {
			return err
		}
		got, err := evalString(ctx, `innerWidth + "x" + innerHeight + " " + window.ok`)
		if err != nil {
			return err
		}
		if got != "800x600 true" {
			t.Errorf("viewport and confirm: %q, want 800x600 true", got)
		}
		shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		if err != nil {
			return err
		}
		img, err := png.Decode(bytes.NewReader(shot))
		if err != nil {
			return err
		}
		if b := img.Bounds(); b.Dx() != 800 || b.Dy() != 600 {
			t.Errorf("screenshot %dx%d, want 800x600", b.Dx(), b.Dy())
		}
		return errScript
	})
	if !errors.Is(err, errScript) {
		t.Errorf("Session = %v, want the script's error", err)
	}
	err = pool.Session(t.Context(), SessionOptions{ViewportWidth: MaxViewport + 1}, func(context.Context, *Session) error {
		t.Error("the script ran with an invalid viewport")
		return nil
	})
	if errs.FieldOf(err) != "viewport_width" {
		t.Errorf("invalid viewport: %v", err)
	}
}

// TestSessionCloseAborts: Close ends a session in flight with
// errs.KindUnavailable.
func TestSessionCloseAborts(t *testing.T) {
	t.Parallel()
	needBrowser(t)
	p, err := New(&Options{Contexts: 1})
	if err != nil {
		t.Fatal(err)
	}
	running := make(chan struct{})
	errc := make(chan error, 1)
	go func() {
		errc <- p.Session(t.Context(), SessionOptions{Timeout: time.Minute}, func(ctx context.Context, _ *Session) error {
			close(running)
			<-ctx.Done()
			return ctx.Err()
		})
	}()
	<-running
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if err := <-errc; errs.KindOf(err) != errs.KindUnavailable || !strings.Contains(err.Error(), "closed") {
		t.Errorf("session during Close: %v", err)
	}
	if left := processesUsing(p.baseDir); len(left) > 0 {
		t.Errorf("processes left after Close: %v", left)
	}
}
