package convert

import (
	"context"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/webinfra/webinfra/internal/ocrtest"

	"github.com/webinfra/webinfra/errs"
)

func TestOCRTimeout(t *testing.T) {
	t.Parallel()
	// The fake's child sleeps on: killing only the shell would leave it
	// holding stdout open, so this also checks the process-group kill.
	bin, _ := fakeTesseract(t, `sleep 60; echo done`)
	ocr := newOCR(t, nil, &Options{TesseractPath: bin, Timeout: 300 * time.Millisecond})
	start := time.Now()
	_, err := ocr.OCR(t.Context(), OCRInput{ImageBase64: b64(ocrtest.Encode(t, sample().Img, FormatPNG))})
	wantErr(t, err, errs.KindTimeout, "", "did not finish within 300ms")
	if took := time.Since(start); took > 30*time.Second {
		t.Errorf("the timed-out call took %s", took)
	}
}

func TestOCRTesseractFails(t *testing.T) {
	t.Parallel()
	png := b64(ocrtest.Encode(t, sample().Img, FormatPNG))
	for _, c := range []struct {
		name, body string
		kind       errs.Kind
		field      string
		says       string
	}{
		{"unreadable image", `cat >/dev/null; echo "Error in pixReadMem: Unknown format: no pix returned" >&2; exit 1`,
			errs.KindInvalid, "image_base64", "could not read the image: Error in pixReadMem"},
		{"crash", `cat >/dev/null; echo "Segmentation fault" >&2; exit 139`, errs.KindInternal, "", "Segmentation fault"},
		{"garbage output", `cat >/dev/null; echo "this is not TSV"`, errs.KindInternal, "", "unexpected header"},
		{"no output", `cat >/dev/null`, errs.KindInternal, "", "wrote no TSV"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			bin, _ := fakeTesseract(t, c.body)
			_, err := newOCR(t, nil, &Options{TesseractPath: bin}).OCR(t.Context(), OCRInput{ImageBase64: png})
			wantErr(t, err, c.kind, c.field, c.says)
		})
	}
}

func TestTesseractArgs(t *testing.T) {
	t.Parallel()
	bin, log := fakeTesseract(t, `cat >/dev/null; printf 'level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n'`)
	ocr := newOCR(t, nil, &Options{TesseractPath: bin})
	res, err := ocr.OCR(t.Context(), OCRInput{ImageBase64: b64(ocrtest.Encode(t, sample().Img, FormatPNG))})
	if err != nil {
		t.Fatal(err)
	}
	if res.Engine != "tesseract 5.3.0-fake" || res.WordCount != 0 || res.Text != "" || res.MeanConfidence != 0 {
		t.Errorf("result %+v", res)
	}
	args, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.TrimSpace(string(args)), "stdin stdout -l eng --psm 3 tsv"; got != want {
		t.Errorf("tesseract ran with %q, want %q", got, want)
	}
}

// blockingEngine holds every Recognize until released, whatever its
// context says: an engine that ignores its deadline keeps its slot.
type blockingEngine struct {
	started chan struct{}
	release chan struct{}
}

func (e *blockingEngine) Info(context.Context) (EngineInfo, error) {
	return EngineInfo{Name: "blocking 1.0", Languages: []string{"eng"}}, nil
}

func (e *blockingEngine) Recognize(ctx context.Context, img []byte, langs []string) ([]EngineWord, error) {
	e.started <- struct{}{}
	<-e.release
	return nil, errors.New("released")
}

func TestOCRBusy(t *testing.T) {
	t.Parallel()
	eng := &blockingEngine{started: make(chan struct{}, 1), release: make(chan struct{})}
	ocr := newOCR(t, nil, &Options{Engine: eng, Concurrency: 1, Timeout: 200 * time.Millisecond})
	in := OCRInput{ImageBase64: b64(ocrtest.Encode(t, sample().Img, FormatPNG))}
	first := make(chan error, 1)
	go func() {
		_, err := ocr.OCR(context.Background(), in)
		first <- err
	}()
	<-eng.started
	_, err := ocr.OCR(t.Context(), in)
	wantErr(t, err, errs.KindUnavailable, "", "all 1 OCR slots stayed busy for 200ms")
	var e *errs.Error
	if !errors.As(err, &e) || e.RetryAfter <= 0 {
		t.Errorf("no RetryAfter on %v", err)
	}
	close(eng.release)
	wantErr(t, <-first, errs.KindTimeout, "", "did not finish within 200ms")
}

