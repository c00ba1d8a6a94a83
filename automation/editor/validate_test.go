package editor

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp/kb"

	"github.com/webinfra/webinfra/errs"
)

func TestValidate(t *testing.T) {
	t.Parallel()
	ok := RunInput{URL: "https://example.com/editor", Steps: []Step{{Action: "click", Selector: "#run"}}}
	with := func(f func(in *RunInput)) RunInput {
		in := ok
		in.Steps = append([]Step(nil), ok.Steps...)
		f(&in)
		return in
	}
	step := func(st ...Step) RunInput { return with(func(in *RunInput) { in.Steps = st }) }
	many := func(n int, st Step) []Step {
		out := make([]Step, n)
		for i := range out {
			out[i] = st
		}
		return out
	}
	cases := []struct {
		name  string
		in    RunInput
		field string // "" = valid
		msg   string
	}{
		{"valid", ok, "", ""},
		{"every action", step(
			Step{Action: "navigate", URL: "http://example.com/b"},
			Step{Action: "click", Selector: "button.run"},
			Step{Action: "type", Selector: "textarea", Text: "x"},
			Step{Action: "press", Key: "Enter"},
			Step{Action: "press", Key: "Control+Shift+ArrowDown", Selector: "#code"},
			Step{Action: "wait_for", Selector: "#out", TimeoutMS: 120000},
			Step{Action: "assert_text", Text: "hello"},
			Step{Action: "assert_text", Text: "hello", Selector: "#out"},
			Step{Action: "assert_visible", Selector: "#out"},
			Step{Action: "screenshot", TimeoutMS: 1},
		), "", ""},
		{"bounds", with(func(in *RunInput) { in.ViewportWidth, in.ViewportHeight, in.TimeoutMS = 1920, 240, 120000 }), "", ""},
		{"no url", with(func(in *RunInput) { in.URL = "" }), "url", "is required"},
		{"ftp url", with(func(in *RunInput) { in.URL = "ftp://example.com/" }), "url", `scheme must be http or https, not "ftp"`},
		{"relative url", with(func(in *RunInput) { in.URL = "/editor" }), "url", "scheme must be http or https"},
		{"no host", with(func(in *RunInput) { in.URL = "http:///x" }), "url", "must have a host"},
		{"long url", with(func(in *RunInput) { in.URL = "https://example.com/" + strings.Repeat("a", 8192) }), "url", "longer than 8192"},
		{"no steps", with(func(in *RunInput) { in.Steps = nil }), "steps", "at least one step"},
		{"51 steps", with(func(in *RunInput) { in.Steps = many(51, ok.Steps[0]) }), "steps", "at most 50"},
		{"11 screenshots", with(func(in *RunInput) { in.Steps = many(11, Step{Action: "screenshot"}) }), "steps", "at most 10"},
		{"no action", step(Step{Selector: "#a"}), "steps[0].action", "is required"},
		{"unknown action", step(ok.Steps[0], Step{Action: "hover", Selector: "#a"}), "steps[1].action", `"hover" is not an action`},
		{"click without selector", step(Step{Action: "click"}), "steps[0].selector", "is required by click"},
		{"blank selector", step(Step{Action: "wait_for", Selector: "  "}), "steps[0].selector", "is required by wait_for"},
		{"type without text", step(ok.Steps[0], ok.Steps[0], ok.Steps[0], Step{Action: "type", Selector: "#a"}), "steps[3].text", "is required by type"},
		{"assert_text without text", step(Step{Action: "assert_text", Selector: "#a"}), "steps[0].text", "is required"},
		{"press without key", step(Step{Action: "press"}), "steps[0].key", "is required"},
		{"unknown key", step(Step{Action: "press", Key: "Banana"}), "steps[0].key", `"Banana" is not a key name`},
		{"unknown modifier", step(Step{Action: "press", Key: "Hyperdrive+a"}), "steps[0].key", `"Hyperdrive" is not a modifier`},
		{"navigate without url", step(Step{Action: "navigate"}), "steps[0].url", "is required"},
		{"navigate to javascript:", step(Step{Action: "navigate", URL: "javascript:alert(1)"}), "steps[0].url", "scheme must be http or https"},
		{"navigate to file:", step(Step{Action: "navigate", URL: "file:///etc/passwd"}), "steps[0].url", "scheme must be http or https"},
		{"selector on screenshot", step(Step{Action: "screenshot", Selector: "#a"}), "steps[0].selector", "is not used by screenshot"},
		{"url on click", step(Step{Action: "click", Selector: "#a", URL: "https://example.com/"}), "steps[0].url", "is not used by click"},
		{"key on type", step(Step{Action: "type", Selector: "#a", Text: "x", Key: "Enter"}), "steps[0].key", "is not used by type"},
		{"text on click", step(Step{Action: "click", Selector: "#a", Text: "x"}), "steps[0].text", "is not used by click"},
		{"long selector", step(Step{Action: "click", Selector: strings.Repeat("a", 1025)}), "steps[0].selector", "longer than 1024"},
		{"long text", step(Step{Action: "type", Selector: "#a", Text: strings.Repeat("a", 20001)}), "steps[0].text", "longer than 20000"},
		{"NUL in text", step(Step{Action: "type", Selector: "#a", Text: "a\x00b"}), "steps[0].text", "NUL"},
		{"bad UTF-8", step(Step{Action: "assert_text", Text: "\xff"}), "steps[0].text", "UTF-8"},
		{"negative step timeout", step(Step{Action: "click", Selector: "#a", TimeoutMS: -1}), "steps[0].timeout_ms", "between 1 and 120000"},
		{"long step timeout", step(Step{Action: "click", Selector: "#a", TimeoutMS: 120001}), "steps[0].timeout_ms", "between 1 and 120000"},
		{"narrow viewport", with(func(in *RunInput) { in.ViewportWidth = 100 }), "viewport_width", "between 320 and 1920"},
		{"tall viewport", with(func(in *RunInput) { in.ViewportHeight = 5000 }), "viewport_height", "between 240 and 1200"},
		{"short run", with(func(in *RunInput) { in.TimeoutMS = 500 }), "timeout_ms", "between 1000 and 120000"},
		{"long run", with(func(in *RunInput) { in.TimeoutMS = 120001 }), "timeout_ms", "between 1000 and 120000"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			err := Validate(tc.in)
			if tc.field == "" {
				if err != nil {
					t.Fatalf("Validate = %v, want nil", err)
				}
				return
			}
			if errs.KindOf(err) != errs.KindInvalid || errs.FieldOf(err) != tc.field || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("Validate = %v (kind %s, field %q), want field %q with %q", err, errs.KindOf(err), errs.FieldOf(err), tc.field, tc.msg)
			}
		})
	}
}

