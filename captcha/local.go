package captcha

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"

	"github.com/webinfra/webinfra/errs"
)

// OCR reads the text in an image. The server adapts the convert
// package's tesseract engine to it; errors that carry an errs.Kind (say
// errs.KindUnavailable when the engine is missing) keep it.
type OCR interface {
	Text(ctx context.Context, image []byte) (string, error)
}

// OCRFunc adapts a function to OCR.
type OCRFunc func(ctx context.Context, image []byte) (string, error)

// Text calls f.
func (f OCRFunc) Text(ctx context.Context, image []byte) (string, error) { return f(ctx, image) }

// LocalOptions configure a Local solver.
type LocalOptions struct {
	// Timeout bounds one reading; 0: DefaultTimeout.
	Timeout time.Duration
}

// Local solves plain text-image captchas on this machine with an OCR
// engine: the image goes to no third party and costs nothing, but an
// engine reads clean printed text far better than the distorted text of
// most captchas, and a wrong answer cannot be told from a right one here.
type Local struct {
	ocr     OCR
	timeout time.Duration
}

// NewLocal returns a local solver reading with ocr.
func NewLocal(ocr OCR, opts *LocalOptions) *Local {
	l := &Local{ocr: ocr, timeout: DefaultTimeout}
	if opts != nil && opts.Timeout > 0 {
		l.timeout = opts.Timeout
	}
	return l
}

// Name is "local".
func (l *Local) Name() string { return ProviderLocal }

// Supports reports whether t is TypeImage, the only type it solves.
func (l *Local) Supports(t Type) bool { return t == TypeImage }

// Solve reads the image's text and cleans it: spaces and line breaks
// dropped, lower-cased unless t.CaseSensitive. No text is
// errs.KindUpstream.
func (l *Local) Solve(ctx context.Context, t Task) (*Solution, error) {
	if t.Type != TypeImage {
		return nil, errs.Invalid("provider", "local solves only image captchas, not %s", t.Type)
	}
	if len(t.Image) == 0 {
		return nil, errs.Invalid("image_base64", "is required for type image")
	}
	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, l.timeout)
	defer cancel()
	raw, err := l.ocr.Text(ctx, t.Image)
	if err != nil {
		var kindErr *errs.Error
		switch {
		case parent.Err() != nil:
			return nil, fmt.Errorf("local OCR cancelled: %w", parent.Err())
		case ctx.Err() != nil:
			return nil, errs.Wrap(errs.KindTimeout, err, "the local OCR engine did not read the image within %s", l.timeout)
		case errors.As(err, &kindErr):
			return nil, fmt.Errorf("local OCR engine: %w", err)
		}
		return nil, errs.Wrap(errs.KindUpstream, err, "the local OCR engine failed")
	}
	text := CleanText(raw, t.CaseSensitive)
	if text == "" {
		return nil, errs.New(errs.KindUpstream, "the local OCR engine read no text in the image (it reads plain text; a distorted captcha needs provider 2captcha or capsolver)")
	}
	return &Solution{Text: text}, nil
}

// CleanText turns what an OCR engine read into a captcha answer: white
// space and control characters dropped (engines break lines and split
// letters), lower-cased unless caseSensitive.
func CleanText(s string, caseSensitive bool) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) || unicode.IsControl(r) || r == '\u200b' || r == '\ufeff' {
			return -1
		}
		return r
	}, s)
	if !caseSensitive {
		s = strings.ToLower(s)
	}
	return s
}
