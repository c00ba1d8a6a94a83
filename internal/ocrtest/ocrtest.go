package ocrtest

import (
	"bytes"
	"image"
	"image/color"
	"image/draw"
	"image/jpeg"
	"image/png"
	"os/exec"
	"strings"
	"testing"
	"unicode"

	"github.com/gen2brain/webp"
	"golang.org/x/image/bmp"
	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/tiff"

	"github.com/webinfra/webinfra/internal/testenv"
)

// SampleLines is the text the tests draw: 32 words of plain English.
var SampleLines = []string{
	"Agents read the web through small tools that",
	"fetch pages, extract tables and turn scanned",
	"images into plain text. This short passage was",
	"drawn by the test itself with a regular font.",
}

// Word is a word the test drew and the region it covers: its ink
// and its advance box from ascent to descent, padded for anti-aliasing.
type Word struct {
	Text   string
	Region image.Rectangle
}

// rendered is a test image and what was drawn on it.
type Rendered struct {
	Img   *image.Gray
	Words []Word
}

// Render draws lines in Go Regular at size pixels, black on white,
// with generous margins, and records each word's region. It panics only
// if the embedded font cannot be parsed.
func Render(lines []string, size float64) Rendered {
	f, err := opentype.Parse(goregular.TTF)
	if err != nil {
		panic(err)
	}
	face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		panic(err)
	}
	defer face.Close()
	const margin, pad = 64, 2
	m := face.Metrics()
	lineHeight := m.Height.Ceil() * 3 / 2
	space := font.MeasureString(face, " ")
	width := 0
	for _, l := range lines {
		width = max(width, font.MeasureString(face, l).Ceil())
	}
	img := image.NewGray(image.Rect(0, 0, width+2*margin, len(lines)*lineHeight+2*margin))
	draw.Draw(img, img.Bounds(), image.White, image.Point{}, draw.Src)
	d := &font.Drawer{Dst: img, Src: image.NewUniform(color.Black), Face: face}
	var out Rendered
	for i, l := range lines {
		baseline := margin + m.Ascent.Ceil() + i*lineHeight
		x := fixed.I(margin)
		for _, w := range strings.Fields(l) {
			d.Dot = fixed.Point26_6{X: x, Y: fixed.I(baseline)}
			ink, adv := d.BoundString(w)
			d.DrawString(w)
			cell := image.Rect(x.Floor(), baseline-m.Ascent.Ceil(), (x + adv).Ceil(), baseline+m.Descent.Ceil())
			inkRect := image.Rect(ink.Min.X.Floor(), ink.Min.Y.Floor(), ink.Max.X.Ceil(), ink.Max.Y.Ceil())
			region := cell.Union(inkRect).Inset(-pad)
			out.Words = append(out.Words, Word{Text: w, Region: region})
			x += adv + space
		}
	}
	out.Img = img
	return out
}

// Encode encodes img in one of the accepted formats.
func Encode(tb testing.TB, img image.Image, format string) []byte {
	tb.Helper()
	var buf bytes.Buffer
	var err error
	switch format {
	case "png":
		err = png.Encode(&buf, img)
	case "jpeg":
		err = jpeg.Encode(&buf, img, &jpeg.Options{Quality: 90})
	case "bmp":
		err = bmp.Encode(&buf, img)
	case "tiff":
		err = tiff.Encode(&buf, img, &tiff.Options{Compression: tiff.Deflate})
	case "webp":
		err = webp.Encode(&buf, img, webp.Options{Lossless: true})
	default:
		tb.Fatalf("no encoder for %q", format)
	}
	if err != nil {
		tb.Fatalf("encode %s: %v", format, err)
	}
	return buf.Bytes()
}

// Normalize lower-cases a word and strips what is not a letter or digit.
func Normalize(w string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return unicode.ToLower(r)
		}
		return -1
	}, w)
}

// normalizeAll normalizes words, dropping those left empty.
func normalizeAll(words []string) []string {
	var out []string
	for _, w := range words {
		if n := Normalize(w); n != "" {
			out = append(out, n)
		}
	}
	return out
}

// WordAccuracy compares recognized words to the drawn ones, case and
// punctuation ignored: the longest common subsequence of the two, over
// the longer of them, so that missed, wrong and invented words all count.
func WordAccuracy(want, got []string) float64 {
	a, b := normalizeAll(want), normalizeAll(got)
	if len(a) == 0 && len(b) == 0 {
		return 1
	}
	prev, cur := make([]int, len(b)+1), make([]int, len(b)+1)
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			switch {
			case a[i-1] == b[j-1]:
				cur[j] = prev[j-1] + 1
			default:
				cur[j] = max(prev[j], cur[j-1])
			}
		}
		prev, cur = cur, prev
	}
	return float64(prev[len(b)]) / float64(max(len(a), len(b)))
}

// NeedTesseract ends the test when the tesseract CLI is not installed.
func NeedTesseract(tb testing.TB) {
	tb.Helper()
	if _, err := exec.LookPath("tesseract"); err != nil {
		testenv.Missing(tb, "tesseract is not installed (apt-get install tesseract-ocr tesseract-ocr-eng)")
	}
}
