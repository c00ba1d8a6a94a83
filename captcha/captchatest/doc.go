// Package captchatest runs fake captcha providers on loopback, for tests
// of package captcha and of anything built on it (the server's
// /v1/captcha/solve and /v1/captcha/auto).
//
//	srv := captchatest.NewServer(captchatest.TwoCaptcha, captchatest.Config{Pending: 2})
//	defer srv.Close()
//	client, _ := captcha.New(f, &captcha.Options{TwoCaptchaKey: srv.Key(), TwoCaptchaURL: srv.URL,
//		Sleep: func(context.Context, time.Duration) error { return nil }})
//
// A Server speaks one dialect of the JSON task API: POST .../createTask
// {"clientKey","task":{"type",...}} and POST .../getTaskResult
// {"clientKey","taskId"}. TwoCaptcha accepts 2Captcha's proxyless task
// types (RecaptchaV2TaskProxyless, RecaptchaV3TaskProxyless — minScore
// required —, HCaptchaTaskProxyless, TurnstileTaskProxyless,
// ImageToTextTask) and hands out numeric task ids; CapSolver accepts
// ReCaptchaV2TaskProxyLess, ReCaptchaV3TaskProxyLess,
// AntiTurnstileTaskProxyLess and ImageToTextTask (answered ready in
// createTask), with string task ids, and refuses hCaptcha with
// ERROR_TASK_NOT_SUPPORTED. Token tasks need websiteURL and websiteKey,
// image tasks a standard base64 body; a task id of the wrong JSON type is
// not found. Errors are {"errorId":1,"errorCode","errorDescription"} with
// HTTP 200, as the providers answer them.
//
// Config sets the accepted key, how many polls answer "processing"
// (Pending, or NeverReady), an errorCode for createTask or getTaskResult,
// and the solution. Requests, Tasks and Polls report what was received.
package captchatest
