package convert

import (
	"testing"

	"github.com/webinfra/webinfra/internal/ocrtest"
)

// BenchmarkOCR recognizes the 32-word sample as PNG, boxes included: one
// tesseract process per image, as a server call runs it.
func BenchmarkOCR(b *testing.B) {
	ocrtest.NeedTesseract(b)
	ocr := newOCR(b, nil, nil)
	in := OCRInput{ImageBase64: b64(ocrtest.Encode(b, sample().Img, FormatPNG)), Boxes: true}
	for b.Loop() {
		if _, err := ocr.OCR(b.Context(), in); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/image")
}
