package convert

import (
	"context"
	"regexp"
)

// Engine is the OCR seam: something that turns image bytes into words
// with boxes. The in-tree implementation is Tesseract (the tesseract
// CLI); Options.Engine takes any other. An Engine must be safe for
// concurrent use; OCR bounds how many Recognize calls run at once
// (Options.Concurrency) and gives each a deadline (Options.Timeout).
type Engine interface {
	// Info names the engine and lists the languages it can recognize. An
	// engine that is not installed or cannot start answers
	// errs.KindUnavailable with a message naming the fix.
	Info(ctx context.Context) (EngineInfo, error)
	// Recognize reads the words of img, an image whose format and size OCR
	// has already checked (PNG, JPEG, WebP, BMP or single-page TIFF), in
	// the languages given (each one of Info's). Words come in reading
	// order. An image the engine cannot read is errs.KindInvalid; when ctx
	// ends, Recognize stops its work and returns an error.
	Recognize(ctx context.Context, img []byte, languages []string) ([]EngineWord, error)
}

// EngineInfo describes an engine.
type EngineInfo struct {
	// Name is the engine and its version, e.g. "tesseract 5.3.0".
	Name string `json:"name" doc:"The OCR engine and its version."`
	// Languages are the language codes the engine can recognize, sorted.
	Languages []string `json:"languages" doc:"Language codes the engine can recognize."`
}

// EngineWord is one word as an Engine reports it. Words with the same
// Block, Paragraph and Line are one line of text; a change of Block or
// Paragraph starts a new paragraph.
type EngineWord struct {
	Text       string
	Confidence float64 // 0-100
	Box        Box
	Block      int
	Paragraph  int
	Line       int
}

// Box is a rectangle in image pixels, origin at the top left.
type Box struct {
	X      int `json:"x" doc:"Left edge, in pixels from the image's left."`
	Y      int `json:"y" doc:"Top edge, in pixels from the image's top."`
	Width  int `json:"width" doc:"Width in pixels."`
	Height int `json:"height" doc:"Height in pixels."`
}

// union returns the smallest box holding b and o; a zero box is empty.
func (b Box) union(o Box) Box {
	if b.Width == 0 && b.Height == 0 {
		return o
	}
	if o.Width == 0 && o.Height == 0 {
		return b
	}
	x0, y0 := min(b.X, o.X), min(b.Y, o.Y)
	x1, y1 := max(b.X+b.Width, o.X+o.Width), max(b.Y+b.Height, o.Y+o.Height)
	return Box{X: x0, Y: y0, Width: x1 - x0, Height: y1 - y0}
}

// languagePattern is what a language code may look like: a tessdata name
// such as eng, chi_sim or frk, or a script model such as script/Latin.
// Codes are passed to the engine as one argv element each way, never
// through a shell, but the pattern also keeps options ("-c ...") and
// paths ("../x") out of the engine's language argument.
var languagePattern = regexp.MustCompile(`^(script/)?[A-Za-z][A-Za-z0-9_]{0,39}$`)

// osdLanguage is tesseract's orientation and script detection data, which
// --list-langs lists but which recognizes no text.
const osdLanguage = "osd"
