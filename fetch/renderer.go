package fetch

import (
	"context"
	"net/http"
	"time"
)

// Renderer loads a page in a real browser: the render tier. It is the
// rendering seam: fetch/render drives local Chromium or a remote CDP
// endpoint; Options.Renderer nil means the render tier is unavailable.
type Renderer interface {
	Render(ctx context.Context, req RenderRequest) (*RenderResult, error)
}

// RenderRequest is one page for the browser.
type RenderRequest struct {
	URL        string
	Headers    map[string]string
	WaitFor    string        // a CSS selector to wait for; empty: wait for network idle
	Screenshot bool          // also capture a full-page PNG
	Timeout    time.Duration // the whole render
	// CheckTarget is the SSRF guard: the renderer must call it for the
	// page and for every request the page makes (redirects, subresources)
	// and refuse those it rejects, since the browser dials on its own.
	CheckTarget func(ctx context.Context, url string) error
}

// RenderResult is the page as the browser left it.
type RenderResult struct {
	FinalURL   string
	StatusCode int         // of the main document
	Header     http.Header // of the main document
	HTML       []byte      // the rendered DOM, serialized, UTF-8
	Screenshot []byte      // PNG, when asked for
}
