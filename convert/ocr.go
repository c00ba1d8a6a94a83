package convert

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/fetch"
)

// Defaults used for zero Options fields, and fixed limits.
const (
	DefaultMaxBytes  = 10 << 20   // 10 MiB of image, decoded
	DefaultMaxPixels = 40_000_000 // 40 megapixels
	DefaultMaxSide   = 10_000     // pixels, either side
	DefaultTimeout   = 60 * time.Second
	DefaultLanguage  = "eng"
	// MaxLanguages is how many languages one call may combine.
	MaxLanguages = 5
	// MaxURLLength bounds OCRInput.URL.
	MaxURLLength = 8192
)

// busyRetryAfter is the Retry-After of a call refused because every
// engine slot stayed busy: a slot frees within one Timeout at most, and
// usually much sooner.
const busyRetryAfter = 5 * time.Second

// Options configure an OCR. The zero value (or nil) means defaults.
type Options struct {
	// Engine recognizes the text; nil means the tesseract CLI
	// (NewTesseract(TesseractPath)).
	Engine Engine
	// TesseractPath is the tesseract binary (the server's --tesseract);
	// empty means "tesseract" in PATH. Ignored when Engine is set.
	TesseractPath string
	// MaxBytes caps an image's size in bytes: decoded base64, or the body
	// read from a URL (which the fetcher's own MaxBodyBytes does not
	// limit here). 0 means DefaultMaxBytes.
	MaxBytes int64
	// MaxPixels caps width x height as the image's header declares it,
	// checked before any pixel is decoded; 0 means DefaultMaxPixels.
	MaxPixels int64
	// MaxSide caps the width and the height; 0 means DefaultMaxSide.
	MaxSide int
	// Timeout bounds the recognition of one image, and also how long a
	// call waits for an engine slot; 0 means DefaultTimeout.
	Timeout time.Duration
	// Concurrency is how many images are recognized at once (tesseract
	// processes); 0 means runtime.GOMAXPROCS(0).
	Concurrency int
}

// resolve returns a copy of o with defaults filled in, or an invalid-input
// error naming the bad field.
func (o *Options) resolve() (Options, error) {
	var r Options
	if o != nil {
		r = *o
	}
	switch {
	case r.MaxBytes < 0:
		return r, errs.Invalid("options.max_bytes", "must not be negative")
	case r.MaxPixels < 0:
		return r, errs.Invalid("options.max_pixels", "must not be negative")
	case r.MaxSide < 0:
		return r, errs.Invalid("options.max_side", "must not be negative")
	case r.Timeout < 0:
		return r, errs.Invalid("options.timeout", "must not be negative")
	case r.Concurrency < 0:
		return r, errs.Invalid("options.concurrency", "must not be negative")
	}
	if r.MaxBytes == 0 {
		r.MaxBytes = DefaultMaxBytes
	}
	if r.MaxPixels == 0 {
		r.MaxPixels = DefaultMaxPixels
	}
	if r.MaxSide == 0 {
		r.MaxSide = DefaultMaxSide
	}
	if r.Timeout == 0 {
		r.Timeout = DefaultTimeout
	}
	if r.Concurrency == 0 {
		r.Concurrency = runtime.GOMAXPROCS(0)
	}
	if r.Engine == nil {
		r.Engine = NewTesseract(r.TesseractPath)
	}
	return r, nil
}

// OCRInput is one OCR request: exactly one of ImageBase64 and URL.
type OCRInput struct {
	// ImageBase64 has no maxLength: the limit (Options.MaxBytes) is an
	// operator's setting, checked in code on the encoded length first.
	ImageBase64 string   `json:"image_base64,omitempty" doc:"The image (PNG, JPEG, WebP, BMP or TIFF), base64-encoded: standard or URL-safe alphabet, padding optional, a data: URL prefix accepted. At most 10 MiB decoded unless the server sets another limit. Give this or url, not both."`
	URL         string   `json:"url,omitempty" maxLength:"8192" example:"https://example.com/scan.png" doc:"An http(s) URL of the image, fetched through the SSRF guard; the format is read from the bytes, not the URL or Content-Type. Give this or image_base64, not both."`
	Languages   []string `json:"languages,omitempty" maxItems:"5" example:"[\"eng\"]" doc:"Tesseract language codes to recognize together (eng, deu, fra, chi_sim ...); each must be installed on the server. Default [\"eng\"]."`
	Boxes       bool     `json:"boxes,omitempty" doc:"Also return every word and line with its bounding box and confidence."`
}

