package editor_test

import (
	"context"
	"fmt"
	"log"

	"github.com/webinfra/webinfra/automation/editor"
	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/fetch"
	"github.com/webinfra/webinfra/fetch/render"
)

// Run types into a code editor, runs the code and checks its output, with
// the fetch package's SSRF guard applied to every request of the browser.
// (No Output: it needs Chromium and the network.)
func ExampleRun() {
	f, err := fetch.New(nil)
	if err != nil {
		log.Fatal(err)
	}
	pool, err := render.New(nil)
	if err != nil {
		log.Fatal(err) // errs.KindUnavailable when no chromium is installed
	}
	defer pool.Close()

	res, shots, err := editor.Run(context.Background(), pool, editor.RunInput{
		URL: "https://example.com/editor",
		Steps: []editor.Step{
			{Action: "type", Selector: "#code", Text: "print(1 + 1)"},
			{Action: "press", Selector: "#code", Key: "Control+Enter"},
			{Action: "assert_text", Selector: "#output", Text: "2", TimeoutMS: 5000},
		},
	}, &editor.Options{CheckTarget: f.CheckTarget})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Passed, res.Error, len(shots))
}

// Validate names the field at fault, as the HTTP layer reports it (422).
func ExampleValidate() {
	err := editor.Validate(editor.RunInput{
		URL: "https://example.com/editor",
		Steps: []editor.Step{
			{Action: "click", Selector: "#run"},
			{Action: "type", Selector: "#code"},
		},
	})
	fmt.Println(errs.KindOf(err), errs.FieldOf(err))
	fmt.Println(err)
	// Output:
	// invalid steps[1].text
	// steps[1].text: is required by type
}

// ValidScreenshotName guards the route that serves a run's screenshots.
func ExampleValidScreenshotName() {
	for _, name := range []string{"failure-step-3.png", "step-0.png", "../secrets.png", "step-1.PNG"} {
		fmt.Println(name, editor.ValidScreenshotName(name))
	}
	// Output:
	// failure-step-3.png true
	// step-0.png true
	// ../secrets.png false
	// step-1.PNG false
}
