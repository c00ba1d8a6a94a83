package captcha

import (
	"bytes"
	"encoding/base64"
	"math"
	"net/url"
	"strings"

	"github.com/webinfra/webinfra/errs"
)

// Input limits.
const (
	MaxImageBytes     = 1 << 20 // a decoded image
	maxImageBase64    = 1_500_000
	maxSiteKeyLength  = 256
	maxPageURLLength  = 8192
	maxActionLength   = 128
	maxHighestScore   = 0.9 // the best score solvers' workers reach
	imageFormatsNamed = "PNG, JPEG, GIF, WebP or BMP"
)

// SolveRequest is the input of POST /v1/captcha/solve.
type SolveRequest struct {
	Type          string  `json:"type" enum:"image,recaptcha_v2,recaptcha_v3,hcaptcha,turnstile" example:"recaptcha_v2" doc:"The captcha: image (a picture of text, answered with its text) or a widget answered with a token: recaptcha_v2, recaptcha_v3, hcaptcha, turnstile."`
	ImageBase64   string  `json:"image_base64,omitempty" maxLength:"1500000" doc:"type image: the image in base64 (standard or URL alphabet, padding optional; a data: URL is accepted). PNG, JPEG, GIF, WebP or BMP, at most 1 MiB decoded."`
	SiteKey       string  `json:"sitekey,omitempty" maxLength:"256" example:"6Le-wvkSAAAAAPBMRTvw0Q4Muexq9bi0DJwx_mJ-" doc:"Token types, required: the widget's site key (its data-sitekey, or the render= parameter of reCAPTCHA v3's api.js)."`
	PageURL       string  `json:"page_url,omitempty" maxLength:"8192" example:"https://www.google.com/recaptcha/api2/demo" doc:"Token types, required: the http(s) URL of the page the widget is on; the provider solves for it (this server does not fetch it). type image: optional context some providers use."`
	Action        string  `json:"action,omitempty" maxLength:"128" example:"login" doc:"recaptcha_v3: the action the page passes to grecaptcha.execute; turnstile: the widget's data-action. Optional."`
	MinScore      float64 `json:"min_score,omitempty" minimum:"0" maximum:"0.9" doc:"recaptcha_v3: the lowest score wanted, 0.1 to 0.9; 2Captcha rounds it up to 0.3, 0.7 or 0.9 and CapSolver ignores it. 0: 0.3."`
	Invisible     bool    `json:"invisible,omitempty" doc:"recaptcha_v2, hcaptcha: the widget is invisible (data-size=\"invisible\")."`
	Provider      string  `json:"provider,omitempty" enum:"2captcha,capsolver,local" doc:"The solver to use, which must be configured on the server; omitted: the first configured one that solves the type, in the order 2captcha, capsolver, local."`
	CaseSensitive bool    `json:"case_sensitive,omitempty" doc:"type image: the text's case matters (the providers are told; without it the local solver answers in lower case)."`
}

// Task checks the request and returns the task it asks for, or an
// errs.KindInvalid error naming the field.
func (r *SolveRequest) Task() (Task, error) {
	t := Task{
		Type:          Type(strings.TrimSpace(r.Type)),
		SiteKey:       strings.TrimSpace(r.SiteKey),
		PageURL:       strings.TrimSpace(r.PageURL),
		Action:        strings.TrimSpace(r.Action),
		MinScore:      r.MinScore,
		Invisible:     r.Invisible,
		CaseSensitive: r.CaseSensitive,
	}
	if err := checkType(t.Type); err != nil {
		return Task{}, err
	}
	if err := checkFieldsFor(t, r.ImageBase64 != ""); err != nil {
		return Task{}, err
	}
	if t.Type == TypeImage {
		img, err := DecodeImage(r.ImageBase64)
		if err != nil {
			return Task{}, err
		}
		t.Image = img
	} else if err := checkSiteKey("sitekey", t.SiteKey); err != nil {
		return Task{}, err
	}
	if t.PageURL != "" || t.Type.token() {
		if err := checkPageURL("page_url", t.PageURL); err != nil {
			return Task{}, err
		}
	}
	if t.Action != "" {
		if err := checkAction("action", t.Action); err != nil {
			return Task{}, err
		}
	}
	if math.IsNaN(t.MinScore) || t.MinScore < 0 || t.MinScore > maxHighestScore {
		return Task{}, errs.Invalid("min_score", "must be between 0 and %.1f (0: the provider's lowest)", maxHighestScore)
	}
	return t, nil
}

// checkType refuses an empty or unknown type.
func checkType(t Type) error {
	if t == "" {
		return errs.Invalid("type", "is required: one of %s", typeList())
	}
	for _, k := range Types {
		if t == k {
			return nil
		}
	}
	return errs.Invalid("type", "unknown captcha type %q: one of %s", t, typeList())
}

func typeList() string {
	names := make([]string, len(Types))
	for i, t := range Types {
		names[i] = string(t)
	}
	return strings.Join(names, ", ")
}

