package render_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/webinfra/webinfra/fetch"
	"github.com/webinfra/webinfra/fetch/render"
)

// A pool renders a page that builds itself with JavaScript, with the fetch
// package's SSRF guard applied to every request the browser makes. (No
// Output: it needs Chromium and the network.)
func ExamplePool_Render() {
	f, err := fetch.New(nil)
	if err != nil {
		log.Fatal(err)
	}
	pool, err := render.New(&render.Options{Contexts: 4, PagesPerBrowser: 200})
	if err != nil {
		log.Fatal(err) // errs.KindUnavailable when no chromium is installed
	}
	defer pool.Close()

	res, err := pool.Render(context.Background(), fetch.RenderRequest{
		URL:         "https://example.com/",
		WaitFor:     "h1",
		Screenshot:  true,
		Timeout:     30 * time.Second,
		CheckTarget: f.CheckTarget,
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.StatusCode, res.FinalURL, len(res.HTML), len(res.Screenshot))
}
