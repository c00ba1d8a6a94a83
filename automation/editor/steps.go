package editor

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/fetch/render"
)

// stepRun is one step being run.
type stepRun struct {
	ctx     context.Context // the step's: ends with its timeout
	session *render.Session
	step    Step
	timeout time.Duration
	capped  bool // timeout is what was left of the run's
	r       *runner
}

// run does the step; it returns the name of the screenshot a screenshot
// step took, and why the step failed.
func (sr *stepRun) run(i int) (string, error) {
	st := sr.step
	switch st.Action {
	case ActionNavigate:
		sr.r.lastURL = st.URL
		err := sr.session.Navigate(sr.ctx, st.URL)
		if err != nil && sr.ctx.Err() != nil {
			return "", fmt.Errorf("%s did not load %s", st.URL, sr.within())
		}
		return "", err
	case ActionClick:
		return "", sr.click()
	case ActionType:
		if err := sr.focus(); err != nil {
			return "", err
		}
		_, err := chromedp.Call(sr.ctx, input.InsertText, input.InsertTextParams{Text: st.Text})
		return "", err
	case ActionPress:
		return "", sr.press()
	case ActionWaitFor:
		_, err := sr.waitFor(func(p probe) bool { return p.Visible }, "%q did not become visible")
		return "", err
	case ActionAssertVisible:
		_, err := sr.waitFor(func(p probe) bool { return p.Visible }, "expected %q to be visible")
		return "", err
	case ActionAssertText:
		return "", sr.assertText()
	case ActionScreenshot:
		png, err := capture(sr.ctx, sr.r.maxShot)
		if err != nil {
			return "", fmt.Errorf("taking the screenshot: %w", err)
		}
		name := fmt.Sprintf("step-%d.png", i)
		sr.r.shots = append(sr.r.shots, Screenshot{Name: name, PNG: png})
		return name, nil
	}
	return "", fmt.Errorf("unknown action %q", st.Action)
}

// within says how long the step waited: "within 10s", or "within 2.5s
// (what was left of the run's 1m0s)".
func (sr *stepRun) within() string {
	if sr.capped {
		return fmt.Sprintf("within %s (what was left of the run's %s)", sr.timeout.Round(time.Millisecond), sr.r.runTimeout)
	}
	return fmt.Sprintf("within %s", sr.timeout.Round(time.Millisecond))
}

// waitFor polls the step's element until ok holds; when the step's time
// runs out it fails with what (a format of the selector) and what the page
// showed instead.
func (sr *stepRun) waitFor(ok func(probe) bool, what string) (probe, error) {
	p, err := pollProbe(sr.ctx, sr.step.Selector, nil, ok)
	if err == nil {
		return p, nil
	}
	if sr.ctx.Err() == nil {
		return p, err
	}
	msg := fmt.Sprintf(what, sr.step.Selector) + " " + sr.within()
	switch {
	case !p.Found:
		return p, errors.New(msg + ": no element matches it")
	case !p.Visible:
		return p, errors.New(msg + ": " + countMatches(p.Count) + ", the first is not visible")
	}
	return p, errors.New(msg)
}

func countMatches(n int) string {
	if n == 1 {
		return "1 element matches"
	}
	return fmt.Sprintf("%d elements match", n)
}

// click clicks the centre of the visible element, scrolled into view.
func (sr *stepRun) click() error {
	if _, err := sr.waitFor(func(p probe) bool { return p.Visible }, "no visible element to click: %q"); err != nil {
		return err
	}
	pt, err := chromedp.Run(sr.ctx, chromedp.Evaluate[*point](call(clickPointJS, sr.step.Selector)))
	if err != nil {
		return fmt.Errorf("locating %q: %w", sr.step.Selector, err)
	}
	if pt == nil {
		return fmt.Errorf("%q left the page before the click", sr.step.Selector)
	}
	return chromedp.Do(sr.ctx, chromedp.MouseClickXY(pt.X, pt.Y))
}

// focus waits for the element and gives it the keyboard focus.
func (sr *stepRun) focus() error {
	if _, err := sr.waitFor(func(p probe) bool { return p.Found }, "nothing to focus: %q"); err != nil {
		return err
	}
	msg, err := chromedp.Run(sr.ctx, chromedp.Evaluate[string](call(focusJS, sr.step.Selector)))
	if err != nil {
		return fmt.Errorf("focusing %q: %w", sr.step.Selector, err)
	}
	if msg != "" {
		return fmt.Errorf("%q %s", sr.step.Selector, msg)
	}
	return nil
}