// checkFieldsFor refuses fields that do not apply to the task's type,
// which are usually a sign the type is wrong.
func checkFieldsFor(t Task, hasImage bool) error {
	switch {
	case t.Type == TypeImage && t.SiteKey != "":
		return errs.Invalid("sitekey", "is for widget captchas, not type image")
	case t.Type != TypeImage && hasImage:
		return errs.Invalid("image_base64", "is only for type image; a %s captcha is solved from its sitekey and page_url", t.Type)
	case t.Type != TypeImage && t.CaseSensitive:
		return errs.Invalid("case_sensitive", "is only for type image")
	case t.Action != "" && t.Type != TypeRecaptchaV3 && t.Type != TypeTurnstile:
		return errs.Invalid("action", "is only for recaptcha_v3 and turnstile")
	case t.MinScore != 0 && t.Type != TypeRecaptchaV3:
		return errs.Invalid("min_score", "is only for recaptcha_v3")
	case t.Invisible && t.Type != TypeRecaptchaV2 && t.Type != TypeHCaptcha:
		return errs.Invalid("invisible", "is only for recaptcha_v2 and hcaptcha (reCAPTCHA v3 and Turnstile need no flag)")
	}
	return nil
}

// checkSiteKey accepts the site keys of every widget: reCAPTCHA's
// 40-character keys, hCaptcha's UUIDs and Turnstile's 0x4... keys.
func checkSiteKey(field, key string) error {
	if key == "" {
		return errs.Invalid(field, "is required for widget captchas: the widget's data-sitekey")
	}
	if len(key) > maxSiteKeyLength {
		return errs.Invalid(field, "is longer than %d characters", maxSiteKeyLength)
	}
	if !onlyChars(key, "_-.") {
		return errs.Invalid(field, "may hold only letters, digits, '_', '-' and '.'")
	}
	return nil
}

// checkPageURL requires an absolute http(s) URL. It is never fetched
// here: the provider's workers solve for it.
func checkPageURL(field, raw string) error {
	if raw == "" {
		return errs.Invalid(field, "is required for widget captchas: the URL of the page the widget is on")
	}
	if len(raw) > maxPageURLLength {
		return errs.Invalid(field, "is longer than %d characters", maxPageURLLength)
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return errs.Invalid(field, "must be an absolute http or https URL")
	}
	return nil
}

// checkAction accepts reCAPTCHA's action names (letters, digits, '/' and
// '_') and Turnstile's ('-' too), with '.' and ':' tolerated.
func checkAction(field, action string) error {
	if len(action) > maxActionLength {
		return errs.Invalid(field, "is longer than %d characters", maxActionLength)
	}
	if !onlyChars(action, "_-/.:") {
		return errs.Invalid(field, "may hold only letters, digits and '_', '-', '/', '.', ':'")
	}
	return nil
}

// onlyChars reports whether s holds only ASCII letters, digits and the
// given punctuation.
func onlyChars(s, punct string) bool {
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		case r < 128 && strings.ContainsRune(punct, r):
		default:
			return false
		}
	}
	return true
}

// DecodeImage decodes image_base64: standard or URL-safe base64, padded
// or not, with line breaks or not, optionally as a data: URL. The image
// must be at most MaxImageBytes and a PNG, JPEG, GIF, WebP or BMP (by its
// magic bytes). Errors are errs.KindInvalid on "image_base64".
func DecodeImage(s string) ([]byte, error) {
	const field = "image_base64"
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, errs.Invalid(field, "is required for type image: the captcha image in base64")
	}
	if strings.HasPrefix(s, "data:") {
		head, data, ok := strings.Cut(s, ",")
		if !ok || !strings.HasSuffix(head, ";base64") {
			return nil, errs.Invalid(field, "is a data: URL that is not base64 (want data:image/png;base64,...)")
		}
		s = data
	}
	if len(s) > maxImageBase64 {
		return nil, errs.Invalid(field, "is over %d characters: the image must be at most 1 MiB", maxImageBase64)
	}
	s = strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || r == ' ' || r == '\t' {
			return -1
		}
		return r
	}, s)
	s = strings.TrimRight(s, "=")
	enc := base64.RawStdEncoding
	if strings.ContainsAny(s, "-_") {
		enc = base64.RawURLEncoding
	}
	img, err := enc.DecodeString(s)
	if err != nil {
		return nil, errs.Invalid(field, "is not valid base64")
	}
	switch {
	case len(img) == 0:
		return nil, errs.Invalid(field, "decodes to an empty image")
	case len(img) > MaxImageBytes:
		return nil, errs.Invalid(field, "decodes to %d bytes: the image must be at most 1 MiB", len(img))
	case SniffImage(img) == "":
		return nil, errs.Invalid(field, "is not a %s image", imageFormatsNamed)
	}
	return img, nil
}

// SniffImage names an image's format from its magic bytes: "png",
// "jpeg", "gif", "webp", "bmp", or "" for anything else.
func SniffImage(b []byte) string {
	switch {
	case bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")):
		return "png"
	case bytes.HasPrefix(b, []byte{0xFF, 0xD8, 0xFF}):
		return "jpeg"
	case bytes.HasPrefix(b, []byte("GIF87a")), bytes.HasPrefix(b, []byte("GIF89a")):
		return "gif"
	case len(b) >= 12 && string(b[:4]) == "RIFF" && string(b[8:12]) == "WEBP":
		return "webp"
	case len(b) >= 14 && string(b[:2]) == "BM":
		return "bmp"
	}
	return ""
}
