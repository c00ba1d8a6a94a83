package editor

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/fetch/render"
)

// run runs in and fails the test on an error.
func run(t *testing.T, pool *render.Pool, in RunInput, opts *Options) (*RunResult, []Screenshot) {
	t.Helper()
	res, shots, err := Run(t.Context(), pool, in, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("run took %.0f ms (passed %v)", res.DurationMS, res.Passed)
	for _, s := range shots {
		if !ValidScreenshotName(s.Name) {
			t.Errorf("screenshot name %q is not valid", s.Name)
		}
	}
	return res, shots
}

func TestRunPasses(t *testing.T) {
	t.Parallel()
	pool := sharedPool(t)
	s := newSite(t, map[string]string{"/": editorPage, "/second": `<!DOCTYPE html><h1>second page</h1>`})
	steps := []Step{
		{Action: "wait_for", Selector: "#code"},
		{Action: "type", Selector: "#code", Text: "print(1)"},
		{Action: "press", Selector: "#code", Key: "Enter"},
		{Action: "assert_text", Selector: "#log", Text: "enter pressed"},
		{Action: "type", Selector: "#code", Text: "x = 2"},
		{Action: "press", Key: "Control+Enter"}, // the textarea still has the focus
		{Action: "assert_text", Selector: "#log", Text: "ctrl-enter: print(1) x = 2"},
		{Action: "click", Selector: "#run"},
		{Action: "assert_text", Selector: "#output", Text: "ran: print(1)\nx = 2"},
		{Action: "type", Selector: "#rich", Text: "hello rich text"},
		{Action: "assert_text", Selector: "#rich", Text: "hello rich"},
		{Action: "assert_visible", Selector: "#run"},
		{Action: "click", Selector: "#far"}, // below the fold: scrolled into view
		{Action: "assert_text", Text: "far clicked"},
		{Action: "screenshot"},
		{Action: "navigate", URL: s.URL + "/second"},
		{Action: "assert_text", Text: "second page"},
	}
	res, shots := run(t, pool, RunInput{URL: s.URL + "/", Steps: steps, ViewportWidth: 1024, ViewportHeight: 700}, openOpts())
	if !res.Passed || res.FailedStep != nil || res.Error != "" {
		t.Fatalf("run failed: %+v", res)
	}
	if len(res.Steps) != len(steps) {
		t.Fatalf("%d step results, want %d", len(res.Steps), len(steps))
	}
	for i, st := range res.Steps {
		if !st.OK || st.Index != i || st.Action != steps[i].Action || st.Selector != steps[i].Selector || st.DurationMS <= 0 {
			t.Errorf("step %d: %+v", i, st)
		}
	}
	if !slices.Equal(res.Screenshots, []string{"step-14.png"}) || res.Steps[14].Screenshot != "step-14.png" || len(shots) != 1 {
		t.Fatalf("screenshots %v, %d taken", res.Screenshots, len(shots))
	}
	if w, h := decodePNG(t, shots[0].PNG); w != 1024 || h != 700 {
		t.Errorf("screenshot %dx%d, want the 1024x700 viewport", w, h)
	}
	if res.FinalURL != s.URL+"/second" {
		t.Errorf("FinalURL %q", res.FinalURL)
	}
}

func TestRunFailingAssertText(t *testing.T) {
	t.Parallel()
	pool := sharedPool(t)
	s := newSite(t, map[string]string{"/": editorPage})
	res, shots := run(t, pool, RunInput{URL: s.URL + "/", ViewportWidth: 800, ViewportHeight: 600, Steps: []Step{
		{Action: "type", Selector: "#code", Text: "1 + 1"},
		{Action: "click", Selector: "#run"},
		{Action: "assert_text", Selector: "#output", Text: "ran: 3", TimeoutMS: 1500},
		{Action: "screenshot"}, // never runs
	}}, openOpts())
	if res.Passed || res.FailedStep == nil || *res.FailedStep != 2 || len(res.Steps) != 3 {
		t.Fatalf("want step 2 to fail and the run to stop: %+v", res)
	}
	st := res.Steps[2]
	for _, want := range []string{`expected the text of "#output" to contain "ran: 3" within 1.5s`, `it is "ran: 1 + 1"`} {
		if !strings.Contains(st.Error, want) {
			t.Errorf("step error %q lacks %q", st.Error, want)
		}
	}
	if st.OK || st.Screenshot != "failure-step-2.png" || !strings.Contains(res.Error, st.Error) {
		t.Errorf("step %+v, run error %q", st, res.Error)
	}
	if !slices.Equal(res.Screenshots, []string{"failure-step-2.png"}) || len(shots) != 1 {
		t.Fatalf("screenshots %v, %d taken", res.Screenshots, len(shots))
	}
	if w, h := decodePNG(t, shotByName(shots, "failure-step-2.png")); w != 800 || h != 600 {
		t.Errorf("failure screenshot %dx%d, want 800x600", w, h)
	}
	if st.DurationMS < 1500 {
		t.Errorf("the assertion gave up after %.0f ms, before its 1.5s", st.DurationMS)
	}
}

func TestRunWaitForTimesOut(t *testing.T) {
	t.Parallel()
	pool := sharedPool(t)
	s := newSite(t, map[string]string{"/": editorPage})
	cases := []struct {
		name    string
		in      RunInput
		wantErr []string
	}{
		{"absent", RunInput{Steps: []Step{{Action: "wait_for", Selector: "#never", TimeoutMS: 1000}}},
			[]string{`"#never" did not become visible within 1s: no element matches it`}},
		{"hidden", RunInput{Steps: []Step{{Action: "assert_visible", Selector: "#hidden", TimeoutMS: 500}}},
			[]string{`expected "#hidden" to be visible within 500ms: 1 element matches, the first is not visible`}},
		{"click on a hidden element", RunInput{Steps: []Step{{Action: "click", Selector: "#hidden", TimeoutMS: 500}}},
			[]string{`no visible element to click: "#hidden" within 500ms`}},
		{"the run's time runs out", RunInput{TimeoutMS: 3000, Steps: []Step{{Action: "wait_for", Selector: "#never"}}},
			[]string{"run's 3s"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.in.URL = s.URL + "/"
			start := time.Now()
			res, shots := run(t, pool, tc.in, openOpts())
			if res.Passed || res.FailedStep == nil || *res.FailedStep != 0 {
				t.Fatalf("want step 0 to fail: %+v", res)
			}
			for _, want := range tc.wantErr {
				if !strings.Contains(res.Steps[0].Error, want) {
					t.Errorf("error %q lacks %q", res.Steps[0].Error, want)
				}
			}
			if shotByName(shots, "failure-step-0.png") == nil {
				t.Error("no failure screenshot")
			}
			if tc.in.TimeoutMS > 0 && time.Since(start) > time.Duration(tc.in.TimeoutMS)*time.Millisecond+finishReserve {
				t.Errorf("the run took %s, past its timeout and reserve", time.Since(start))
			}
		})
	}
}

func TestRunGuard(t *testing.T) {
	t.Parallel()
	pool := sharedPool(t)
	other := newSite(t, map[string]string{"/": "<p>internal</p>"})
	s := newSite(t, map[string]string{
		"/":     `<!DOCTYPE html><p>start</p><a id="away" href="` + other.URL + `/">away</a>`,
		"/jump": "redirect:" + other.URL + "/",
	})

	t.Run("start URL refused by the default guard", func(t *testing.T) {
		_, _, err := Run(t.Context(), pool, RunInput{URL: s.URL + "/", Steps: []Step{{Action: "screenshot"}}}, nil)
		if errs.KindOf(err) != errs.KindForbidden || !strings.Contains(err.Error(), "loopback") {
			t.Errorf("Run = %v, want the guard's loopback refusal", err)
		}
	})
	t.Run("navigate step refused", func(t *testing.T) {
		res, shots := run(t, pool, RunInput{URL: s.URL + "/", Steps: []Step{
			{Action: "navigate", URL: other.URL + "/"},
		}}, refusing(other.host()))
		if res.Passed || res.FailedStep == nil || !strings.Contains(res.Steps[0].Error, "refused: "+other.host()+" is not allowed") {
			t.Fatalf("want the navigate step refused: %+v", res)
		}
		if shotByName(shots, "failure-step-0.png") == nil {
			t.Error("no failure screenshot")
		}
		if res.FinalURL != s.URL+"/" {
			t.Errorf("FinalURL %q, want the page the run stayed on", res.FinalURL)
		}
	})
	t.Run("a link to a refused host", func(t *testing.T) {
		res, _ := run(t, pool, RunInput{URL: s.URL + "/", Steps: []Step{
			{Action: "click", Selector: "#away"},
			{Action: "assert_text", Text: "internal", TimeoutMS: 1000},
		}}, refusing(other.host()))
		if res.Passed || res.FailedStep == nil || *res.FailedStep != 1 ||
			!strings.Contains(res.Steps[1].Error, "which was refused: refused: "+other.host()) {
			t.Fatalf("want the assertion to fail naming the refusal: %+v", res)
		}
	})
	t.Run("start page redirected to a refused host", func(t *testing.T) {
		_, _, err := Run(t.Context(), pool, RunInput{URL: s.URL + "/jump", Steps: []Step{{Action: "screenshot"}}}, refusing(other.host()))
		if errs.KindOf(err) != errs.KindForbidden || !strings.Contains(err.Error(), "test guard") {
			t.Errorf("Run = %v, want the guard's refusal of the redirect", err)
		}
	})
	if n := other.hits.Load(); n != 0 {
		t.Errorf("the refused host got %d requests", n)
	}
	if n := s.hits.Load(); n == 0 {
		t.Error("the allowed site got no request")
	}
}

func TestRunIsolation(t *testing.T) {
	t.Parallel()
	pool := sharedPool(t)
	const show = `<p id="state"></p><script>document.getElementById("state").textContent =
		"cookie=" + document.cookie + " storage=" + localStorage.getItem("k");</script>`
	s := newSite(t, map[string]string{
		"/set":  `<!DOCTYPE html><script>localStorage.setItem("k", "v")</script>` + show,
		"/read": `<!DOCTYPE html>` + show,
	})
	res, _ := run(t, pool, RunInput{URL: s.URL + "/set", Steps: []Step{
		{Action: "assert_text", Selector: "#state", Text: "cookie=session=s3cret storage=v"},
	}}, openOpts())
	if !res.Passed {
		t.Fatalf("the first run did not set its state: %+v", res)
	}
	res, _ = run(t, pool, RunInput{URL: s.URL + "/read", Steps: []Step{
		{Action: "assert_text", Selector: "#state", Text: "cookie= storage=null", TimeoutMS: 2000},
	}}, openOpts())
	if !res.Passed {
		t.Errorf("the second run saw the first's state: %+v", res)
	}
	if c := s.cookie("/read"); c != "" {
		t.Errorf("the second run sent Cookie %q", c)
	}
}

func TestRunInvalid(t *testing.T) {
	t.Parallel()
	_, _, err := Run(t.Context(), nil, RunInput{URL: "https://example.com/", Steps: []Step{{Action: "screenshot"}}}, nil)
	if errs.KindOf(err) != errs.KindUnavailable || !strings.Contains(err.Error(), "chromium") {
		t.Errorf("no pool: %v", err)
	}
	_, _, err = Run(t.Context(), nil, RunInput{URL: "https://example.com/"}, nil)
	if errs.FieldOf(err) != "steps" {
		t.Errorf("no steps: %v", err)
	}
	pool := sharedPool(t)
	s := newSite(t, map[string]string{"/": editorPage})
	_, _, err = Run(t.Context(), pool, RunInput{URL: s.URL + "/", Steps: []Step{
		{Action: "wait_for", Selector: "#code"},
		{Action: "click", Selector: "button[type="},
	}}, openOpts())
	if errs.FieldOf(err) != "steps[1].selector" || !strings.Contains(err.Error(), "not a valid CSS selector") {
		t.Errorf("invalid selector: %v", err)
	}
	if n := s.hits.Load(); n != 0 {
		t.Errorf("a run with an invalid selector loaded the page (%d requests)", n)
	}
}

func TestRunStartPageFails(t *testing.T) {
	t.Parallel()
	pool := sharedPool(t)
	s := newSite(t, nil)
	s.Close() // connection refused
	res, shots := run(t, pool, RunInput{URL: s.URL + "/", Steps: []Step{{Action: "screenshot"}}}, openOpts())
	if res.Passed || res.FailedStep != nil || len(res.Steps) != 0 || !strings.Contains(res.Error, "loading the start page") ||
		!strings.Contains(res.Error, "net::ERR_") {
		t.Fatalf("want the start page to fail the run: %+v", res)
	}
	if !slices.Equal(res.Screenshots, []string{"failure-start.png"}) || len(shots) != 1 {
		t.Errorf("screenshots %v", res.Screenshots)
	}
	if res.FinalURL != s.URL+"/" {
		t.Errorf("FinalURL %q", res.FinalURL)
	}
}

// TestRunLeavesNothing runs passing, failing and refused runs in a pool of
// its own, then looks at the browser from a session: only its first blank
// tab and the session's own tab and browser context are there.
func TestRunLeavesNothing(t *testing.T) {
	t.Parallel()
	pool := newPool(t)
	other := newSite(t, map[string]string{"/": "<p>other</p>"})
	s := newSite(t, map[string]string{"/": editorPage})
	inputs := []RunInput{
		{URL: s.URL + "/", Steps: []Step{{Action: "type", Selector: "#code", Text: "x"}, {Action: "click", Selector: "#run"}}},
		{URL: s.URL + "/", Steps: []Step{{Action: "wait_for", Selector: "#never", TimeoutMS: 300}}},
		{URL: s.URL + "/", Steps: []Step{{Action: "navigate", URL: other.URL + "/"}}},
		{URL: s.URL + "/", Steps: []Step{{Action: "screenshot"}, {Action: "assert_text", Text: "nope", TimeoutMS: 300}}},
	}
	for _, in := range inputs {
		run(t, pool, in, refusing(other.host()))
	}
	if _, _, err := Run(t.Context(), pool, RunInput{URL: other.URL + "/", Steps: []Step{{Action: "screenshot"}}}, refusing(other.host())); err == nil {
		t.Error("a refused start URL ran")
	}
	err := pool.Session(t.Context(), render.SessionOptions{}, func(ctx context.Context, _ *render.Session) error {
		infos, err := chromedp.Targets(ctx)
		if err != nil {
			return err
		}
		var pages []string
		for _, info := range infos {
			if info.Type == "page" {
				pages = append(pages, info.URL)
			}
		}
		if len(pages) != 2 {
			t.Errorf("tabs open: %v, want the first blank tab and this session's", pages)
		}
		bcs, err := chromedp.CallBrowser(ctx, target.GetBrowserContexts, cdp.Empty{})
		if err != nil {
			return err
		}
		if len(bcs.BrowserContextIDs) != 1 {
			t.Errorf("browser contexts: %v, want this session's only", bcs.BrowserContextIDs)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestScreenshotBound: a screenshot over Options.MaxScreenshotBytes is
// taken again at half its size (of the scrolled viewport, not the top of
// the page), and a screenshot step that cannot fit fails.
func TestScreenshotBound(t *testing.T) {
	t.Parallel()
	pool := sharedPool(t)
	// Noise compresses badly; the page scrolls past a blank spacer to it.
	s := newSite(t, map[string]string{"/": `<!DOCTYPE html><body style="margin:0">
<div style="height:3000px"></div><canvas id="c" width="800" height="600" style="display:block"></canvas>
<script>
const c = document.getElementById("c").getContext("2d"), img = c.createImageData(800, 600);
for (let i = 0; i < img.data.length; i++) img.data[i] = (i % 4 === 3) ? 255 : Math.random() * 256;
c.putImageData(img, 0, 0);
scrollTo(0, 3000);
</script></body>`})
	in := RunInput{URL: s.URL + "/", ViewportWidth: 800, ViewportHeight: 600, Steps: []Step{{Action: "screenshot"}}}
	_, shots := run(t, pool, in, openOpts())
	full := shots[0].PNG
	if w, h := decodePNG(t, full); w != 800 || h != 600 {
		t.Fatalf("full screenshot %dx%d", w, h)
	}
	opts := openOpts()
	opts.MaxScreenshotBytes = len(full) / 2
	res, shots := run(t, pool, in, opts)
	if !res.Passed || len(shots) != 1 || len(shots[0].PNG) > opts.MaxScreenshotBytes {
		t.Fatalf("bounded screenshot: %+v, %d shots", res, len(shots))
	}
	if w, h := decodePNG(t, shots[0].PNG); w != 400 || h != 300 {
		t.Errorf("bounded screenshot %dx%d, want 400x300", w, h)
	}
	if len(shots[0].PNG) < len(full)/8 {
		t.Errorf("the half-size screenshot is %d bytes of the full %d: not the noise, the blank top of the page?", len(shots[0].PNG), len(full))
	}
	opts.MaxScreenshotBytes = 1000
	res, shots = run(t, pool, in, opts)
	if res.Passed || len(shots) != 0 || !strings.Contains(res.Steps[0].Error, "over 1000 bytes") {
		t.Errorf("unbounded screenshot step: %+v, %d shots", res, len(shots))
	}
}