// press sends the key, to the step's element when it has one.
func (sr *stepRun) press() error {
	kp, err := parseKey(sr.step.Key)
	if err != nil {
		return err // Validate refuses it first
	}
	if sr.step.Selector != "" {
		if err := sr.focus(); err != nil {
			return err
		}
	}
	for _, ev := range kp.events() {
		if _, err := chromedp.Call(sr.ctx, input.DispatchKeyEvent, ev); err != nil {
			return fmt.Errorf("pressing %s: %w", sr.step.Key, err)
		}
	}
	return nil
}

// assertText waits for the element's (or the body's) text to contain the
// step's text.
func (sr *stepRun) assertText() error {
	needle := sr.step.Text
	p, err := pollProbe(sr.ctx, sr.step.Selector, &needle, func(p probe) bool { return p.Contains })
	if err == nil {
		return nil
	}
	if sr.ctx.Err() == nil {
		return err
	}
	what := "the page's text"
	if sr.step.Selector != "" {
		what = fmt.Sprintf("the text of %q", sr.step.Selector)
	}
	if sr.step.Selector != "" && !p.Found {
		return fmt.Errorf("expected %s to contain %q %s: no element matches it", what, needle, sr.within())
	}
	return fmt.Errorf("expected %s to contain %q %s; it is %q", what, needle, sr.within(), p.Text)
}

// probe is what probeJS reports about an element.
type probe struct {
	Found    bool   `json:"found"`
	Count    int    `json:"count"`
	Visible  bool   `json:"visible"`
	Contains bool   `json:"contains"`
	Text     string `json:"text"`
}

type point struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

const pollInterval = 50 * time.Millisecond

// pollProbe evaluates probeJS until ok holds or ctx ends, and returns the
// last probe. Evaluation errors (a page navigating away) count as not yet.
func pollProbe(ctx context.Context, sel string, needle *string, ok func(probe) bool) (probe, error) {
	expr := call(probeJS, sel, needle)
	var last probe
	for {
		p, err := chromedp.Run(ctx, chromedp.Evaluate[probe](expr))
		if err == nil {
			last = p
			if ok(p) {
				return p, nil
			}
		}
		t := time.NewTimer(pollInterval)
		select {
		case <-ctx.Done():
			t.Stop()
			return last, ctx.Err()
		case <-t.C:
		}
	}
}

// call is a JavaScript expression that calls fn with args, JSON-encoded.
func call(fn string, args ...any) string {
	enc, _ := json.Marshal(args)
	return fmt.Sprintf("(%s)(...%s)", fn, enc)
}

// checkSelectors checks the CSS syntax of every step's selector in the
// browser, before anything loads: errs.KindInvalid naming the step.
func checkSelectors(ctx context.Context, steps []Step) error {
	sels := make([]string, len(steps))
	for i, st := range steps {
		sels[i] = st.Selector
	}
	msgs, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](call(selectorErrorsJS, sels)))
	if err != nil {
		return fmt.Errorf("checking the selectors: %w", err)
	}
	for i, msg := range msgs {
		if msg != "" {
			return errs.Invalid(fmt.Sprintf("steps[%d].selector", i), "is not a valid CSS selector: %s", msg)
		}
	}
	return nil
}

// capture takes a PNG of the viewport of at most limit bytes, at a half or
// a quarter of its size when the full one is larger.
func capture(ctx context.Context, limit int) ([]byte, error) {
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		return nil, err
	}
	for scale := 0.5; len(png) > limit && scale >= 0.25; scale /= 2 {
		if png, err = captureScaled(ctx, scale); err != nil {
			return nil, err
		}
	}
	if len(png) > limit {
		return nil, &tooLargeError{limit: limit}
	}
	return png, nil
}

// tooLargeError is a screenshot over the size limit even when scaled down.
type tooLargeError struct{ limit int }

func (e *tooLargeError) Error() string {
	return fmt.Sprintf("the PNG is over %d bytes even at a quarter of the viewport's size", e.limit)
}

// captureScaled takes a PNG of the viewport at scale.
func captureScaled(ctx context.Context, scale float64) ([]byte, error) {
	m, err := chromedp.Call(ctx, page.GetLayoutMetrics, cdp.Empty{})
	if err != nil {
		return nil, err
	}
	vv := m.CSSVisualViewport
	if vv == nil {
		return nil, errors.New("the browser reported no viewport")
	}
	fromSurface := true
	res, err := chromedp.Call(ctx, page.CaptureScreenshot, page.CaptureScreenshotParams{
		Format:      page.CaptureScreenshotFormatPng,
		FromSurface: &fromSurface,
		Clip:        &page.Viewport{X: vv.PageX, Y: vv.PageY, Width: vv.ClientWidth, Height: vv.ClientHeight, Scale: scale},
	})
	return res.Data, err
}
