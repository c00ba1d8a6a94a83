package server_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/webinfra/webinfra/captcha"
	"github.com/webinfra/webinfra/captcha/captchatest"
	"github.com/webinfra/webinfra/fetch"
	"github.com/webinfra/webinfra/server"
)

// withCaptcha routes the captcha endpoints to fake providers on loopback
// whose polling waits take no real time.
func withCaptcha(t *testing.T, twoCaptcha, capSolver *captchatest.Server, timeout time.Duration) envOption {
	t.Helper()
	opts := &captcha.Options{PollInterval: time.Second, InitialDelay: time.Second, Timeout: timeout,
		Sleep: func(ctx context.Context, _ time.Duration) error { return ctx.Err() }}
	if twoCaptcha != nil {
		opts.TwoCaptchaKey, opts.TwoCaptchaURL = twoCaptcha.Key(), twoCaptcha.URL
	}
	if capSolver != nil {
		opts.CapSolverKey, opts.CapSolverURL = capSolver.Key(), capSolver.URL
	}
	f, err := fetch.New(&fetch.Options{AllowPrivateNetworks: true}) // auto fetches loopback pages
	if err != nil {
		t.Fatal(err)
	}
	c, err := captcha.New(f, opts)
	if err != nil {
		t.Fatal(err)
	}
	return withServer(func(o *server.Options) { o.Captcha = c })
}

// Captcha solving through the catalog against fake 2Captcha and CapSolver
// providers that follow the real create-then-poll flow: tokens come back
// for one credit; a provider error and a timeout charge nothing; without
// a provider the answer is 503 naming the setting.
func TestCaptcha(t *testing.T) {
	t.Parallel()
	two := captchatest.NewServer(captchatest.TwoCaptcha, captchatest.Config{Pending: 2})
	defer two.Close()
	solver := captchatest.NewServer(captchatest.CapSolver, captchatest.Config{})
	defer solver.Close()
	e := newEnv(t, withCaptcha(t, two, solver, 2*time.Minute))
	key := e.signup("captcha@example.com")

	var sol struct {
		Type     string `json:"type"`
		Provider string `json:"provider"`
		Token    string `json:"token"`
	}
	r := e.want(e.call("POST", "/v1/captcha/solve", key, map[string]any{"type": "recaptcha_v2", "sitekey": "6Le-wvkSAAAAAPBMRTvw0Q4Muexq9bi0DJwx_mJ-",
		"page_url": "https://www.example.com/login"}), 200)
	r.json(t, &sol)
	if sol.Provider != "2captcha" || sol.Token != captchatest.DefaultToken || r.header.Get("X-Credits-Charged") != "1" {
		t.Errorf("solve = %+v, charged %s", sol, r.header.Get("X-Credits-Charged"))
	}
	if two.Polls() < 3 {
		t.Errorf("the provider was polled %d times, want the processing answers and the ready one", two.Polls())
	}
	e.want(e.call("POST", "/v1/captcha/solve", key, map[string]any{"type": "turnstile", "sitekey": "0x4AAAAAAADnPIDROrmt1Wwj",
		"page_url": "https://www.example.com/", "provider": "capsolver"}), 200).json(t, &sol)
	if sol.Provider != "capsolver" || sol.Token == "" {
		t.Errorf("turnstile on capsolver = %+v", sol)
	}

	// auto: the widget is found on a loopback page and routed.
	page := newHTTPServer(t, func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `<html><body><form><div class="h-captcha" data-sitekey="10000000-ffff-ffff-ffff-000000000001"></div></form>
<script src="https://js.hcaptcha.com/1/api.js" async defer></script></body></html>`)
	})
	var auto struct {
		Detected struct {
			Type    string `json:"type"`
			SiteKey string `json:"sitekey"`
		} `json:"detected"`
		Solution struct {
			Provider string `json:"provider"`
		} `json:"solution"`
	}
	e.want(e.call("POST", "/v1/captcha/auto", key, map[string]any{"url": page}), 200).json(t, &auto)
	if auto.Detected.Type != "hcaptcha" || auto.Detected.SiteKey != "10000000-ffff-ffff-ffff-000000000001" || auto.Solution.Provider != "2captcha" {
		t.Errorf("auto = %+v", auto)
	}
	e.want(e.call("POST", "/v1/captcha/solve", key, map[string]any{"type": "hcaptcha"}), 422)
	if got := e.balance(key); got != 997 {
		t.Errorf("balance %d after three solves, want 997", got)
	}
}

func TestCaptchaFailuresChargeNothing(t *testing.T) {
	t.Parallel()
	broke := captchatest.NewServer(captchatest.TwoCaptcha, captchatest.Config{CreateError: "ERROR_ZERO_BALANCE"})
	defer broke.Close()
	slow := captchatest.NewServer(captchatest.CapSolver, captchatest.Config{NeverReady: true})
	defer slow.Close()
	e := newEnv(t, withCaptcha(t, broke, slow, 30*time.Second))
	key := e.signup("captcha-fail@example.com")
	task := map[string]any{"type": "recaptcha_v2", "sitekey": "6Le-wvkSAAAAAPBMRTvw0Q4Muexq9bi0DJwx_mJ-", "page_url": "https://www.example.com/"}

	r := e.want(e.call("POST", "/v1/captcha/solve", key, task), 502)
	if !strings.Contains(r.detail(t), "ERROR_ZERO_BALANCE") || strings.Contains(string(r.body), broke.Key()) {
		t.Errorf("provider error: %s", r.body)
	}
	task["provider"] = "capsolver"
	e.want(e.call("POST", "/v1/captcha/solve", key, task), 504)
	if got := e.balance(key); got != 1000 {
		t.Errorf("balance %d after a provider error and a timeout, want 1000", got)
	}

	plain := newEnv(t) // no provider configured
	other := plain.signup("no-provider@example.com")
	delete(task, "provider")
	r = plain.want(plain.call("POST", "/v1/captcha/solve", other, task), 503)
	if !strings.Contains(r.detail(t), "--twocaptcha-key") {
		t.Errorf("503 does not name the setting: %s", r.body)
	}
}
