package convert

import (
	"bytes"
	"image"
	"image/gif"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/webinfra/webinfra/internal/ocrtest"

	"github.com/webinfra/webinfra/errs"
)

// fakeTesseract writes a shell script that answers --version and
// --list-langs like tesseract (eng and osd installed) and, asked to
// recognize, appends a line to a log and runs body. It returns the
// script's path and the log's.
func fakeTesseract(t *testing.T, body string) (bin, log string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the fake tesseract is a shell script")
	}
	dir := t.TempDir()
	bin, log = filepath.Join(dir, "tesseract"), filepath.Join(dir, "runs.log")
	script := `#!/bin/sh
case "$1" in
--version) echo "tesseract 5.3.0-fake"; echo " leptonica-1.82.0" ;;
--list-langs) echo 'List of available languages in "/fake/" (2):'; echo eng; echo osd ;;
*) echo "$@" >> '` + log + `'
` + body + `
;;
esac
`
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return bin, log
}

// ran reports whether the fake tesseract was asked to recognize.
func ran(t *testing.T, log string) bool {
	t.Helper()
	_, err := os.Stat(log)
	return err == nil
}

// wantErr checks an error's kind, field and message.
func wantErr(t *testing.T, err error, kind errs.Kind, field string, says ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want %s", kind)
	}
	if errs.KindOf(err) != kind || errs.FieldOf(err) != field {
		t.Fatalf("got %s on %q (%v), want %s on %q", errs.KindOf(err), errs.FieldOf(err), err, kind, field)
	}
	for _, s := range says {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q does not say %q", err, s)
		}
	}
}

func gifBytes(t *testing.T) []byte {
	var buf bytes.Buffer
	if err := gif.Encode(&buf, image.NewGray(image.Rect(0, 0, 4, 4)), nil); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestOCRRefusesBadInput(t *testing.T) {
	t.Parallel()
	bin, log := fakeTesseract(t, `echo "must not run" >&2; exit 1`)
	ocr := newOCR(t, nil, &Options{TesseractPath: bin, MaxBytes: 64 << 10})
	png := b64(ocrtest.Encode(t, sample().Img, FormatPNG))
	for _, c := range []struct {
		name  string
		in    OCRInput
		kind  errs.Kind
		field string
		says  []string
	}{
		{"no source", OCRInput{}, errs.KindInvalid, "image_base64", []string{"image_base64 or url"}},
		{"both sources", OCRInput{ImageBase64: png, URL: "https://example.com/a.png"}, errs.KindInvalid, "url", []string{"not both"}},
		{"bad base64", OCRInput{ImageBase64: "iVBOR!!!not base64"}, errs.KindInvalid, "image_base64", []string{"not valid base64"}},
		{"gif", OCRInput{ImageBase64: b64(gifBytes(t))}, errs.KindInvalid, "image_base64", []string{"PNG, JPEG, WebP, BMP or TIFF", "image/gif"}},
		{"plain text", OCRInput{ImageBase64: b64([]byte("hello, I am not an image\n"))}, errs.KindInvalid, "image_base64", []string{"PNG, JPEG, WebP, BMP or TIFF", "text/plain"}},
		{"damaged png", OCRInput{ImageBase64: b64([]byte("\x89PNG\r\n\x1a\n\x00\x00"))}, errs.KindInvalid, "image_base64", []string{"PNG image whose header cannot be read"}},
		{"bomb: huge sides", OCRInput{ImageBase64: b64(bombPNG(100000, 100000))}, errs.KindTooLarge, "image_base64", []string{"100000 x 100000", "10000 pixels"}},
		{"bomb: too many pixels", OCRInput{ImageBase64: b64(bombPNG(9000, 9000))}, errs.KindTooLarge, "image_base64", []string{"81000000 pixels", "limit is 40000000"}},
		{"empty image", OCRInput{ImageBase64: b64(bombPNG(0, 10))}, errs.KindInvalid, "image_base64", nil},
		{"too many bytes", OCRInput{ImageBase64: b64(bytes.Repeat([]byte{0}, 65<<10))}, errs.KindTooLarge, "image_base64", []string{"at most 65536"}},
		{"too much base64", OCRInput{ImageBase64: strings.Repeat("A", 200<<10)}, errs.KindTooLarge, "image_base64", []string{"characters of base64"}},
		{"too many languages", OCRInput{ImageBase64: png, Languages: []string{"eng", "deu", "fra", "ita", "spa", "por"}}, errs.KindInvalid, "languages", []string{"at most 5"}},
		{"option as language", OCRInput{ImageBase64: png, Languages: []string{"-c"}}, errs.KindInvalid, "languages", []string{"not a language code"}},
		{"path as language", OCRInput{ImageBase64: png, Languages: []string{"../eng"}}, errs.KindInvalid, "languages", []string{"not a language code"}},
		{"osd", OCRInput{ImageBase64: png, Languages: []string{"osd"}}, errs.KindInvalid, "languages", []string{"recognizes no text"}},
		{"not installed", OCRInput{ImageBase64: png, Languages: []string{"eng", "deu"}}, errs.KindInvalid, "languages", []string{`"deu" is not installed`, "installed: eng"}},
		{"ftp url", OCRInput{URL: "ftp://example.com/a.png"}, errs.KindInvalid, "url", []string{"http or https"}},
		{"url with credentials", OCRInput{URL: "https://u:p@example.com/a.png"}, errs.KindInvalid, "url", []string{"credentials"}},
		{"long url", OCRInput{URL: "https://example.com/" + strings.Repeat("a", MaxURLLength)}, errs.KindInvalid, "url", []string{"at most 8192"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ocr.OCR(t.Context(), c.in)
			wantErr(t, err, c.kind, c.field, c.says...)
		})
	}
	if ran(t, log) {
		t.Error("tesseract ran on refused input")
	}
}

func TestOCRRefusesBadURLImage(t *testing.T) {
	t.Parallel()
	bin, log := fakeTesseract(t, `echo "must not run" >&2; exit 1`)
	bomb := bombPNG(100000, 100000)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/bomb.png":
			w.Header().Set("Content-Type", "image/png")
			w.Write(bomb)
		case "/big.png":
			w.Header().Set("Content-Type", "image/png")
			w.Write(bytes.Repeat([]byte{'x'}, 70<<10))
		case "/big-chunked.png":
			w.(http.Flusher).Flush() // no Content-Length: the read cap decides
			w.Write(bytes.Repeat([]byte{'x'}, 70<<10))
		case "/page.png": // the name says PNG, the bytes say HTML
			w.Header().Set("Content-Type", "image/png")
			w.Write([]byte("<!doctype html><title>not an image</title>"))
		}
	}))
	t.Cleanup(srv.Close)
	ocr := newOCR(t, loopbackFetcher(t), &Options{TesseractPath: bin, MaxBytes: 64 << 10})
	for _, c := range []struct {
		path string
		kind errs.Kind
		says string
	}{
		{"/bomb.png", errs.KindTooLarge, "10000 pixels"},
		{"/big.png", errs.KindTooLarge, "at most 65536"},
		{"/big-chunked.png", errs.KindTooLarge, "at most 65536"},
		{"/page.png", errs.KindInvalid, "text/html"},
	} {
		_, err := ocr.OCR(t.Context(), OCRInput{URL: srv.URL + c.path})
		wantErr(t, err, c.kind, "url", c.says)
	}
	if ran(t, log) {
		t.Error("tesseract ran on a refused image")
	}
}