// OCRResult is the text read from one image.
type OCRResult struct {
	Text           string   `json:"text" doc:"The recognized text: lines joined by a newline, paragraphs separated by a blank line."`
	Format         string   `json:"format" enum:"png,jpeg,webp,bmp,tiff" doc:"The image format, read from the bytes."`
	Width          int      `json:"width" doc:"Image width in pixels."`
	Height         int      `json:"height" doc:"Image height in pixels (of the first page, for a multi-page TIFF)."`
	Languages      []string `json:"languages" doc:"The languages recognized with."`
	MeanConfidence float64  `json:"mean_confidence" doc:"Mean word confidence, 0-100; 0 when no word was found."`
	WordCount      int      `json:"word_count" doc:"Words recognized."`
	Words          []Word   `json:"words,omitempty" doc:"With boxes: every word in reading order."`
	Lines          []Line   `json:"lines,omitempty" doc:"With boxes: every line in reading order."`
	Engine         string   `json:"engine" example:"tesseract 5.3.0" doc:"The OCR engine and its version."`
}

// Word is one recognized word.
type Word struct {
	Text       string  `json:"text" doc:"The word."`
	Confidence float64 `json:"confidence" doc:"Recognition confidence, 0-100."`
	Box        Box     `json:"box" doc:"Where the word is, in image pixels."`
	Line       int     `json:"line" doc:"Index of the word's line in lines, from 0."`
}

// Line is one recognized line of text.
type Line struct {
	Text       string  `json:"text" doc:"The line's words joined by spaces."`
	Confidence float64 `json:"confidence" doc:"Mean confidence of the line's words, 0-100."`
	Box        Box     `json:"box" doc:"The smallest box holding the line's words, in image pixels."`
}

// OCR reads text from images. It is safe for concurrent use; build one
// and share it.
type OCR struct {
	fetcher *fetch.Fetcher
	opts    Options
	slots   chan struct{} // one token per running recognition
}

// New returns an OCR that fetches image URLs through f (nil f: a fetcher
// with default options, so private and loopback addresses are refused).
// Nil options mean defaults; a bad option is errs.KindInvalid naming it.
// A missing tesseract is not an error here: every call then answers
// errs.KindUnavailable naming the fix.
func New(f *fetch.Fetcher, opts *Options) (*OCR, error) {
	o, err := opts.resolve()
	if err != nil {
		return nil, err
	}
	if f == nil {
		if f, err = fetch.New(nil); err != nil {
			return nil, err
		}
	}
	return &OCR{fetcher: f, opts: o, slots: make(chan struct{}, o.Concurrency)}, nil
}

// Info names the engine and the languages it has, or says why it is
// unavailable (errs.KindUnavailable, naming the fix).
func (o *OCR) Info(ctx context.Context) (EngineInfo, error) { return o.opts.Engine.Info(ctx) }

// OCR reads the text of one image, given inline (image_base64) or by URL.
//
// Before anything reaches the engine the image's format is sniffed from
// its bytes and its dimensions read from its header; only then is it
// recognized, within Options.Timeout, by one of Options.Concurrency
// engine slots. A multi-page TIFF is read for its first page only.
//
// Errors: bad input is errs.KindInvalid naming the field ("image_base64",
// "url", "languages"): neither or both sources, bad base64, a format
// other than PNG, JPEG, WebP, BMP or TIFF, a language code that is
// malformed or not installed (the message lists those that are). An image
// over Options.MaxBytes, MaxPixels or MaxSide is errs.KindTooLarge naming
// the limit. A missing engine is errs.KindUnavailable naming the fix, and
// so is a call that waited Options.Timeout for a slot (with RetryAfter).
// A recognition over Options.Timeout is errs.KindTimeout. A URL that
// cannot be fetched has the fetch's kind (errs.KindForbidden for the SSRF
// guard, errs.KindUpstream or errs.KindTimeout otherwise). Cancelling ctx
// returns ctx's error.
func (o *OCR) OCR(ctx context.Context, in OCRInput) (*OCRResult, error) {
	langs, err := checkInput(in)
	if err != nil {
		return nil, err
	}
	var img *checkedImage
	if in.ImageBase64 != "" { // inline bytes are checked before the engine is asked
		data, err := decodeBase64(in.ImageBase64, o.opts.MaxBytes)
		if err != nil {
			return nil, err
		}
		if img, err = inspect(data, "image_base64", o.opts.MaxPixels, o.opts.MaxSide); err != nil {
			return nil, err
		}
	}
	info, err := o.opts.Engine.Info(ctx)
	if err != nil {
		return nil, err
	}
	if err := checkInstalled(langs, info.Languages); err != nil {
		return nil, err
	}
	if img == nil { // a URL is fetched only once the engine can take it
		if img, err = o.fetchImage(ctx, in.URL); err != nil {
			return nil, err
		}
	}
	field := "image_base64"
	if in.URL != "" {
		field = "url"
	}
	words, err := o.recognize(ctx, img.data, langs, field)
	if err != nil {
		return nil, err
	}
	res := assemble(words, in.Boxes)
	res.Format, res.Width, res.Height = img.format, img.width, img.height
	res.Languages, res.Engine = langs, info.Name
	return res, nil
}

