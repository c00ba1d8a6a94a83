package captcha

import (
	"context"
	"encoding/base64"

	"github.com/webinfra/webinfra/convert"
)

// ConvertOCR adapts the convert package's OCR (tesseract) to the local
// solver: the image is read as one block of text in English.
func ConvertOCR(o *convert.OCR) OCR {
	return OCRFunc(func(ctx context.Context, image []byte) (string, error) {
		res, err := o.OCR(ctx, convert.OCRInput{ImageBase64: base64.StdEncoding.EncodeToString(image)})
		if err != nil {
			return "", err
		}
		return res.Text, nil
	})
}