func TestOCRTesseractMissing(t *testing.T) {
	t.Parallel()
	missing := filepath.Join(t.TempDir(), "no-tesseract-here")
	ocr := newOCR(t, nil, &Options{TesseractPath: missing})
	_, err := ocr.OCR(t.Context(), OCRInput{ImageBase64: b64(ocrtest.Encode(t, sample().Img, FormatPNG))})
	wantErr(t, err, errs.KindUnavailable, "", missing,
		"install tesseract-ocr (apt-get install tesseract-ocr tesseract-ocr-eng)", "--tesseract PATH")
	_, err = ocr.Info(t.Context())
	wantErr(t, err, errs.KindUnavailable, "", "--tesseract PATH")
	// A URL is not fetched when there is no engine to take the image.
	_, err = ocr.OCR(t.Context(), OCRInput{URL: "http://127.0.0.1:1/never-fetched.png"})
	wantErr(t, err, errs.KindUnavailable, "", "apt-get install")
}

func TestOCRNotInPath(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	_, err := newOCR(t, nil, nil).OCR(t.Context(), OCRInput{ImageBase64: b64(ocrtest.Encode(t, sample().Img, FormatPNG))})
	wantErr(t, err, errs.KindUnavailable, "", "not in PATH", "apt-get install tesseract-ocr")
}

func TestOptionsRefused(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		opts  Options
		field string
	}{
		{Options{MaxBytes: -1}, "options.max_bytes"},
		{Options{MaxPixels: -1}, "options.max_pixels"},
		{Options{MaxSide: -1}, "options.max_side"},
		{Options{Timeout: -1}, "options.timeout"},
		{Options{Concurrency: -1}, "options.concurrency"},
	} {
		_, err := New(nil, &c.opts)
		wantErr(t, err, errs.KindInvalid, c.field)
	}
}

func TestDecodeBase64Variants(t *testing.T) {
	t.Parallel()
	data := []byte("\x89PNG\r\n\x1a\n\xfb\xff\xfe")
	std := b64(data)
	for _, s := range []string{
		std,
		strings.TrimRight(std, "="),
		strings.NewReplacer("+", "-", "/", "_").Replace(std),
		"data:image/png;base64," + std,
		std[:4] + "\r\n" + std[4:],
	} {
		got, err := decodeBase64(s, 1<<10)
		if err != nil || !bytes.Equal(got, data) {
			t.Errorf("decodeBase64(%q) = %q, %v", s, got, err)
		}
	}
}
