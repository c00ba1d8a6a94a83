package editor

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/fetch"
	"github.com/webinfra/webinfra/fetch/render"
)

// finishReserve is the time a run keeps, past its own timeout, for the
// failure screenshot and the final URL.
const finishReserve = 5 * time.Second

// defaultGuard is the fetch package's guard with default options, for a
// nil Options.CheckTarget.
var defaultGuard = sync.OnceValues(func() (func(context.Context, string) error, error) {
	f, err := fetch.New(nil)
	if err != nil {
		return nil, err
	}
	return f.CheckTarget, nil
})

// Run runs a UI test in a fresh, isolated session of pool: it loads in.URL,
// then runs in.Steps in order until one fails. It returns how the run went
// and the screenshots it took (named as the result names them). A failing
// step is a result with Passed false, not an error; see the package
// documentation for the errors.
func Run(ctx context.Context, pool *render.Pool, in RunInput, opts *Options) (*RunResult, []Screenshot, error) {
	if err := Validate(in); err != nil {
		return nil, nil, err
	}
	if pool == nil {
		return nil, nil, errs.New(errs.KindUnavailable,
			"editor runs unavailable: no render pool; install Debian's chromium (or chromium-headless-shell) or set --browser-url")
	}
	r, err := newRunner(in, opts)
	if err != nil {
		return nil, nil, err
	}
	if err := r.check(ctx, in.URL); err != nil { // before waiting for a browser
		if ctx.Err() != nil {
			return nil, nil, ctx.Err()
		}
		return nil, nil, err
	}
	err = pool.Session(ctx, render.SessionOptions{
		CheckTarget:    r.check,
		Timeout:        time.Until(r.deadline) + finishReserve,
		ViewportWidth:  r.width,
		ViewportHeight: r.height,
	}, r.script)
	if err != nil {
		return nil, nil, err
	}
	r.res.DurationMS = millis(time.Since(r.start))
	return r.res, r.shots, nil
}

// runner is one Run.
type runner struct {
	in            RunInput
	check         func(context.Context, string) error
	maxShot       int
	width, height int
	runTimeout    time.Duration
	start         time.Time
	deadline      time.Time // of the steps; the session lasts finishReserve longer
	lastURL       string    // the last URL navigated to

	res   *RunResult
	shots []Screenshot
}

func newRunner(in RunInput, opts *Options) (*runner, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.CheckTarget == nil {
		guard, err := defaultGuard()
		if err != nil {
			return nil, errs.Wrap(errs.KindInternal, err, "editor: building the default guard")
		}
		o.CheckTarget = guard
	}
	if o.MaxScreenshotBytes <= 0 {
		o.MaxScreenshotBytes = DefaultMaxScreenshotBytes
	}
	r := &runner{
		in: in, check: o.CheckTarget, maxShot: o.MaxScreenshotBytes,
		width: orDefault(in.ViewportWidth, DefaultViewportWidth), height: orDefault(in.ViewportHeight, DefaultViewportHeight),
		runTimeout: DefaultRunTimeout, start: time.Now(),
		res: &RunResult{Steps: []StepResult{}, Screenshots: []string{}},
	}
	if in.TimeoutMS > 0 {
		r.runTimeout = time.Duration(in.TimeoutMS) * time.Millisecond
	}
	r.deadline = r.start.Add(r.runTimeout)
	return r, nil
}

func orDefault(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}

// script is the session: check the selectors, load the start page, run
// the steps. It returns an error only for what is not a test result.
func (r *runner) script(ctx context.Context, s *render.Session) error {
	if err := checkSelectors(ctx, r.in.Steps); err != nil {
		return err
	}
	defer r.finish(ctx)
	nctx, cancel := context.WithDeadline(ctx, r.deadline)
	defer cancel()
	r.lastURL = r.in.URL
	err := s.Navigate(nctx, r.in.URL)
	var refused *render.RefusedError
	switch {
	case err == nil:
	case ctx.Err() != nil:
		return ctx.Err()
	case errors.As(err, &refused):
		return refused.Err // the start page, or a redirect of it, is refused: the guard's error
	default:
		if nctx.Err() != nil {
			err = fmt.Errorf("the start page did not load within the run's %s", r.runTimeout)
		}
		r.res.Error = "loading the start page: " + err.Error()
		if name := r.failureShot(ctx, "failure-start.png"); name != "" {
			r.res.Screenshots = append(r.res.Screenshots, name)
		}
		return nil
	}
	for i, st := range r.in.Steps {
		res, err := r.step(ctx, s, i, st)
		if err != nil {
			return err
		}
		r.res.Steps = append(r.res.Steps, res)
		if res.Screenshot != "" {
			r.res.Screenshots = append(r.res.Screenshots, res.Screenshot)
		}
		if !res.OK {
			r.res.FailedStep = &i
			r.res.Error = fmt.Sprintf("step %d (%s): %s", i, st.Action, res.Error)
			return nil
		}
	}
	r.res.Passed = true
	return nil
}

