package render

import (
	"os/exec"
	"time"

	"github.com/webinfra/webinfra/errs"
)

// Options configure a Pool. The zero value (or nil) starts local Chromium
// with the defaults below.
type Options struct {
	// BrowserURL is a remote Chrome DevTools Protocol endpoint, either the
	// browser's websocket address (ws://host:port/devtools/browser/...) or its
	// HTTP debugging address (http://host:port/). Empty: start local Chromium.
	BrowserURL string
	// ExecPath is the browser binary to start. Empty: the first of chromium,
	// chromium-headless-shell, headless_shell, google-chrome and
	// google-chrome-stable found in PATH.
	ExecPath string
	// Contexts is how many pages render at once (default 4).
	Contexts int
	// PagesPerBrowser retires a browser and starts a fresh one after this
	// many pages (default 200). A retiring browser finishes its in-flight
	// pages first.
	PagesPerBrowser int
	// UserAgent overrides the browser's User-Agent. Empty: the browser's own.
	UserAgent string
	// IdleTime is the quiet period, with no request in flight, after which a
	// page counts as loaded when no WaitFor selector is given (default 500ms).
	IdleTime time.Duration
	// SettleTime is how long a page that was idle when its load event
	// fired (no request in flight then, none started since) is left to
	// settle before it is taken (default 50ms). A request that starts in
	// that time makes the page wait for IdleTime of quiet like any other.
	// Give a page that fetches its content later than that after load a
	// RenderRequest.WaitFor.
	SettleTime time.Duration
}

// Defaults for the zero Options.
const (
	DefaultContexts        = 4
	DefaultPagesPerBrowser = 200
	DefaultIdleTime        = 500 * time.Millisecond
	DefaultSettleTime      = 50 * time.Millisecond
	// DefaultTimeout bounds a render whose request has no Timeout.
	DefaultTimeout = 30 * time.Second
)

// browserNames are the binaries looked up in PATH when ExecPath is empty,
// in order.
var browserNames = []string{
	"chromium", "chromium-headless-shell", "headless_shell",
	"google-chrome", "google-chrome-stable", "chromium-browser",
}

// errNoBrowser is the error of a pool that has no browser to start.
func errNoBrowser() error {
	return errs.New(errs.KindUnavailable,
		"render tier unavailable: no chromium found; install Debian's chromium or set --browser-url")
}

// withDefaults returns a copy of opts with the defaults filled in and the
// browser binary resolved (for a local browser).
func withDefaults(opts *Options) (Options, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Contexts <= 0 {
		o.Contexts = DefaultContexts
	}
	if o.PagesPerBrowser <= 0 {
		o.PagesPerBrowser = DefaultPagesPerBrowser
	}
	if o.IdleTime <= 0 {
		o.IdleTime = DefaultIdleTime
	}
	if o.SettleTime <= 0 {
		o.SettleTime = DefaultSettleTime
	}
	if o.BrowserURL != "" {
		return o, nil
	}
	path, err := FindBrowser(o.ExecPath)
	if err != nil {
		return o, err
	}
	o.ExecPath = path
	return o, nil
}

// FindBrowser resolves the browser binary: execPath when given (a path or a
// name in PATH), else the first known Chromium or Chrome binary in PATH. It
// fails with errs.KindUnavailable when there is none.
func FindBrowser(execPath string) (string, error) {
	names := browserNames
	if execPath != "" {
		names = []string{execPath}
	}
	for _, name := range names {
		if path, err := exec.LookPath(name); err == nil {
			return path, nil
		}
	}
	return "", errNoBrowser()
}
