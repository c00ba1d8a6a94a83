package server

import "github.com/webinfra/webinfra/captcha"

// CaptchaSolveRequest is the body of POST /v1/captcha/solve.
type CaptchaSolveRequest struct {
	captcha.SolveRequest
}

// CaptchaAutoSolveRequest is the body of POST /v1/captcha/auto.
type CaptchaAutoSolveRequest struct {
	captcha.AutoRequest
}

func captchaSolveInput(r *CaptchaSolveRequest) captcha.SolveRequest   { return r.SolveRequest }
func captchaAutoInput(r *CaptchaAutoSolveRequest) captcha.AutoRequest { return r.AutoRequest }