func TestParseTSV(t *testing.T) {
	t.Parallel()
	tsv := strings.Join(tsvColumns, "\t") + "\n" +
		"1\t1\t0\t0\t0\t0\t0\t0\t800\t200\t-1\t\n" +
		"2\t1\t1\t0\t0\t0\t10\t10\t300\t80\t-1\t\n" +
		"4\t1\t1\t1\t1\t0\t10\t10\t300\t30\t-1\t\n" +
		"5\t1\t1\t1\t1\t1\t10\t10\t100\t30\t95.5\tHello\n" +
		"5\t1\t1\t1\t1\t2\t120\t12\t90\t28\t91.25\tworld,\n" +
		"5\t1\t1\t1\t2\t1\t10\t50\t60\t30\t88\tsecond\n" +
		"5\t1\t1\t1\t2\t2\t80\t50\t60\t30\t-1\t \n" +
		"5\t1\t2\t1\t1\t1\t10\t150\t70\t30\t80\tnext\n" +
		"5\t2\t1\t1\t1\t1\t10\t10\t70\t30\t99\tpage2\n"
	words, err := parseTSV([]byte(tsv))
	if err != nil {
		t.Fatal(err)
	}
	want := []EngineWord{
		{Text: "Hello", Confidence: 95.5, Box: Box{10, 10, 100, 30}, Block: 1, Paragraph: 1, Line: 1},
		{Text: "world,", Confidence: 91.25, Box: Box{120, 12, 90, 28}, Block: 1, Paragraph: 1, Line: 1},
		{Text: "second", Confidence: 88, Box: Box{10, 50, 60, 30}, Block: 1, Paragraph: 1, Line: 2},
		{Text: "next", Confidence: 80, Box: Box{10, 150, 70, 30}, Block: 2, Paragraph: 1, Line: 1},
	}
	if !reflect.DeepEqual(words, want) {
		t.Fatalf("parseTSV:\n got %+v\nwant %+v", words, want)
	}
	res := assemble(words, true)
	if res.Text != "Hello world,\nsecond\n\nnext" || res.WordCount != 4 || res.MeanConfidence != 88.69 {
		t.Errorf("assemble: %q, %d words, mean %v", res.Text, res.WordCount, res.MeanConfidence)
	}
	wantLines := []Line{
		{Text: "Hello world,", Confidence: 93.38, Box: Box{10, 10, 200, 30}},
		{Text: "second", Confidence: 88, Box: Box{10, 50, 60, 30}},
		{Text: "next", Confidence: 80, Box: Box{10, 150, 70, 30}},
	}
	if !reflect.DeepEqual(res.Lines, wantLines) || res.Words[3].Line != 2 || res.Words[1].Line != 0 {
		t.Errorf("lines %+v words %+v", res.Lines, res.Words)
	}
	if plain := assemble(words, false); plain.Words != nil || plain.Lines != nil || plain.Text != res.Text {
		t.Errorf("without boxes: %+v", plain)
	}
	for _, bad := range []string{"", "not\ta\theader\n", strings.Join(tsvColumns, "\t") + "\n5\t1\tx\n",
		strings.Join(tsvColumns, "\t") + "\n5\t1\t1\t1\t1\t1\t1\t1\t1\t1\tnan?\tw\n"} {
		if _, err := parseTSV([]byte(bad)); errs.KindOf(err) != errs.KindInternal {
			t.Errorf("parseTSV(%q) = %v, want an internal error", bad, err)
		}
	}
}

func TestParseLanguages(t *testing.T) {
	t.Parallel()
	out := "List of available languages in \"/usr/share/tesseract-ocr/5/tessdata/\" (4):\neng\nosd\nchi_sim\nscript/Latin\neng\n"
	if got, want := parseLanguages([]byte(out)), []string{"chi_sim", "eng", "script/Latin"}; !reflect.DeepEqual(got, want) {
		t.Errorf("parseLanguages = %v, want %v", got, want)
	}
	if got := parseVersion([]byte("tesseract 5.3.0\n leptonica-1.82.0\n")); got != "tesseract 5.3.0" {
		t.Errorf("parseVersion = %q", got)
	}
}

func TestCappedBuffer(t *testing.T) {
	t.Parallel()
	strict := &cappedBuffer{limit: 4, strict: true}
	if n, err := strict.Write([]byte("abcdef")); n != 4 || err == nil || !strict.over || strict.String() != "abcd" {
		t.Errorf("strict: n %d err %v over %v %q", n, err, strict.over, strict.String())
	}
	lax := &cappedBuffer{limit: 4}
	if n, err := lax.Write([]byte("abcdef")); n != 6 || err != nil || lax.String() != "abcd" {
		t.Errorf("lax: n %d err %v %q", n, err, lax.String())
	}
}
