package editor

import (
	"context"
	"regexp"
	"time"
)

// Step is one action of a run. Which fields an action takes:
//
//	navigate        url
//	click           selector
//	type            selector, text
//	press           key, selector (optional: focus it first)
//	wait_for        selector
//	assert_visible  selector
//	assert_text     text, selector (optional: the body)
//	screenshot      -
//
// Every action takes timeout_ms.
type Step struct {
	Action    string `json:"action" enum:"navigate,click,type,press,wait_for,assert_text,assert_visible,screenshot" doc:"What the step does: navigate (load url), click (the element), type (insert text into the element), press (a key), wait_for (the element to be visible), assert_text (the element's text, or the page's, contains text), assert_visible (the element is present and visible), screenshot (a PNG of the viewport)."`
	Selector  string `json:"selector,omitempty" maxLength:"1024" example:"#editor textarea" doc:"A CSS selector, applied to the top document; the first matching element is used. Required by click, type, wait_for and assert_visible; optional for assert_text (default: the body) and press (focus it first)."`
	URL       string `json:"url,omitempty" maxLength:"8192" example:"https://example.com/editor" doc:"The http or https URL navigate loads."`
	Text      string `json:"text,omitempty" maxLength:"20000" example:"print('hello')" doc:"The text type inserts, or the text assert_text expects the element's innerText to contain (compared with runs of white space collapsed to one space)."`
	Key       string `json:"key,omitempty" maxLength:"64" example:"Enter" doc:"The key press sends: a key name (Enter, Tab, Escape, Backspace, Delete, ArrowDown, ArrowUp, ArrowLeft, ArrowRight, Home, End, PageUp, PageDown, F1-F12, Space) or one character, optionally after modifiers joined with + (Control, Shift, Alt, Meta): Control+Enter, Shift+Tab, Control+a."`
	TimeoutMS int    `json:"timeout_ms,omitempty" minimum:"0" maximum:"120000" example:"5000" doc:"How long the step may take, in milliseconds, waiting for its element included; 0 = 10000. Capped by what is left of the run's timeout."`
}

// RunInput is a UI test: a start page and the steps to run on it.
type RunInput struct {
	URL            string `json:"url" minLength:"1" maxLength:"8192" example:"https://example.com/editor" doc:"The http or https page the run starts on; it is loaded before the first step."`
	Steps          []Step `json:"steps" minItems:"1" maxItems:"50" doc:"The steps, run in order; the run stops at the first that fails."`
	ViewportWidth  int    `json:"viewport_width,omitempty" minimum:"0" maximum:"1920" example:"1280" doc:"The viewport's width in CSS pixels, 320-1920; 0 = 1280."`
	ViewportHeight int    `json:"viewport_height,omitempty" minimum:"0" maximum:"1200" example:"800" doc:"The viewport's height in CSS pixels, 240-1200; 0 = 800."`
	TimeoutMS      int    `json:"timeout_ms,omitempty" minimum:"0" maximum:"120000" example:"60000" doc:"How long the whole run may take, in milliseconds (the start page and every step); 0 = 60000."`
}

// RunResult is how a run went. A failing step is reported here, not as an
// error.
type RunResult struct {
	Passed      bool         `json:"passed" doc:"Whether the start page loaded and every step succeeded."`
	FinalURL    string       `json:"final_url" doc:"The page's URL when the run ended."`
	DurationMS  float64      `json:"duration_ms" doc:"How long the run took, in milliseconds, waiting for a browser included."`
	FailedStep  *int         `json:"failed_step,omitempty" doc:"The index (from 0, as in steps[n]) of the step that failed; absent when the run passed or its start page failed."`
	Error       string       `json:"error,omitempty" doc:"Why the run failed: the failing step's error, or the start page's."`
	Steps       []StepResult `json:"steps" doc:"The steps that ran, in order; those after a failure did not run and are absent."`
	Screenshots []string     `json:"screenshots" doc:"The names of the run's PNG screenshots: step-<n>.png for screenshot steps, failure-step-<n>.png (or failure-start.png) for the failure."`
}

// StepResult is how one step went.
type StepResult struct {
	Index      int     `json:"index" doc:"The step's index in steps, from 0."`
	Action     string  `json:"action"`
	Selector   string  `json:"selector,omitempty"`
	OK         bool    `json:"ok" doc:"Whether the step succeeded."`
	Error      string  `json:"error,omitempty" doc:"Why the step failed."`
	DurationMS float64 `json:"duration_ms" doc:"How long the step took, in milliseconds."`
	Screenshot string  `json:"screenshot,omitempty" doc:"The name of the screenshot this step took (a screenshot step, or the failure's)."`
}

// Screenshot is a PNG a run took, by the name its result gives it.
type Screenshot struct {
	Name string
	PNG  []byte
}

// Options configure Run. Nil means defaults.
type Options struct {
	// CheckTarget is the SSRF guard applied to every URL and request of the
	// run (the fetch package's Fetcher.CheckTarget). Nil: a fetch.Fetcher
	// with default options, which refuses private, loopback, link-local and
	// metadata addresses.
	CheckTarget func(ctx context.Context, url string) error
	// MaxScreenshotBytes bounds each PNG (default 2 MiB): a larger one is
	// taken again at a smaller scale, and dropped if it still does not fit.
	MaxScreenshotBytes int
}

// Limits and defaults of a run.
const (
	DefaultRunTimeout     = 60 * time.Second
	MaxRunTimeout         = 120 * time.Second
	DefaultStepTimeout    = 10 * time.Second
	DefaultViewportWidth  = 1280
	DefaultViewportHeight = 800
	MinViewportWidth      = 320
	MaxViewportWidth      = 1920
	MinViewportHeight     = 240
	MaxViewportHeight     = 1200
	MaxSteps              = 50
	// MaxScreenshotSteps bounds the screenshot steps of a run (its failure
	// screenshot comes on top).
	MaxScreenshotSteps        = 10
	DefaultMaxScreenshotBytes = 2 << 20
)

// The actions a Step can take.
const (
	ActionNavigate      = "navigate"
	ActionClick         = "click"
	ActionType          = "type"
	ActionPress         = "press"
	ActionWaitFor       = "wait_for"
	ActionAssertText    = "assert_text"
	ActionAssertVisible = "assert_visible"
	ActionScreenshot    = "screenshot"
)

var screenshotName = regexp.MustCompile(`^[a-z0-9-]{1,64}\.png$`)

// ValidScreenshotName reports whether name can be a run's screenshot name:
// lower-case letters, digits and dashes, then .png; no slash, dot-dot or
// other path syntax. Serve a screenshot by name only when it holds.
func ValidScreenshotName(name string) bool {
	return screenshotName.MatchString(name)
}