// step runs one step and, when it fails, takes the failure screenshot. Its
// error is for what ends the run without a result: the session ending or
// the browser going away.
func (r *runner) step(ctx context.Context, s *render.Session, i int, st Step) (StepResult, error) {
	res := StepResult{Index: i, Action: st.Action, Selector: st.Selector}
	start := time.Now()
	timeout, capped := r.stepTimeout(st)
	var err error
	if timeout <= 0 {
		err = fmt.Errorf("the run's %s ran out before this step", r.runTimeout)
	} else {
		sctx, cancel := context.WithTimeout(ctx, timeout)
		do := &stepRun{ctx: sctx, session: s, step: st, timeout: timeout, capped: capped, r: r}
		res.Screenshot, err = do.run(i)
		cancel()
	}
	res.DurationMS = millis(time.Since(start))
	if err == nil {
		res.OK = true
		return res, nil
	}
	if ctx.Err() != nil {
		return res, ctx.Err()
	}
	if lost(ctx) {
		return res, errs.New(errs.KindUnavailable, "render tier unavailable: the browser went away during step %d", i)
	}
	res.Error = err.Error()
	if refused := s.Refusal(); refused != nil && st.Action != ActionNavigate {
		var re *render.RefusedError
		errors.As(refused, &re)
		res.Error += fmt.Sprintf(" (the page tried to load %s, which was refused: %v)", re.URL, re.Err)
	}
	res.Screenshot = r.failureShot(ctx, fmt.Sprintf("failure-step-%d.png", i))
	return res, nil
}

// stepTimeout is the step's own timeout, capped by what is left of the
// run's; capped reports the cap.
func (r *runner) stepTimeout(st Step) (d time.Duration, capped bool) {
	d = DefaultStepTimeout
	if st.TimeoutMS > 0 {
		d = time.Duration(st.TimeoutMS) * time.Millisecond
	}
	if left := time.Until(r.deadline); left < d {
		return left, true
	}
	return d, false
}

// lost reports whether the connection to the session's browser dropped.
func lost(ctx context.Context) bool {
	c := chromedp.FromContext(ctx)
	if c == nil || c.Browser == nil {
		return false
	}
	select {
	case <-c.Browser.LostConnection:
		return true
	default:
		return false
	}
}

// failureShot takes the failure screenshot within the run's reserve and
// returns its name, or "" when it could not be taken. It tries again while
// the tab is between pages (just after a failed load the browser answers
// "Not attached to an active page" until the error page commits).
func (r *runner) failureShot(ctx context.Context, name string) string {
	fctx, cancel := context.WithTimeout(ctx, finishReserve-time.Second)
	defer cancel()
	for {
		png, err := capture(fctx, r.maxShot)
		if err == nil {
			r.shots = append(r.shots, Screenshot{Name: name, PNG: png})
			return name
		}
		var tooLarge *tooLargeError
		if errors.As(err, &tooLarge) {
			return ""
		}
		t := time.NewTimer(pollInterval)
		select {
		case <-fctx.Done():
			t.Stop()
			return ""
		case <-t.C:
		}
	}
}

// finish records the page's final URL.
func (r *runner) finish(ctx context.Context) {
	fctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	loc, err := chromedp.Run(fctx, chromedp.Location())
	if err != nil || loc == "" || strings.HasPrefix(loc, "chrome-error:") || strings.HasPrefix(loc, "about:") {
		loc = r.lastURL // an error page's location says nothing
	}
	r.res.FinalURL = loc
}

// millis is d in milliseconds, to the microsecond.
func millis(d time.Duration) float64 {
	return math.Round(float64(d)/float64(time.Microsecond)) / 1000
}
