package captcha

import (
	"encoding/base64"
	"time"
)

// dialect is what differs between two createTask/getTaskResult APIs: the
// task type names and fields, the defaults and the settings.
type dialect struct {
	name       string // the provider's name in routing and errors
	defaultURL string
	keyFlag    string // the server flag and environment variable of the key
	keyEnv     string
	urlFlag    string
	types      map[Type]string // our type → the provider's task type
	task       func(providerType string, t Task) map[string]any
	// retryAfter is how long to wait after a "busy" error code.
	retryAfter time.Duration
}

// setting names the flag and environment variable of the dialect's key.
func (d *dialect) setting() string { return d.keyFlag + " (" + d.keyEnv + ")" }

// twoCaptcha speaks 2Captcha's API v2 (https://2captcha.com/api-docs),
// whose task ids are numbers.
var twoCaptcha = &dialect{
	name:       ProviderTwoCaptcha,
	defaultURL: "https://api.2captcha.com",
	keyFlag:    "--twocaptcha-key",
	keyEnv:     "WEBINFRA_TWOCAPTCHA_KEY",
	urlFlag:    "--twocaptcha-url",
	types: map[Type]string{
		TypeImage:       "ImageToTextTask",
		TypeRecaptchaV2: "RecaptchaV2TaskProxyless",
		TypeRecaptchaV3: "RecaptchaV3TaskProxyless",
		TypeHCaptcha:    "HCaptchaTaskProxyless",
		TypeTurnstile:   "TurnstileTaskProxyless",
	},
	task:       twoCaptchaTask,
	retryAfter: 5 * time.Second,
}

// twoCaptchaTask builds a 2Captcha task object.
func twoCaptchaTask(providerType string, t Task) map[string]any {
	m := map[string]any{"type": providerType}
	switch t.Type {
	case TypeImage:
		imageTask(m, t)
		return m
	case TypeRecaptchaV2, TypeHCaptcha:
		m["isInvisible"] = t.Invisible
	case TypeRecaptchaV3:
		m["minScore"] = twoCaptchaScore(t.MinScore)
		if t.Action != "" {
			m["pageAction"] = t.Action
		}
	case TypeTurnstile:
		if t.Action != "" {
			m["action"] = t.Action
		}
	}
	m["websiteURL"], m["websiteKey"] = t.PageURL, t.SiteKey
	return m
}

// twoCaptchaScore rounds a wanted score up to the worker pools 2Captcha
// offers: 0.3, 0.7 and 0.9 (0: the lowest).
func twoCaptchaScore(s float64) float64 {
	switch {
	case s <= 0.3:
		return 0.3
	case s <= 0.7:
		return 0.7
	}
	return 0.9
}

// capSolver speaks CapSolver's API (https://docs.capsolver.com), whose
// task ids are strings and which answers ImageToTextTask in createTask.
// It has no hCaptcha task.
var capSolver = &dialect{
	name:       ProviderCapSolver,
	defaultURL: "https://api.capsolver.com",
	keyFlag:    "--capsolver-key",
	keyEnv:     "WEBINFRA_CAPSOLVER_KEY",
	urlFlag:    "--capsolver-url",
	types: map[Type]string{
		TypeImage:       "ImageToTextTask",
		TypeRecaptchaV2: "ReCaptchaV2TaskProxyLess",
		TypeRecaptchaV3: "ReCaptchaV3TaskProxyLess",
		TypeTurnstile:   "AntiTurnstileTaskProxyLess",
	},
	task:       capSolverTask,
	retryAfter: 3 * time.Second,
}

// capSolverTask builds a CapSolver task object. Its reCAPTCHA v3 task
// takes no score.
func capSolverTask(providerType string, t Task) map[string]any {
	m := map[string]any{"type": providerType}
	switch t.Type {
	case TypeImage:
		imageTask(m, t)
		if t.PageURL != "" {
			m["websiteURL"] = t.PageURL
		}
		return m
	case TypeRecaptchaV2:
		m["isInvisible"] = t.Invisible
	case TypeRecaptchaV3:
		if t.Action != "" {
			m["pageAction"] = t.Action
		}
	case TypeTurnstile:
		if t.Action != "" {
			m["metadata"] = map[string]string{"action": t.Action}
		}
	}
	m["websiteURL"], m["websiteKey"] = t.PageURL, t.SiteKey
	return m
}

// errorHints explain the error codes an operator or caller can act on.
// Both providers share most codes (2Captcha's API v2 took them from the
// anti-captcha protocol CapSolver also follows).
var errorHints = map[string]string{
	"ERROR_KEY_DOES_NOT_EXIST":        "the provider refused the operator's API key",
	"ERROR_WRONG_USER_KEY":            "the provider refused the operator's API key",
	"ERROR_KEY_DENIED_ACCESS":         "the provider refused the operator's API key",
	"ERROR_ZERO_BALANCE":              "the operator's provider account has no balance left",
	"ERROR_SETTLEMENT_FAILED":         "the operator's provider account has no balance left",
	"ERROR_NO_SLOT_AVAILABLE":         "the provider is busy: try again shortly",
	"ERROR_SERVICE_UNAVALIABLE":       "the provider is busy: try again shortly",
	"ERROR_CAPTCHA_UNSOLVABLE":        "the provider could not solve it: try again, or check the sitekey and page_url",
	"ERROR_TOO_BIG_CAPTCHA_FILESIZE":  "the provider refused the image's size",
	"ERROR_ZERO_CAPTCHA_FILESIZE":     "the provider refused the image's size",
	"ERROR_IMAGE_TYPE_NOT_SUPPORTED":  "the provider refused the image's format",
	"ERROR_WRONG_FILE_EXTENSION":      "the provider refused the image's format",
	"ERROR_BAD_PARAMETERS":            "the provider refused the task's fields: check sitekey, page_url and action",
	"ERROR_INVALID_TASK_DATA":         "the provider refused the task's fields: check sitekey, page_url and action",
	"ERROR_RECAPTCHA_INVALID_SITEKEY": "the provider says the sitekey is not valid",
	"ERROR_PAGEURL":                   "the provider refused page_url",
	"ERROR_IP_NOT_ALLOWED":            "the provider refused this server's IP address",
	"ERROR_IP_BANNED":                 "the provider refused this server's IP address",
}

// busyCodes are the error codes after which a retry may succeed.
var busyCodes = map[string]bool{"ERROR_NO_SLOT_AVAILABLE": true, "ERROR_SERVICE_UNAVALIABLE": true}

// imageTask fills in an ImageToTextTask's image and case flag, the same
// in both dialects.
func imageTask(m map[string]any, t Task) {
	m["body"] = base64.StdEncoding.EncodeToString(t.Image)
	if t.CaseSensitive {
		m["case"] = true
	}
}