// checkInput checks the request's shape and returns its languages,
// defaulted, deduplicated and in the order given.
func checkInput(in OCRInput) ([]string, error) {
	switch {
	case in.ImageBase64 == "" && in.URL == "":
		return nil, errs.Invalid("image_base64", "give the image as image_base64 or url")
	case in.ImageBase64 != "" && in.URL != "":
		return nil, errs.Invalid("url", "give image_base64 or url, not both")
	}
	if in.URL != "" {
		if _, err := parseImageURL(in.URL); err != nil {
			return nil, err
		}
	}
	if len(in.Languages) > MaxLanguages {
		return nil, errs.Invalid("languages", "at most %d languages, got %d", MaxLanguages, len(in.Languages))
	}
	if len(in.Languages) == 0 {
		return []string{DefaultLanguage}, nil
	}
	var langs []string
	for _, l := range in.Languages {
		l = strings.TrimSpace(l)
		switch {
		case l == osdLanguage:
			return nil, errs.Invalid("languages", "osd detects orientation and script but recognizes no text; name a language such as eng")
		case !languagePattern.MatchString(l):
			return nil, errs.Invalid("languages", "%q is not a language code (letters, digits and _, such as eng or chi_sim)", clip(l, 40))
		case !slices.Contains(langs, l):
			langs = append(langs, l)
		}
	}
	return langs, nil
}

// checkInstalled refuses languages the engine does not have, naming those
// it has.
func checkInstalled(langs, installed []string) error {
	for _, l := range langs {
		if !slices.Contains(installed, l) {
			return errs.Invalid("languages", "%q is not installed on this server; installed: %s", l, strings.Join(installed, ", "))
		}
	}
	return nil
}

// fetchImage downloads and inspects the image at rawURL.
func (o *OCR) fetchImage(ctx context.Context, rawURL string) (*checkedImage, error) {
	u, err := parseImageURL(rawURL)
	if err != nil {
		return nil, err
	}
	data, err := download(ctx, o.fetcher, u, o.opts.MaxBytes)
	if err != nil {
		return nil, err
	}
	return inspect(data, "url", o.opts.MaxPixels, o.opts.MaxSide)
}

// recognize runs the engine on img in one slot, within Options.Timeout.
func (o *OCR) recognize(ctx context.Context, img []byte, langs []string, field string) ([]EngineWord, error) {
	release, err := o.acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	runCtx, cancel := context.WithTimeout(ctx, o.opts.Timeout)
	defer cancel()
	words, err := o.opts.Engine.Recognize(runCtx, img, langs)
	switch {
	case err == nil:
		return words, nil
	case ctx.Err() != nil:
		return nil, fmt.Errorf("ocr: %w", ctx.Err())
	case errors.Is(runCtx.Err(), context.DeadlineExceeded) || pastDeadline(runCtx):
		return nil, errs.Wrap(errs.KindTimeout, err, "OCR did not finish within %s; send a smaller or simpler image", o.opts.Timeout)
	}
	var e *errs.Error
	if errors.As(err, &e) && e.Kind == errs.KindInvalid && e.Field == "" {
		named := *e
		named.Field = field
		return nil, &named
	}
	return nil, err
}

// pastDeadline reports whether ctx's deadline has passed, which can be
// the case a moment before ctx.Err says so.
func pastDeadline(ctx context.Context) bool {
	d, ok := ctx.Deadline()
	return ok && !time.Now().Before(d)
}

// acquire takes an engine slot, waiting at most Options.Timeout.
func (o *OCR) acquire(ctx context.Context) (release func(), err error) {
	release = func() { <-o.slots }
	select {
	case o.slots <- struct{}{}:
		return release, nil
	default:
	}
	timer := time.NewTimer(o.opts.Timeout)
	defer timer.Stop()
	select {
	case o.slots <- struct{}{}:
		return release, nil
	case <-ctx.Done():
		return nil, fmt.Errorf("ocr: waiting for an engine slot: %w", ctx.Err())
	case <-timer.C:
		return nil, errs.RetryLater(errs.KindUnavailable, min(busyRetryAfter, max(o.opts.Timeout, time.Second)),
			"all %d OCR slots stayed busy for %s; try again shortly", cap(o.slots), o.opts.Timeout)
	}
}

// clip shortens s for an error message.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + "..."
}
