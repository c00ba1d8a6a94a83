package server

import "github.com/webinfra/webinfra/convert"

// ConvertOcrRequest is the body of POST /v1/convert/ocr.
type ConvertOcrRequest struct {
	convert.OCRInput
}

func ocrInput(r *ConvertOcrRequest) convert.OCRInput { return r.OCRInput }
