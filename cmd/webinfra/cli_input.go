package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"os"
	"strings"

	"github.com/webinfra/webinfra/fetch"
	"github.com/webinfra/webinfra/server"
)

// maxInputBytes caps what is read from a file or stdin: the fetcher's cap
// on a page.
const maxInputBytes = fetch.DefaultMaxDecodedBytes

// document is what an extraction reads: a page fetched, a file or stdin.
type document struct {
	name   string             // the argument, for errors
	body   string             // the page, UTF-8 as far as we know
	plain  bool               // plain text rather than HTML
	url    string             // the page's address, to resolve relative links: its final URL, or --base-url
	status int                // the page's HTTP status, when fetched
	source *server.PageSource // where it came from, when fetched (as the HTTP API reports it)
}

// isWebURL reports whether arg is an absolute http(s) URL: an argument
// that is one is fetched, any other is a file.
func isWebURL(arg string) bool {
	u, err := url.Parse(arg)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// checkFileArg refuses an argument that is a URL of another scheme
// (ftp://...), which would otherwise be looked for as a file.
func checkFileArg(arg string) error {
	if u, err := url.Parse(arg); err == nil && u.Scheme != "" && u.Host != "" {
		return fmt.Errorf("%s: only http and https URLs are fetched", arg)
	}
	return nil
}

// readDocument reads a file, or stdin for "-". A file that cannot be read,
// is empty, is too large or is not text is a failure.
func readDocument(stdin io.Reader, name, baseURL string) (*document, error) {
	if err := checkFileArg(name); err != nil {
		return nil, err
	}
	r := stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, &failure{err}
		}
		defer f.Close()
		r = f
	}
	data, err := io.ReadAll(io.LimitReader(r, maxInputBytes+1))
	switch {
	case err != nil:
		return nil, &failure{fmt.Errorf("%s: %w", name, err)}
	case len(data) > maxInputBytes:
		return nil, &failure{fmt.Errorf("%s: larger than %d MiB", name, maxInputBytes>>20)}
	case len(strings.TrimSpace(string(data))) == 0:
		return nil, &failure{fmt.Errorf("%s: empty", name)}
	}
	doc := &document{name: name, body: string(data), url: baseURL}
	sniffed := http.DetectContentType(data)
	if err := doc.setKind(sniffed); err != nil {
		return nil, err
	}
	// A fragment that does not open with a tag the sniffer knows
	// (<article>, <section>) sniffs as plain text: markup makes it HTML.
	doc.plain = doc.plain && !strings.Contains(doc.body, "<")
	return doc, nil
}

// fetchDocument fetches a page as the HTTP API's extract endpoints do
// (raw_html, through the cascade).
func fetchDocument(ctx context.Context, fetcher *fetch.Fetcher, req fetch.ScrapeRequest) (*document, error) {
	res, err := fetcher.Scrape(ctx, req)
	if err != nil {
		return nil, err
	}
	doc := &document{name: req.URL, body: res.RawHTML, url: res.FinalURL, status: res.StatusCode,
		source: &server.PageSource{URL: res.URL, FinalURL: res.FinalURL, StatusCode: res.StatusCode,
			TierUsed: res.TierUsed, CascadePath: res.CascadePath, Cached: res.Cached}}
	if err := doc.setKind(res.ContentType); err != nil {
		return nil, err
	}
	return doc, nil
}

// errNotText is a document that is neither HTML nor text.
var errNotText = errors.New("not HTML or text")

// setKind sets plain from the document's media type, or fails for one
// that is not text.
func (d *document) setKind(contentType string) error {
	mt, _, _ := mime.ParseMediaType(contentType)
	switch {
	case mt == "text/html" || mt == "application/xhtml+xml":
		d.plain = false
	case strings.HasPrefix(mt, "text/"):
		d.plain = true
	default:
		if mt == "" {
			mt = "of unknown type"
		}
		return &failure{fmt.Errorf("%s: %w (%s)", d.name, errNotText, mt)}
	}
	return nil
}
