package editor

import (
	"fmt"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/webinfra/webinfra/errs"
)

// Field limits, as the struct tags declare them.
const (
	maxURLLen      = 8192
	maxSelectorLen = 1024
	maxTextLen     = 20000
	maxKeyLen      = 64
)

// usage is which optional fields each action takes (url, selector, text
// and key), and which of them it requires.
type usage struct{ url, selector, text, key, needSelector bool }

var actions = map[string]usage{
	ActionNavigate:      {url: true},
	ActionClick:         {selector: true, needSelector: true},
	ActionType:          {selector: true, needSelector: true, text: true},
	ActionPress:         {selector: true, key: true},
	ActionWaitFor:       {selector: true, needSelector: true},
	ActionAssertVisible: {selector: true, needSelector: true},
	ActionAssertText:    {selector: true, text: true},
	ActionScreenshot:    {},
}

const actionList = "navigate, click, type, press, wait_for, assert_text, assert_visible or screenshot"

// Validate checks a run's input without a browser: errs.KindInvalid naming
// the first bad field (url, steps, steps[3].selector, viewport_width,
// timeout_ms). Selectors are checked for length here and for CSS syntax
// by the browser when the run starts.
func Validate(in RunInput) error {
	if err := checkURL("url", in.URL); err != nil {
		return err
	}
	switch {
	case len(in.Steps) == 0:
		return errs.Invalid("steps", "needs at least one step")
	case len(in.Steps) > MaxSteps:
		return errs.Invalid("steps", "has %d steps; at most %d", len(in.Steps), MaxSteps)
	}
	shots := 0
	for i, st := range in.Steps {
		if err := validateStep(fmt.Sprintf("steps[%d]", i), st); err != nil {
			return err
		}
		if st.Action == ActionScreenshot {
			shots++
		}
	}
	if shots > MaxScreenshotSteps {
		return errs.Invalid("steps", "has %d screenshot steps; at most %d", shots, MaxScreenshotSteps)
	}
	if err := checkRange("viewport_width", in.ViewportWidth, MinViewportWidth, MaxViewportWidth); err != nil {
		return err
	}
	if err := checkRange("viewport_height", in.ViewportHeight, MinViewportHeight, MaxViewportHeight); err != nil {
		return err
	}
	return checkRange("timeout_ms", in.TimeoutMS, 1000, int(MaxRunTimeout/time.Millisecond))
}

// validateStep checks one step; path is its field path (steps[3]).
func validateStep(path string, st Step) error {
	use, ok := actions[st.Action]
	if !ok {
		if st.Action == "" {
			return errs.Invalid(path+".action", "is required: %s", actionList)
		}
		return errs.Invalid(path+".action", "%q is not an action: %s", st.Action, actionList)
	}
	for _, f := range []struct {
		name  string
		set   bool
		takes bool
	}{
		{"url", st.URL != "", use.url}, {"selector", st.Selector != "", use.selector},
		{"text", st.Text != "", use.text}, {"key", st.Key != "", use.key},
	} {
		if f.set && !f.takes {
			return errs.Invalid(path+"."+f.name, "is not used by %s", st.Action)
		}
	}
	switch {
	case use.url:
		if err := checkURL(path+".url", st.URL); err != nil {
			return err
		}
	case use.needSelector && strings.TrimSpace(st.Selector) == "":
		return errs.Invalid(path+".selector", "is required by %s", st.Action)
	case use.text && st.Text == "":
		return errs.Invalid(path+".text", "is required by %s", st.Action)
	case use.key:
		if len(st.Key) > maxKeyLen {
			return errs.Invalid(path+".key", "is longer than %d bytes", maxKeyLen)
		}
		if _, err := parseKey(st.Key); err != nil {
			return errs.Invalid(path+".key", "%v", err)
		}
	}
	if err := checkText(path+".selector", st.Selector, maxSelectorLen); err != nil {
		return err
	}
	if err := checkText(path+".text", st.Text, maxTextLen); err != nil {
		return err
	}
	return checkRange(path+".timeout_ms", st.TimeoutMS, 1, int(MaxRunTimeout/time.Millisecond))
}

// checkURL accepts an absolute http(s) URL with a host.
func checkURL(field, raw string) error {
	if raw == "" {
		return errs.Invalid(field, "is required")
	}
	if len(raw) > maxURLLen {
		return errs.Invalid(field, "is longer than %d bytes", maxURLLen)
	}
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		return errs.Invalid(field, "is not a valid URL")
	case u.Scheme != "http" && u.Scheme != "https":
		return errs.Invalid(field, "scheme must be http or https, not %q", u.Scheme)
	case u.Host == "":
		return errs.Invalid(field, "must have a host")
	}
	return nil
}

func checkText(field, s string, limit int) error {
	switch {
	case len(s) > limit:
		return errs.Invalid(field, "is longer than %d bytes", limit)
	case !utf8.ValidString(s):
		return errs.Invalid(field, "is not valid UTF-8")
	case strings.ContainsRune(s, 0):
		return errs.Invalid(field, "contains a NUL character")
	}
	return nil
}

// checkRange accepts 0 (the default) or a value in [lo, hi].
func checkRange(field string, v, lo, hi int) error {
	if v != 0 && (v < lo || v > hi) {
		return errs.Invalid(field, "must be 0 (the default) or between %d and %d", lo, hi)
	}
	return nil
}