func TestParseKey(t *testing.T) {
	t.Parallel()
	ctrl, shift, alt, meta := int64(kb.ModifierCtrl), int64(kb.ModifierShift), int64(kb.ModifierAlt), int64(kb.ModifierMeta)
	cases := []struct {
		spec      string
		key, code string
		keyCode   int64
		text      string
		modifiers int64
	}{
		{"Enter", "Enter", "Enter", 13, "\r", 0},
		{"enter", "Enter", "Enter", 13, "\r", 0},
		{"Return", "Enter", "Enter", 13, "\r", 0},
		{"Tab", "Tab", "Tab", 9, "", 0},
		{"Shift+Tab", "Tab", "Tab", 9, "", shift},
		{"Escape", "Escape", "Escape", 27, "", 0},
		{"Esc", "Escape", "Escape", 27, "", 0},
		{"ArrowDown", "ArrowDown", "ArrowDown", 40, "", 0},
		{"Backspace", "Backspace", "Backspace", 8, "", 0},
		{"Delete", "Delete", "Delete", 46, "", 0},
		{"F5", "F5", "F5", 116, "", 0},
		{"Space", " ", "Space", 32, " ", 0},
		{"a", "a", "KeyA", 65, "a", 0},
		{"Shift+a", "A", "KeyA", 65, "A", shift},
		{"!", "!", "Digit1", 49, "!", shift},
		{"Control+Enter", "Enter", "Enter", 13, "", ctrl},
		{"Ctrl+Shift+z", "Z", "KeyZ", 90, "", ctrl | shift},
		{"Meta+s", "s", "KeyS", 83, "", meta},
		{"Alt+ArrowLeft", "ArrowLeft", "ArrowLeft", 37, "", alt},
		{"+", "+", "Equal", 187, "+", shift},
		{"Control++", "+", "Equal", 187, "", ctrl | shift},
		{"é", "é", "", 0, "é", 0},
	}
	for _, tc := range cases {
		kp, err := parseKey(tc.spec)
		if err != nil {
			t.Errorf("parseKey(%q): %v", tc.spec, err)
			continue
		}
		want := keyPress{key: tc.key, code: tc.code, keyCode: tc.keyCode, text: tc.text, modifiers: tc.modifiers}
		if kp != want {
			t.Errorf("parseKey(%q) = %+v, want %+v", tc.spec, kp, want)
		}
	}
	for _, bad := range []string{"", "Banana", "Ctrl+", "Foo+a", "Control+Banana", "\x01"} {
		if _, err := parseKey(bad); err == nil {
			t.Errorf("parseKey(%q) accepted", bad)
		}
	}
	ev := keyPress{key: "Enter", code: "Enter", keyCode: 13, text: "\r"}.events()
	if len(ev) != 2 || ev[0].Type != "keyDown" || ev[0].Text != "\r" || ev[1].Type != "keyUp" || ev[1].Text != "" {
		t.Errorf("events of Enter: %+v", ev)
	}
	if ev := (keyPress{key: "Tab", code: "Tab", keyCode: 9}).events(); ev[0].Type != "rawKeyDown" {
		t.Errorf("a key with no text goes down raw: %+v", ev[0])
	}
}

func TestValidScreenshotName(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]bool{
		"step-3.png": true, "failure-step-12.png": true, "failure-start.png": true,
		"": false, ".png": false, "../step-1.png": false, "a/b.png": false, `a\b.png`: false, "step-1.PNG": false,
		"Step-1.png": false, "step-1.png\x00": false, "step 1.png": false, "step-1.png/..": false, "step-1.jpg": false,
		strings.Repeat("a", 65) + ".png": false,
	} {
		if got := ValidScreenshotName(name); got != want {
			t.Errorf("ValidScreenshotName(%q) = %v, want %v", name, got, want)
		}
	}
}
