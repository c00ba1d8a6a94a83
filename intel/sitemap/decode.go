package sitemap

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html/charset"
)

// The sitemaps.org limits of one file, the defaults of DecodeOptions.
const (
	MaxFileBytes   = 50 << 20 // 50 MiB, uncompressed
	MaxURLsPerFile = 50_000
)

// The kinds of file Decode reads.
const (
	KindURLSet = "urlset" // <urlset>: page URLs
	KindIndex  = "index"  // <sitemapindex>: other sitemaps
	KindText   = "text"   // one URL per line
	KindRSS    = "rss"    // an RSS 2.0 feed: item links
	KindAtom   = "atom"   // an Atom feed: entry links
)

// Decode's errors (wrapped with details).
var (
	// ErrNotSitemap: the body is something else (an HTML page, another
	// XML document, text that is not a list of URLs).
	ErrNotSitemap = errors.New("not a sitemap")
	// ErrMalformed: the body is broken XML or broken gzip.
	ErrMalformed = errors.New("malformed sitemap")
)

// Item is one entry of a sitemap file: a page (urlset, text, feeds) or a
// sitemap (index). Values are as written, white space trimmed.
type Item struct {
	Sitemap    bool // an index's <sitemap>, not a page
	Feed       bool // from an RSS or Atom feed: Lastmod is a feed's date (RFC 822 for RSS)
	Loc        string
	Lastmod    string // <lastmod>; a feed's pubDate, updated or published
	Changefreq string
	Priority   string
	Images     int // <image:image> elements
	News       int // <news:news> elements
	Videos     int // <video:video> elements
}

// DecodeOptions bound Decode. Zero fields mean the sitemaps.org limits.
type DecodeOptions struct {
	MaxBytes int64 // bytes read once decompressed; 0: MaxFileBytes
	MaxItems int   // items visited; 0: MaxURLsPerFile
}

// Decoded says what Decode read.
type Decoded struct {
	Kind     string // KindURLSet, KindIndex, KindText, KindRSS or KindAtom; "" when not a sitemap
	Gzipped  bool   // the body was gzip (by its magic bytes)
	Bytes    int64  // bytes read, decompressed
	Items    int    // items visited
	TooLarge bool   // reading stopped at MaxBytes
	TooMany  bool   // reading stopped at MaxItems: the file holds more
	Stopped  bool   // visit asked to stop
}

// errTooLarge stops the reader at the byte cap.
var errTooLarge = errors.New("file over the size cap")

// Decode reads one sitemap file as fetched: gzip when it starts with
// gzip's magic bytes (whatever its name or Content-Type), then XML (a
// urlset, a sitemap index, an RSS or Atom feed) or plain text (one URL per
// line). It calls visit for each item in file order until visit returns
// false, the file ends, or a cap stops it (Decoded says which). The body
// is streamed, never held decompressed. A body that is valid UTF-8 is
// read as UTF-8 whatever its XML declaration says (the fetcher converts
// textual bodies); other bodies are decoded from the declared encoding.
//
// Errors wrap ErrNotSitemap or ErrMalformed; items visited before a
// malformed part stay visited and Decoded.Kind is set once the root
// element was read.
func Decode(body []byte, opts *DecodeOptions, visit func(Item) bool) (Decoded, error) {
	var o DecodeOptions
	if opts != nil {
		o = *opts
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = MaxFileBytes
	}
	if o.MaxItems <= 0 {
		o.MaxItems = MaxURLsPerFile
	}
	d := &decoder{opts: o, visit: visit}
	var src io.Reader = bytes.NewReader(body)
	utf8Body := false
	if bytes.HasPrefix(body, []byte{0x1f, 0x8b}) {
		d.out.Gzipped = true
		zr, err := gzip.NewReader(src)
		if err != nil {
			return d.out, fmt.Errorf("%w: bad gzip: %v", ErrMalformed, err)
		}
		src = zr
	} else {
		utf8Body = utf8.Valid(body)
	}
	d.counter = &countingReader{r: src, limit: o.MaxBytes}
	br := bufio.NewReader(d.counter)
	first, err := firstByte(br)
	switch {
	case errors.Is(err, io.EOF):
		return d.finish(fmt.Errorf("%w: the file is empty", ErrNotSitemap))
	case err != nil:
		return d.finish(err)
	case first == '<':
		return d.finish(d.xml(br, utf8Body))
	}
	return d.finish(d.text(br))
}

// decoder is one Decode call.
type decoder struct {
	opts    DecodeOptions
	visit   func(Item) bool
	counter *countingReader
	out     Decoded
}

// emit visits one item; it returns false when reading must stop.
func (d *decoder) emit(it Item) bool {
	if d.out.Items >= d.opts.MaxItems {
		d.out.TooMany = true
		return false
	}
	d.out.Items++
	if !d.visit(it) {
		d.out.Stopped = true
		return false
	}
	return true
}

