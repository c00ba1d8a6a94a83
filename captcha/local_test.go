package captcha_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/webinfra/webinfra/captcha"
	"github.com/webinfra/webinfra/captcha/captchatest"
	"github.com/webinfra/webinfra/errs"
)

// TestLocalSolver reads images with a fake OCR engine.
func TestLocalSolver(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name          string
		read          string
		err           error
		caseSensitive bool
		want          string
		kind          errs.Kind
	}{
		{name: "cleaned and lower-cased", read: " W6 8\nHP\u200b\n", want: "w68hp"},
		{name: "case kept", read: "W6 8\nHP\n", caseSensitive: true, want: "W68HP"},
		{name: "nothing read", read: " \n\f", kind: errs.KindUpstream},
		{name: "engine missing keeps its kind", err: errs.New(errs.KindUnavailable, "tesseract is not installed"), kind: errs.KindUnavailable},
		{name: "engine failure", err: errors.New("exit status 1"), kind: errs.KindUpstream},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var got []byte
			ocr := captcha.OCRFunc(func(_ context.Context, image []byte) (string, error) {
				got = image
				return tc.read, tc.err
			})
			c, _ := newClient(t, captcha.Options{OCR: ocr})
			sol, err := c.Solve(context.Background(), captcha.SolveRequest{Type: "image", ImageBase64: captchatest.PNGBase64, CaseSensitive: tc.caseSensitive})
			if !bytes.Equal(got, captchatest.PNG) {
				t.Error("the engine did not get the decoded image")
			}
			if tc.kind != "" {
				wantKind(t, err, tc.kind)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if sol.Text != tc.want || sol.Provider != "local" || sol.Type != "image" || sol.Token != "" {
				t.Errorf("solution %+v, want text %q from local", sol, tc.want)
			}
		})
	}
}

func TestLocalSolverRefusesTokens(t *testing.T) {
	t.Parallel()
	l := captcha.NewLocal(captcha.OCRFunc(func(context.Context, []byte) (string, error) { return "x", nil }), nil)
	if l.Supports(captcha.TypeTurnstile) || !l.Supports(captcha.TypeImage) {
		t.Error("local should support images only")
	}
	_, err := l.Solve(context.Background(), captcha.Task{Type: captcha.TypeTurnstile, SiteKey: turnstileKey, PageURL: pageURL})
	wantKind(t, err, errs.KindInvalid)
}

func TestCleanText(t *testing.T) {
	t.Parallel()
	if got := captcha.CleanText("\tAb C\r\n1 2\n", false); got != "abc12" {
		t.Errorf("got %q", got)
	}
	if got := captcha.CleanText("Ab C", true); got != "AbC" {
		t.Errorf("got %q", got)
	}
	if strings.Contains(captcha.CleanText("a\x00b", true), "\x00") {
		t.Error("control character kept")
	}
}
