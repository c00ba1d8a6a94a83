package convert_test

import (
	"context"
	"encoding/base64"
	"fmt"
	"os"

	"github.com/webinfra/webinfra/convert"
	"github.com/webinfra/webinfra/errs"
)

// An image is read from a file and sent inline; with boxes, every word
// comes with where it is and how sure the engine is.
func ExampleOCR_OCR() {
	ocr, err := convert.New(nil, nil) // nil fetcher: the default, SSRF-guarded one
	if err != nil {
		panic(err)
	}
	data, err := os.ReadFile("scan.png")
	if err != nil {
		panic(err)
	}
	res, err := ocr.OCR(context.Background(), convert.OCRInput{
		ImageBase64: base64.StdEncoding.EncodeToString(data),
		Languages:   []string{"eng"},
		Boxes:       true,
	})
	if err != nil {
		fmt.Println(errs.KindOf(err), err) // e.g. unavailable: tesseract is not in PATH ...
		return
	}
	fmt.Println(res.Text)
	for _, w := range res.Words {
		fmt.Printf("%s %.0f%% at %d,%d\n", w.Text, w.Confidence, w.Box.X, w.Box.Y)
	}
}

// Anything but PNG, JPEG, WebP, BMP or TIFF is refused from its bytes,
// before any engine runs.
func ExampleOCR_OCR_refused() {
	ocr, err := convert.New(nil, nil)
	if err != nil {
		panic(err)
	}
	gif := []byte("GIF89a\x01\x00\x01\x00\x00\x00\x00;")
	_, err = ocr.OCR(context.Background(), convert.OCRInput{ImageBase64: base64.StdEncoding.EncodeToString(gif)})
	fmt.Println(errs.KindOf(err), errs.FieldOf(err))
	// Output: invalid image_base64
}
