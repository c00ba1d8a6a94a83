package server_test

import (
	"encoding/base64"
	"path/filepath"
	"strings"
	"testing"

	"github.com/webinfra/webinfra/convert"
	"github.com/webinfra/webinfra/internal/ocrtest"
	"github.com/webinfra/webinfra/server"
)

// OCR through the catalog: a drawn PNG comes back as its text, with boxes
// on request, for one credit; a refused image or a missing engine costs
// nothing.
func TestConvertOCR(t *testing.T) {
	t.Parallel()
	ocrtest.NeedTesseract(t)
	e := newEnv(t)
	key := e.signup("ocr@example.com")
	drawn := ocrtest.Render(ocrtest.SampleLines, 30)
	img := base64.StdEncoding.EncodeToString(ocrtest.Encode(t, drawn.Img, "png"))

	var out struct {
		Text   string `json:"text"`
		Format string `json:"format"`
		Words  []struct {
			Text string `json:"text"`
		} `json:"words"`
	}
	r := e.want(e.call("POST", "/v1/convert/ocr", key, map[string]any{"image_base64": img, "boxes": true}), 200)
	r.json(t, &out)
	var want []string
	for _, w := range drawn.Words {
		want = append(want, w.Text)
	}
	if acc := ocrtest.WordAccuracy(want, strings.Fields(out.Text)); acc < 0.95 || out.Format != "png" || len(out.Words) == 0 {
		t.Errorf("OCR: accuracy %.2f, format %q, %d words; text %q", acc, out.Format, len(out.Words), out.Text)
	}
	if r.header.Get("X-Credits-Charged") != "1" {
		t.Errorf("charged %s", r.header.Get("X-Credits-Charged"))
	}
	e.want(e.call("POST", "/v1/convert/ocr", key, map[string]any{"image_base64": base64.StdEncoding.EncodeToString([]byte("GIF89a not really"))}), 422)
	e.want(e.call("POST", "/v1/convert/ocr", key, map[string]any{}), 422)
	if got := e.balance(key); got != 999 {
		t.Errorf("balance %d after one OCR and two refusals, want 999", got)
	}
}

func TestConvertOCRWithoutEngine(t *testing.T) {
	t.Parallel()
	ocr, err := convert.New(nil, &convert.Options{TesseractPath: filepath.Join(t.TempDir(), "no-tesseract")})
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, withServer(func(o *server.Options) { o.OCR = ocr }))
	key := e.signup("noocr@example.com")
	img := base64.StdEncoding.EncodeToString(ocrtest.Encode(t, ocrtest.Render([]string{"hello"}, 30).Img, "png"))
	r := e.want(e.call("POST", "/v1/convert/ocr", key, map[string]any{"image_base64": img}), 503)
	if !strings.Contains(r.detail(t), "--tesseract") {
		t.Errorf("503 does not name the setting: %s", r.body)
	}
	if got := e.balance(key); got != 1000 {
		t.Errorf("balance %d after a 503", got)
	}
}