// finish fills in the byte count and turns read errors into Decode's.
func (d *decoder) finish(err error) (Decoded, error) {
	d.out.Bytes = d.counter.n
	switch {
	case err == nil:
		return d.out, nil
	case errors.Is(err, errTooLarge):
		d.out.TooLarge = true
		return d.out, nil
	case errors.Is(err, ErrNotSitemap), errors.Is(err, ErrMalformed):
		return d.out, err
	}
	return d.out, fmt.Errorf("%w: %v", ErrMalformed, err) // a gzip stream that breaks off, a bad checksum
}

// firstByte is the first byte after a byte-order mark and white space,
// left unread.
func firstByte(br *bufio.Reader) (byte, error) {
	if bom, err := br.Peek(3); err == nil && bytes.Equal(bom, []byte("\uFEFF")) {
		br.Discard(3)
	}
	for {
		b, err := br.ReadByte()
		if err != nil {
			return 0, err
		}
		if !isSpace(b) {
			return b, br.UnreadByte()
		}
	}
}

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }

// maxLineBytes bounds one line of a text sitemap: far over the 2,048
// characters a URL may have, under what would hold a file in memory.
const maxLineBytes = 64 << 10

// text reads a text sitemap: one URL per line, blank lines skipped. The
// first line must be an http(s) URL, or it is not a sitemap.
func (d *decoder) text(br *bufio.Reader) error {
	sc := bufio.NewScanner(br)
	sc.Buffer(make([]byte, 0, 4096), maxLineBytes)
	sc.Split(func(data []byte, atEOF bool) (int, []byte, error) {
		if atEOF && d.counter.capped && !bytes.Contains(data, []byte{'\n'}) {
			return len(data), nil, nil // a line the size cap cut: not a URL
		}
		return bufio.ScanLines(data, atEOF)
	})
	for sc.Scan() {
		line := strings.TrimSpace(strings.TrimPrefix(sc.Text(), "\uFEFF"))
		if line == "" {
			continue
		}
		if d.out.Kind == "" {
			if !hasHTTPScheme(line) {
				return fmt.Errorf("%w: neither XML nor a list of URLs (starts %q)", ErrNotSitemap, cut(line, 40))
			}
			d.out.Kind = KindText
		}
		if !d.emit(Item{Loc: line}) {
			return nil
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return fmt.Errorf("%w: a line longer than %d bytes", ErrMalformed, maxLineBytes)
		}
		return err
	}
	if d.out.Kind == "" {
		return fmt.Errorf("%w: the file is empty", ErrNotSitemap)
	}
	return nil
}

func hasHTTPScheme(s string) bool {
	return len(s) > 8 && (strings.EqualFold(s[:7], "http://") || strings.EqualFold(s[:8], "https://"))
}

// cut is s cut to n bytes, not through a character.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// countingReader counts the bytes read and fails with errTooLarge once
// more than limit have come.
type countingReader struct {
	r      io.Reader
	n      int64
	limit  int64
	capped bool // the limit was reached: what was read stops mid-file
}

func (c *countingReader) Read(p []byte) (int, error) {
	if c.capped {
		return 0, errTooLarge
	}
	if room := c.limit - c.n + 1; int64(len(p)) > room {
		p = p[:room]
	}
	n, err := c.r.Read(p)
	c.n += int64(n)
	if c.n > c.limit {
		c.n, c.capped = c.limit, true
		return n - 1, errTooLarge
	}
	return n, err
}

// charsetReader decodes an XML body from its declared encoding, unless
// the body is known to be UTF-8 already.
func charsetReader(utf8Body bool) func(string, io.Reader) (io.Reader, error) {
	return func(label string, r io.Reader) (io.Reader, error) {
		if utf8Body {
			return r, nil
		}
		return charset.NewReaderLabel(label, r)
	}
}

// xml reads an XML sitemap or feed, element by element.
func (d *decoder) xml(r io.Reader, utf8Body bool) error {
	dec := xml.NewDecoder(r)
	dec.Strict = false // unescaped & in URLs, HTML entities: read as written
	dec.Entity = xml.HTMLEntity
	dec.CharsetReader = charsetReader(utf8Body)
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			if d.out.Kind == "" {
				return fmt.Errorf("%w: no root element", ErrNotSitemap)
			}
			return nil
		}
		if err != nil {
			return wrapXML(err)
		}
		start, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		if d.out.Kind == "" {
			if err := d.root(start); err != nil {
				return err
			}
			continue
		}
		more, err := d.element(dec, start)
		if err != nil || !more {
			return err
		}
	}
}

// wrapXML marks an XML error as a malformed file, keeping the size cap's.
func wrapXML(err error) error {
	if errors.Is(err, errTooLarge) {
		return err
	}
	return fmt.Errorf("%w: %v", ErrMalformed, err)
}

// root reads the root element's name into the file's kind.
func (d *decoder) root(start xml.StartElement) error {
	switch strings.ToLower(start.Name.Local) {
	case "urlset":
		d.out.Kind = KindURLSet
	case "sitemapindex":
		d.out.Kind = KindIndex
	case "rss":
		d.out.Kind = KindRSS
	case "feed":
		d.out.Kind = KindAtom
	default:
		return fmt.Errorf("%w: the root element is <%s>", ErrNotSitemap, start.Name.Local)
	}
	return nil
}
