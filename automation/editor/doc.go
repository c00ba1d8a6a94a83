// Package editor runs scripted UI tests of web pages (code editors, forms,
// single-page apps) in a headless browser: the step runner behind
// POST /v1/editor/runs.
//
//	pool, err := render.New(nil) // errs.KindUnavailable: no chromium
//	if err != nil { ... }
//	defer pool.Close()
//	res, shots, err := editor.Run(ctx, pool, editor.RunInput{
//		URL: "https://example.com/editor",
//		Steps: []editor.Step{
//			{Action: "type", Selector: "#code", Text: "print(1)"},
//			{Action: "click", Selector: "#run"},
//			{Action: "assert_text", Selector: "#output", Text: "1"},
//		},
//	}, &editor.Options{CheckTarget: fetcher.CheckTarget})
//
// # The run
//
// A run is one render.Pool session: a fresh tab in a browser context of its
// own (no cookies, cache or storage shared with any other run), every
// request checked by the SSRF guard (Options.CheckTarget; nil means the
// fetch package's default guard, which refuses private, loopback and
// metadata addresses), JavaScript dialogs accepted and downloads denied.
// It loads RunInput.URL, waits for its load event, then runs the steps in
// order, each within its own timeout (Step.TimeoutMS, default 10 s) capped
// by what is left of the run's (RunInput.TimeoutMS, default 60 s).
//
// Steps that look for an element wait for it until their timeout, as a
// person would: click, type, press (with a selector) and wait_for wait for
// the element; assert_visible and assert_text retry until they hold.
// Selectors are CSS, applied to the top document (not inside iframes).
//
//   - navigate: load url and wait for its load event;
//   - click: a left click at the centre of the visible element, scrolled
//     into view;
//   - type: focus the element (an input, a textarea or a contenteditable;
//     an element that is not focused yet gets its caret at the end) and
//     insert text as an IME would: input events fire, key events do not;
//   - press: a key, with modifiers (Enter, Tab, Escape, ArrowDown,
//     Control+Enter, Shift+Tab, a, ...), sent to the focused element or,
//     with a selector, to that element after focusing it;
//   - wait_for: the element is visible;
//   - assert_visible: the element is present and visible;
//   - assert_text: the element's innerText (the body's when selector is
//     empty) contains text, runs of white space compared as one space;
//   - screenshot: a PNG of the viewport, named step-<n>.png.
//
// # Results and errors
//
// A failing step is a result, not an error: the run stops at the first one,
// takes a PNG of the viewport named failure-step-<n>.png (n is the step's
// index in RunInput.Steps, from 0, as in the field path steps[n]) and
// reports RunResult.Passed false with the step's error. A start page that
// does not load fails the run the same way, with failure-start.png and no
// FailedStep. Screenshots are at most Options.MaxScreenshotBytes each
// (scaled down to fit), and their names match ^[a-z0-9-]+\.png$
// (ValidScreenshotName).
//
// Errors are for what is not a test result: invalid input is
// errs.KindInvalid naming the field (steps[3].selector); a start URL the
// guard refuses is the guard's error (errs.KindForbidden for the fetch
// guard); no pool or no browser is errs.KindUnavailable; the caller's
// context ending returns its error.
package editor
