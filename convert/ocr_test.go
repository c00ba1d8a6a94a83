package convert

import (
	"context"
	"image"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/webinfra/webinfra/internal/ocrtest"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/fetch"
)

// sample is the test image, ocrtest.Rendered once for every test.
var sample = sync.OnceValue(func() ocrtest.Rendered { return ocrtest.Render(ocrtest.SampleLines, 30) })

// loopbackFetcher lets the fetcher reach httptest servers.
func loopbackFetcher(t *testing.T) *fetch.Fetcher {
	t.Helper()
	f, err := fetch.New(&fetch.Options{AllowPrivateNetworks: true})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// newOCR builds an OCR or fails the test.
func newOCR(t testing.TB, f *fetch.Fetcher, opts *Options) *OCR {
	t.Helper()
	o, err := New(f, opts)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// drawnTexts lists the words drawn on the sample.
func drawnTexts(r ocrtest.Rendered) []string {
	var out []string
	for _, w := range r.Words {
		out = append(out, w.Text)
	}
	return out
}

func TestOCRFormats(t *testing.T) {
	t.Parallel()
	ocrtest.NeedTesseract(t)
	ocr := newOCR(t, nil, nil)
	r := sample()
	for _, format := range []string{FormatPNG, FormatJPEG, FormatWebP, FormatBMP, FormatTIFF} {
		t.Run(format, func(t *testing.T) {
			t.Parallel()
			res, err := ocr.OCR(t.Context(), OCRInput{ImageBase64: b64(ocrtest.Encode(t, r.Img, format)), Boxes: true})
			if err != nil {
				t.Fatal(err)
			}
			checkResult(t, res, r, format)
		})
	}
}

// checkResult checks a result against what was drawn: metadata, word
// accuracy, and that every recognized word lies inside a region where
// that word was drawn.
func checkResult(t *testing.T, res *OCRResult, r ocrtest.Rendered, format string) {
	t.Helper()
	b := r.Img.Bounds()
	if res.Format != format || res.Width != b.Dx() || res.Height != b.Dy() {
		t.Errorf("format %s %dx%d, want %s %dx%d", res.Format, res.Width, res.Height, format, b.Dx(), b.Dy())
	}
	if !strings.HasPrefix(res.Engine, "tesseract ") || len(res.Languages) != 1 || res.Languages[0] != "eng" {
		t.Errorf("engine %q languages %v", res.Engine, res.Languages)
	}
	acc := ocrtest.WordAccuracy(drawnTexts(r), strings.Fields(res.Text))
	t.Logf("%s: word accuracy %.1f%%, %d words, mean confidence %.1f", format, acc*100, res.WordCount, res.MeanConfidence)
	if acc < 0.95 {
		t.Errorf("word accuracy %.3f < 0.95; text:\n%s", acc, res.Text)
	}
	if res.MeanConfidence < 50 || res.MeanConfidence > 100 {
		t.Errorf("mean confidence %v", res.MeanConfidence)
	}
	if got := strings.Count(res.Text, "\n") + 1; got < len(ocrtest.SampleLines) {
		t.Errorf("text has %d lines, want at least %d:\n%s", got, len(ocrtest.SampleLines), res.Text)
	}
	if len(res.Words) != res.WordCount || len(res.Lines) < len(ocrtest.SampleLines) {
		t.Fatalf("%d words (word_count %d), %d lines", len(res.Words), res.WordCount, len(res.Lines))
	}
	matched := 0
	for _, w := range res.Words {
		box := image.Rect(w.Box.X, w.Box.Y, w.Box.X+w.Box.Width, w.Box.Y+w.Box.Height)
		candidates, inside := 0, false
		for _, d := range r.Words {
			if ocrtest.Normalize(d.Text) == ocrtest.Normalize(w.Text) {
				candidates++
				inside = inside || box.In(d.Region)
			}
		}
		switch {
		case candidates == 0:
			t.Logf("%s: recognized %q was not drawn; box not checked", format, w.Text)
		case !inside:
			t.Errorf("%s: box %v of %q lies outside every region where it was drawn", format, box, w.Text)
		default:
			matched++
		}
		if w.Line < 0 || w.Line >= len(res.Lines) || !strings.Contains(res.Lines[w.Line].Text, w.Text) {
			t.Errorf("word %q names line %d", w.Text, w.Line)
		} else if lb := res.Lines[w.Line].Box; !box.In(image.Rect(lb.X, lb.Y, lb.X+lb.Width, lb.Y+lb.Height)) {
			t.Errorf("word %q box %v is outside its line's %v", w.Text, box, lb)
		}
	}
	if matched < len(r.Words)*9/10 {
		t.Errorf("only %d of %d drawn words recognized with a box inside their region", matched, len(r.Words))
	}
}

func TestOCRWithoutBoxes(t *testing.T) {
	t.Parallel()
	ocrtest.NeedTesseract(t)
	ocr := newOCR(t, nil, nil)
	res, err := ocr.OCR(t.Context(), OCRInput{ImageBase64: b64(ocrtest.Encode(t, sample().Img, FormatPNG)), Languages: []string{"eng", "eng"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Words != nil || res.Lines != nil || res.WordCount == 0 || len(res.Languages) != 1 {
		t.Errorf("words %v lines %v count %d languages %v", res.Words, res.Lines, res.WordCount, res.Languages)
	}
}

func TestOCRFromURL(t *testing.T) {
	t.Parallel()
	ocrtest.NeedTesseract(t)
	png := ocrtest.Encode(t, sample().Img, FormatPNG)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/scan.txt": // a PNG served with a lying type: the bytes decide
			w.Header().Set("Content-Type", "text/plain; charset=iso-8859-1")
			w.Write(png)
		case "/redirect":
			http.Redirect(w, r, "/scan.txt", http.StatusFound)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	ocr := newOCR(t, loopbackFetcher(t), nil)
	for _, path := range []string{"/scan.txt", "/redirect"} {
		res, err := ocr.OCR(t.Context(), OCRInput{URL: srv.URL + path, Boxes: true})
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		checkResult(t, res, sample(), FormatPNG)
	}
	_, err := ocr.OCR(t.Context(), OCRInput{URL: srv.URL + "/missing.png"})
	if errs.KindOf(err) != errs.KindUpstream || !strings.Contains(err.Error(), "404") {
		t.Errorf("404: got %v (%s)", err, errs.KindOf(err))
	}
	// The default fetcher's SSRF guard refuses loopback.
	guarded := newOCR(t, nil, nil)
	if _, err := guarded.OCR(t.Context(), OCRInput{URL: srv.URL + "/scan.txt"}); errs.KindOf(err) != errs.KindForbidden {
		t.Errorf("loopback through the default fetcher: got %v (%s), want forbidden", err, errs.KindOf(err))
	}
}

func TestOCRMultiPageTIFFReadsFirstPageOnly(t *testing.T) {
	t.Parallel()
	ocrtest.NeedTesseract(t)
	r := sample()
	data := twoPageTIFF(t, r.Img, 60000)
	cut := firstTIFFPage(data)
	if string(cut) == string(data) || string(firstTIFFPage(cut)) != string(cut) {
		t.Fatal("firstTIFFPage did not clear the link to page two")
	}
	res, err := newOCR(t, nil, nil).OCR(t.Context(), OCRInput{ImageBase64: b64(data), Boxes: true})
	if err != nil {
		t.Fatal(err)
	}
	checkResult(t, res, r, FormatTIFF)
}

func TestOCRCancelled(t *testing.T) {
	t.Parallel()
	ocrtest.NeedTesseract(t)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err := newOCR(t, nil, nil).OCR(ctx, OCRInput{ImageBase64: b64(ocrtest.Encode(t, sample().Img, FormatPNG))})
	if err == nil || !strings.Contains(err.Error(), context.Canceled.Error()) {
		t.Errorf("got %v, want the context's error", err)
	}
}
