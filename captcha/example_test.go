package captcha_test

import (
	"context"
	"fmt"
	"time"

	"github.com/webinfra/webinfra/captcha"
	"github.com/webinfra/webinfra/captcha/captchatest"
)

// Solve sends a reCAPTCHA v2 to a 2Captcha-compatible API (here a fake on
// loopback that answers "processing" twice) and polls for the token.
func ExampleClient_Solve() {
	provider := captchatest.NewServer(captchatest.TwoCaptcha, captchatest.Config{Pending: 2})
	defer provider.Close()
	client, err := captcha.New(nil, &captcha.Options{
		TwoCaptchaKey: provider.Key(),
		TwoCaptchaURL: provider.URL,
		// Tests wait for nothing; the default sleeps 5 s between polls.
		Sleep: func(context.Context, time.Duration) error { return nil },
	})
	if err != nil {
		panic(err)
	}
	sol, err := client.Solve(context.Background(), captcha.SolveRequest{
		Type:    "recaptcha_v2",
		SiteKey: "6Le-wvkSAAAAAPBMRTvw0Q4Muexq9bi0DJwx_mJ-",
		PageURL: "https://www.google.com/recaptcha/api2/demo",
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(sol.Provider, sol.Token)
	fmt.Println(provider.Tasks()[0]["type"], provider.Polls(), "polls")
	// Output:
	// 2captcha 03AFcWeA-fake-token
	// RecaptchaV2TaskProxyless 3 polls
}

// Detect finds the widgets of a page and the sitekeys to solve them with.
func ExampleDetect() {
	html := `<html><head><script src="https://js.hcaptcha.com/1/api.js" async></script></head><body>
<form><div class="h-captcha" data-sitekey="a5f74b19-9e45-40e0-b45d-47ff91b7a6c2" data-size="invisible"></div></form></body></html>`
	for _, w := range captcha.Detect([]byte(html)) {
		fmt.Println(w.Type, w.SiteKey, "invisible:", w.Invisible)
	}
	// Output:
	// hcaptcha a5f74b19-9e45-40e0-b45d-47ff91b7a6c2 invisible: true
}
