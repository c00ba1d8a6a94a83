package captchatest_test

import (
	"bytes"
	"encoding/json"
	"image/png"
	"net/http"
	"strconv"
	"testing"

	"github.com/webinfra/webinfra/captcha/captchatest"
)

// call POSTs body to the server's method and decodes the answer.
func call(t *testing.T, srv *captchatest.Server, method string, body map[string]any) map[string]any {
	t.Helper()
	b, _ := json.Marshal(body)
	resp, err := http.Post(srv.URL+"/"+method, "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestDialects checks the answers the fakes give for what the real APIs
// refuse: a wrong key, a missing field, an unsupported task, a task id of
// the wrong JSON type.
func TestDialects(t *testing.T) {
	t.Parallel()
	recaptcha := map[string]any{"websiteURL": "https://example.com/", "websiteKey": "6Le-wvkSAAAAAPBMRTvw0Q4Muexq9bi0DJwx_mJ-"}
	with := func(typ string) map[string]any {
		m := map[string]any{"type": typ}
		for k, v := range recaptcha {
			m[k] = v
		}
		return m
	}
	cases := []struct {
		name    string
		dialect captchatest.Dialect
		body    map[string]any
		code    string
	}{
		{"2captcha wrong key", captchatest.TwoCaptcha, map[string]any{"clientKey": "nope", "task": with("RecaptchaV2TaskProxyless")}, "ERROR_KEY_DOES_NOT_EXIST"},
		{"capsolver wrong key", captchatest.CapSolver, map[string]any{"clientKey": "nope", "task": with("ReCaptchaV2TaskProxyLess")}, "ERROR_KEY_DENIED_ACCESS"},
		{"2captcha v3 without minScore", captchatest.TwoCaptcha, map[string]any{"clientKey": captchatest.DefaultKey, "task": with("RecaptchaV3TaskProxyless")}, "ERROR_BAD_PARAMETERS"},
		{"capsolver without websiteKey", captchatest.CapSolver, map[string]any{"clientKey": captchatest.DefaultKey,
			"task": map[string]any{"type": "ReCaptchaV2TaskProxyLess", "websiteURL": "https://example.com/"}}, "ERROR_INVALID_TASK_DATA"},
		{"capsolver hcaptcha", captchatest.CapSolver, map[string]any{"clientKey": captchatest.DefaultKey, "task": with("HCaptchaTaskProxyless")}, "ERROR_TASK_NOT_SUPPORTED"},
		{"2captcha capsolver spelling", captchatest.TwoCaptcha, map[string]any{"clientKey": captchatest.DefaultKey, "task": with("ReCaptchaV2TaskProxyLess")}, "ERROR_TASK_NOT_SUPPORTED"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := captchatest.NewServer(tc.dialect, captchatest.Config{})
			defer srv.Close()
			out := call(t, srv, "createTask", tc.body)
			if out["errorId"] != float64(1) || out["errorCode"] != tc.code {
				t.Errorf("answer %v, want errorId 1 and %s", out, tc.code)
			}
		})
	}
}

func TestTaskIDTypes(t *testing.T) {
	t.Parallel()
	srv := captchatest.NewServer(captchatest.TwoCaptcha, captchatest.Config{})
	defer srv.Close()
	created := call(t, srv, "createTask", map[string]any{"clientKey": captchatest.DefaultKey,
		"task": map[string]any{"type": "TurnstileTaskProxyless", "websiteURL": "https://example.com/", "websiteKey": "0x4AAAAAAABS7vwvV6VFfMcD"}})
	id, ok := created["taskId"].(float64)
	if !ok {
		t.Fatalf("taskId %v is not a number", created["taskId"])
	}
	asString := call(t, srv, "getTaskResult", map[string]any{"clientKey": captchatest.DefaultKey, "taskId": strconv.FormatFloat(id, 'f', -1, 64)})
	if asString["errorCode"] != "ERROR_WRONG_CAPTCHA_ID" {
		t.Errorf("a string id answered %v", asString)
	}
	ready := call(t, srv, "getTaskResult", map[string]any{"clientKey": captchatest.DefaultKey, "taskId": id})
	sol, _ := ready["solution"].(map[string]any)
	if ready["status"] != "ready" || sol["token"] != captchatest.DefaultToken {
		t.Errorf("answer %v", ready)
	}
}

func TestPNG(t *testing.T) {
	t.Parallel()
	if _, err := png.Decode(bytes.NewReader(captchatest.PNG)); err != nil {
		t.Fatal(err)
	}
}
