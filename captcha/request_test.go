package captcha_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"strings"
	"testing"

	"github.com/webinfra/webinfra/captcha"
	"github.com/webinfra/webinfra/captcha/captchatest"
	"github.com/webinfra/webinfra/errs"
)

// TestValidation: bad input is errs.KindInvalid naming the field, and
// reaches no provider.
func TestValidation(t *testing.T) {
	t.Parallel()
	srv := fakes(t, captchatest.TwoCaptcha, captchatest.Config{})
	c, _ := newClient(t, optionsFor(srv, captchatest.TwoCaptcha))
	png := captchatest.PNGBase64
	big := base64.StdEncoding.EncodeToString(append(append([]byte(nil), captchatest.PNG...), make([]byte, captcha.MaxImageBytes)...))
	cases := []struct {
		name  string
		req   captcha.SolveRequest
		field string
		says  string
	}{
		{"no type", captcha.SolveRequest{}, "type", "required"},
		{"unknown type", captcha.SolveRequest{Type: "funcaptcha"}, "type", "image, recaptcha_v2, recaptcha_v3, hcaptcha, turnstile"},
		{"image without image", captcha.SolveRequest{Type: "image"}, "image_base64", "required"},
		{"image not base64", captcha.SolveRequest{Type: "image", ImageBase64: "not base64!"}, "image_base64", "not valid base64"},
		{"image not an image", captcha.SolveRequest{Type: "image", ImageBase64: base64.StdEncoding.EncodeToString([]byte("hello world"))}, "image_base64", "PNG, JPEG"},
		{"image too large", captcha.SolveRequest{Type: "image", ImageBase64: big}, "image_base64", "1 MiB"},
		{"image data URL not base64", captcha.SolveRequest{Type: "image", ImageBase64: "data:image/png," + png}, "image_base64", "data: URL"},
		{"image with sitekey", captcha.SolveRequest{Type: "image", ImageBase64: png, SiteKey: recaptchaKey}, "sitekey", "not type image"},
		{"image with bad page_url", captcha.SolveRequest{Type: "image", ImageBase64: png, PageURL: "example.com"}, "page_url", "absolute"},
		{"token without sitekey", captcha.SolveRequest{Type: "recaptcha_v2", PageURL: pageURL}, "sitekey", "required"},
		{"token with bad sitekey", captcha.SolveRequest{Type: "recaptcha_v2", SiteKey: "6Le key", PageURL: pageURL}, "sitekey", "only letters"},
		{"token with long sitekey", captcha.SolveRequest{Type: "turnstile", SiteKey: strings.Repeat("a", 257), PageURL: pageURL}, "sitekey", "longer"},
		{"token without page_url", captcha.SolveRequest{Type: "hcaptcha", SiteKey: hcaptchaKey}, "page_url", "required"},
		{"token with relative page_url", captcha.SolveRequest{Type: "hcaptcha", SiteKey: hcaptchaKey, PageURL: "/login"}, "page_url", "absolute"},
		{"token with ftp page_url", captcha.SolveRequest{Type: "hcaptcha", SiteKey: hcaptchaKey, PageURL: "ftp://example.com/"}, "page_url", "http"},
		{"token with image", captcha.SolveRequest{Type: "recaptcha_v2", SiteKey: recaptchaKey, PageURL: pageURL, ImageBase64: png}, "image_base64", "only for type image"},
		{"token with case", captcha.SolveRequest{Type: "turnstile", SiteKey: turnstileKey, PageURL: pageURL, CaseSensitive: true}, "case_sensitive", "only for type image"},
		{"v2 with action", captcha.SolveRequest{Type: "recaptcha_v2", SiteKey: recaptchaKey, PageURL: pageURL, Action: "login"}, "action", "recaptcha_v3 and turnstile"},
		{"v3 with bad action", captcha.SolveRequest{Type: "recaptcha_v3", SiteKey: recaptchaKey, PageURL: pageURL, Action: "log in"}, "action", "only letters"},
		{"v3 with score too high", captcha.SolveRequest{Type: "recaptcha_v3", SiteKey: recaptchaKey, PageURL: pageURL, MinScore: 0.95}, "min_score", "0.9"},
		{"v3 with negative score", captcha.SolveRequest{Type: "recaptcha_v3", SiteKey: recaptchaKey, PageURL: pageURL, MinScore: -1}, "min_score", "between"},
		{"turnstile with score", captcha.SolveRequest{Type: "turnstile", SiteKey: turnstileKey, PageURL: pageURL, MinScore: 0.3}, "min_score", "only for recaptcha_v3"},
		{"v3 invisible", captcha.SolveRequest{Type: "recaptcha_v3", SiteKey: recaptchaKey, PageURL: pageURL, Invisible: true}, "invisible", "recaptcha_v2 and hcaptcha"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := c.Solve(context.Background(), tc.req)
			wantKind(t, err, errs.KindInvalid)
			if errs.FieldOf(err) != tc.field || !strings.Contains(err.Error(), tc.says) {
				t.Errorf("%q (field %q), want field %q saying %q", err, errs.FieldOf(err), tc.field, tc.says)
			}
		})
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d requests reached the provider", n)
	}
}

// TestDecodeImage accepts the base64 spellings callers send.
func TestDecodeImage(t *testing.T) {
	t.Parallel()
	img := captchatest.PNG
	std := base64.StdEncoding.EncodeToString(img)
	var wrapped strings.Builder
	for i := 0; i < len(std); i += 60 {
		wrapped.WriteString(std[i:min(len(std), i+60)] + "\r\n")
	}
	urlSafe := base64.RawURLEncoding.EncodeToString(append(append([]byte(nil), img...), 0xfb, 0xff, 0xfe))
	for name, in := range map[string]string{
		"standard":  std,
		"unpadded":  base64.RawStdEncoding.EncodeToString(img),
		"data URL":  "data:image/png;base64," + std,
		"wrapped":   wrapped.String(),
		"spaced":    "  " + std + "\n",
		"URL-safe":  urlSafe,
		"URL-safe=": urlSafe + "=",
	} {
		got, err := captcha.DecodeImage(in)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if !bytes.HasPrefix(got, img) {
			t.Errorf("%s: decoded to other bytes", name)
		}
	}
}

func TestSniffImage(t *testing.T) {
	t.Parallel()
	for want, b := range map[string][]byte{
		"png":  captchatest.PNG,
		"jpeg": {0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10, 'J', 'F', 'I', 'F'},
		"gif":  []byte("GIF89a\x01\x00\x01\x00"),
		"webp": []byte("RIFF\x24\x00\x00\x00WEBPVP8 "),
		"bmp":  append([]byte("BM"), make([]byte, 20)...),
		"":     []byte("<svg xmlns='http://www.w3.org/2000/svg'/>"),
	} {
		if got := captcha.SniffImage(b); got != want {
			t.Errorf("SniffImage = %q, want %q", got, want)
		}
	}
}
