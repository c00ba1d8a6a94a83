package render_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/webinfra/webinfra/fetch"
	"github.com/webinfra/webinfra/fetch/render"
)

// A session drives a page with chromedp actions in a tab and browser
// context of its own, with the fetch package's SSRF guard applied to every
// request the browser makes. (No Output: it needs Chromium and the
// network.)
func ExamplePool_Session() {
	f, err := fetch.New(nil)
	if err != nil {
		log.Fatal(err)
	}
	pool, err := render.New(nil)
	if err != nil {
		log.Fatal(err) // errs.KindUnavailable when no chromium is installed
	}
	defer pool.Close()

	opts := render.SessionOptions{CheckTarget: f.CheckTarget, Timeout: 30 * time.Second, ViewportWidth: 1024, ViewportHeight: 768}
	err = pool.Session(context.Background(), opts, func(ctx context.Context, s *render.Session) error {
		if err := s.Navigate(ctx, "https://example.com/"); err != nil {
			return err // a *render.RefusedError when the guard refuses it
		}
		title, err := chromedp.Run(ctx, chromedp.Title())
		fmt.Println(title)
		return err
	})
	if err != nil {
		log.Fatal(err)
	}
}
