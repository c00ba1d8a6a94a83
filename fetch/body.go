package fetch

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"io"
	"mime"
	"net/http"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html/charset"

	"github.com/webinfra/webinfra/errs"
)

// readBody reads resp.Body under two caps: maxBody bytes as received and
// maxDecoded bytes after content decoding. Going over either stops reading
// at once, so neither a large body nor a compression bomb is held whole.
func readBody(resp *http.Response, maxBody, maxDecoded int64) ([]byte, error) {
	if resp.ContentLength > maxBody {
		return nil, errs.New(errs.KindUpstream, "response larger than %d bytes (Content-Length: %d)", maxBody, resp.ContentLength)
	}
	raw := &cappedReader{r: resp.Body, limit: maxBody, format: "response larger than %d bytes"}
	dec, err := decodeContent(resp.Header.Values("Content-Encoding"), raw)
	if err != nil {
		return nil, err
	}
	decoded := &cappedReader{r: dec, limit: maxDecoded, format: "decoded response larger than %d bytes"}
	body, err := io.ReadAll(decoded)
	switch {
	case raw.over():
		return nil, raw.err()
	case decoded.over():
		return nil, decoded.err()
	case err != nil:
		return nil, err
	}
	return body, nil
}

// cappedReader reads at most limit bytes from r and fails, with an
// upstream error naming the limit, as soon as one more byte arrives.
type cappedReader struct {
	r      io.Reader
	limit  int64
	n      int64
	format string // message with one %d for the limit
}

func (c *cappedReader) Read(p []byte) (int, error) {
	if c.over() {
		return 0, c.err()
	}
	if room := c.limit - c.n + 1; int64(len(p)) > room {
		p = p[:room]
	}
	n, err := c.r.Read(p)
	c.n += int64(n)
	if c.over() {
		return n - int(c.n-c.limit), c.err()
	}
	return n, err
}

func (c *cappedReader) over() bool { return c.n > c.limit }

func (c *cappedReader) err() error { return errs.New(errs.KindUpstream, c.format, c.limit) }

// decodeContent undoes the Content-Encoding codings (applied in order, so
// undone in reverse). Only gzip and deflate are asked for; anything else
// is an upstream error.
func decodeContent(headerValues []string, r io.Reader) (io.Reader, error) {
	var codings []string
	for _, v := range headerValues {
		for c := range strings.SplitSeq(v, ",") {
			c = strings.ToLower(strings.TrimSpace(c))
			if c != "" && c != "identity" {
				codings = append(codings, c)
			}
		}
	}
	for i := len(codings) - 1; i >= 0; i-- {
		src := r
		switch codings[i] {
		case "gzip", "x-gzip":
			r = &lazyReader{open: func() (io.Reader, error) { return openGzip(src) }}
		case "deflate":
			r = &lazyReader{open: func() (io.Reader, error) { return openDeflate(src) }}
		default:
			return nil, errs.New(errs.KindUpstream, "unsupported content encoding %q", codings[i])
		}
	}
	return r, nil
}

// lazyReader opens its reader on the first Read, so decoder set-up (which
// reads a header) happens inside the capped, deadline-bound read loop.
type lazyReader struct {
	open func() (io.Reader, error)
	r    io.Reader
}

func (l *lazyReader) Read(p []byte) (int, error) {
	if l.r == nil {
		r, err := l.open()
		if err != nil {
			return 0, err
		}
		l.r = r
	}
	return l.r.Read(p)
}

func openGzip(src io.Reader) (io.Reader, error) {
	zr, err := gzip.NewReader(src)
	if err == io.EOF { // empty body
		return bytes.NewReader(nil), nil
	}
	return zr, err
}

// openDeflate accepts both zlib-wrapped deflate (what the RFC says) and
// raw deflate (what some servers send).
func openDeflate(src io.Reader) (io.Reader, error) {
	br := bufio.NewReader(src)
	hdr, err := br.Peek(2)
	if len(hdr) == 0 && err == io.EOF {
		return bytes.NewReader(nil), nil
	}
	if len(hdr) == 2 && hdr[0]&0x0f == 8 && (uint16(hdr[0])<<8|uint16(hdr[1]))%31 == 0 {
		return zlib.NewReader(br)
	}
	return flate.NewReader(br), nil
}

// text is a body converted to UTF-8, with what was learnt on the way.
type text struct {
	body      []byte
	mediaType string // without parameters; sniffed when the header has none
	charset   string // the original charset, empty for non-text bodies
}

// toUTF8 converts a textual body to UTF-8. The charset comes from the
// Content-Type header, then a byte-order mark or <meta charset> (the HTML
// prescan), then: valid UTF-8 is taken as UTF-8 and anything else as
// windows-1252, as browsers do. Non-textual bodies are returned unchanged.
func toUTF8(body []byte, contentType string) text {
	mediaType, _, err := mime.ParseMediaType(contentType)
	if err != nil || mediaType == "" {
		// The sniffer claims utf-8 for all text; only its media type is used.
		mediaType, _, _ = mime.ParseMediaType(http.DetectContentType(body))
	}
	if !isTextual(mediaType) {
		return text{body: body, mediaType: mediaType}
	}
	enc, name, certain := charset.DetermineEncoding(body, contentType)
	if !certain && name != "utf-8" && hasHighBit(body) && utf8.Valid(body) {
		enc, name = nil, "utf-8" // an undeclared or mis-declared UTF-8 page
	}
	out := body
	if name != "utf-8" && enc != nil {
		if decoded, err := enc.NewDecoder().Bytes(body); err == nil {
			out = decoded
		}
	}
	out = bytes.TrimPrefix(out, []byte("\uFEFF"))
	if !utf8.Valid(out) {
		out = bytes.ToValidUTF8(out, []byte("\uFFFD"))
	}
	return text{body: out, mediaType: mediaType, charset: name}
}

func isTextual(mediaType string) bool {
	switch {
	case strings.HasPrefix(mediaType, "text/"),
		strings.HasSuffix(mediaType, "+xml"),
		strings.HasSuffix(mediaType, "+json"):
		return true
	}
	switch mediaType {
	case "application/xml", "application/json", "application/javascript",
		"application/ecmascript", "application/x-javascript":
		return true
	}
	return false
}

func hasHighBit(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return true
		}
	}
	return false
}
