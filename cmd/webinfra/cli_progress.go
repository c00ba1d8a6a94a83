package main

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/webinfra/webinfra/fetch/crawl"
)

// progressThrottle is the shortest time between two redraws of the bar.
const progressThrottle = 100 * time.Millisecond

// crawlProgress draws a crawl's progress bar: pages done out of the
// budget (--max-pages), pages queued, pages failed, the rate and the time
// elapsed, as in
//
//	crawl: 3 queued, 1 failed  40% |█████████             | (40/100, 12 pages/s) [3s]
//
// `webinfra crawl` draws it on stderr when stderr is a terminal; it is
// erased when the crawl ends.
type crawlProgress struct {
	mu  sync.Mutex // the bar's Clear is not safe alongside its other methods
	bar *progressbar.ProgressBar
}

// newCrawlProgress starts a bar on w for a crawl of at most budget pages,
// redrawn at most once per throttle.
func newCrawlProgress(w io.Writer, budget int, throttle time.Duration) *crawlProgress {
	bar := progressbar.NewOptions(budget,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(progressDescription(crawl.Progress{})),
		progressbar.OptionShowCount(),
		progressbar.OptionShowIts(),
		progressbar.OptionSetItsString("pages"),
		progressbar.OptionSetWidth(24),
		progressbar.OptionSetPredictTime(false),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionThrottle(throttle),
		progressbar.OptionClearOnFinish(),
	)
	return &crawlProgress{bar: bar}
}

// update shows p; it is crawl.Options.OnProgress.
func (cp *crawlProgress) update(p crawl.Progress) {
	cp.mu.Lock()
	defer cp.mu.Unlock()
	cp.bar.Describe(progressDescription(p))
	_ = cp.bar.Set(p.Done) // a terminal that cannot be written to is no reason to stop the crawl
}

// finish erases the bar.
func (cp *crawlProgress) finish() {
	cp.mu.Lock()
	defer cp.mu.Unlock()
	_ = cp.bar.Exit()
	_ = cp.bar.Clear()
}

func progressDescription(p crawl.Progress) string {
	return fmt.Sprintf("crawl: %d queued, %d failed", p.Queued, p.Failed)
}
