package captcha

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/webinfra/webinfra/errs"
)

// ProviderOptions configure a Provider. Zero fields mean the defaults of
// the Options fields of the same names.
type ProviderOptions struct {
	// BaseURL is the API's base; createTask and getTaskResult are paths
	// under it. Empty: the provider's public API.
	BaseURL          string
	HTTPClient       *http.Client
	PollInterval     time.Duration
	InitialDelay     time.Duration
	Timeout          time.Duration
	MaxResponseBytes int64
	Sleep            func(ctx context.Context, d time.Duration) error
}

// Provider is a Solver speaking a remote provider's JSON task API: POST
// {base}/createTask {"clientKey","task":{...}}, then POST
// {base}/getTaskResult {"clientKey","taskId"} until "status":"ready".
type Provider struct {
	d        *dialect
	key      string
	base     *url.URL
	client   *http.Client
	poll     time.Duration
	initial  time.Duration
	timeout  time.Duration
	maxBytes int64
	sleep    func(ctx context.Context, d time.Duration) error
}

// NewTwoCaptcha returns a solver for 2Captcha's API v2 (or a compatible
// one at opts.BaseURL) with the account key key. It solves every Type.
func NewTwoCaptcha(key string, opts *ProviderOptions) (*Provider, error) {
	return newProvider(twoCaptcha, key, opts)
}

// NewCapSolver returns a solver for CapSolver's API (or a compatible one
// at opts.BaseURL) with the account key key. It solves every Type but
// TypeHCaptcha.
func NewCapSolver(key string, opts *ProviderOptions) (*Provider, error) {
	return newProvider(capSolver, key, opts)
}

func newProvider(d *dialect, key string, opts *ProviderOptions) (*Provider, error) {
	var o ProviderOptions
	if opts != nil {
		o = *opts
	}
	key = strings.TrimSpace(key)
	if key == "" {
		return nil, errs.Invalid(d.keyFlag, "the %s API key is empty", d.name)
	}
	if o.BaseURL == "" {
		o.BaseURL = d.defaultURL
	}
	base, err := url.Parse(o.BaseURL)
	if err != nil || (base.Scheme != "http" && base.Scheme != "https") || base.Host == "" || base.User != nil {
		return nil, errs.Invalid(d.urlFlag, "must be an absolute http or https URL without credentials, like %s", d.defaultURL)
	}
	p := &Provider{d: d, key: key, base: base, client: o.HTTPClient, poll: o.PollInterval, initial: o.InitialDelay,
		timeout: o.Timeout, maxBytes: o.MaxResponseBytes, sleep: o.Sleep}
	if p.client == nil {
		p.client = &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone(), Timeout: 60 * time.Second}
	}
	if p.poll <= 0 {
		p.poll = DefaultPollInterval
	}
	if p.initial <= 0 {
		p.initial = DefaultInitialDelay
	}
	if p.timeout <= 0 {
		p.timeout = DefaultTimeout
	}
	if p.maxBytes <= 0 {
		p.maxBytes = DefaultMaxResponseBytes
	}
	if p.sleep == nil {
		p.sleep = sleepTimer
	}
	return p, nil
}

// sleepTimer waits d or until ctx is done.
func sleepTimer(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Name is "2captcha" or "capsolver".
func (p *Provider) Name() string { return p.d.name }

// Supports reports whether the provider has a task type for t.
func (p *Provider) Supports(t Type) bool { _, ok := p.d.types[t]; return ok }

// taskAnswer is both methods' answer. taskId is a number at 2Captcha and
// a string at CapSolver: it is kept as sent and sent back so.
type taskAnswer struct {
	ErrorID          int64           `json:"errorId"`
	ErrorCode        string          `json:"errorCode"`
	ErrorDescription string          `json:"errorDescription"`
	TaskID           json.RawMessage `json:"taskId"`
	Status           string          `json:"status"`
	Solution         *struct {
		GRecaptchaResponse string `json:"gRecaptchaResponse"`
		Token              string `json:"token"`
		Text               string `json:"text"`
		UserAgent          string `json:"userAgent"`
	} `json:"solution"`
}

// Solve creates the task, waits Options.InitialDelay, then polls every
// Options.PollInterval until the answer is ready, for at most
// Options.Timeout (counted both on the clock and in the waits asked of
// Sleep, so a test's instant Sleep still ends).
func (p *Provider) Solve(ctx context.Context, t Task) (*Solution, error) {
	providerType, ok := p.d.types[t.Type]
	if !ok {
		return nil, errs.Invalid("provider", "%s does not solve %s captchas", p.d.name, t.Type)
	}
	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, p.timeout)
	defer cancel()
	created, err := p.call(ctx, parent, "createTask", map[string]any{"clientKey": p.key, "task": p.d.task(providerType, t)})
	if err != nil {
		return nil, err
	}
	id, err := p.taskID(created.TaskID)
	if err != nil {
		return nil, err
	}
	if created.Status == "ready" { // CapSolver's ImageToTextTask answers at once
		return p.solution(t.Type, id, created)
	}
	if id == "" {
		return nil, errs.New(errs.KindUpstream, "%s accepted the task but answered no taskId", p.d.name)
	}
	var waited time.Duration
	for delay := p.initial; ; delay = p.poll {
		if waited+delay > p.timeout {
			return nil, p.timeoutError(t.Type, id)
		}
		if err := p.sleep(ctx, delay); err != nil {
			return nil, p.contextError(ctx, parent, err, t.Type, id)
		}
		waited += delay
		res, err := p.call(ctx, parent, "getTaskResult", map[string]any{"clientKey": p.key, "taskId": created.TaskID})
		if err != nil {
			return nil, err
		}
		switch res.Status {
		case "ready":
			return p.solution(t.Type, id, res)
		case "processing", "idle":
			continue
		case "failed":
			return nil, errs.New(errs.KindUpstream, "%s could not solve the task (task %s): try again", p.d.name, id)
		}
		return nil, errs.New(errs.KindUpstream, "%s answered an unknown task status %q (task %s)", p.d.name, clean(res.Status, 40), id)
	}
}

// taskID reads a taskId, a JSON number or string.
func (p *Provider) taskID(raw json.RawMessage) (string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var n json.Number
	var s string
	switch {
	case len(raw) > 200:
	case json.Unmarshal(raw, &n) == nil:
		return n.String(), nil
	case json.Unmarshal(raw, &s) == nil && s != "" && onlyChars(s, "-_.:"):
		return s, nil
	}
	return "", errs.New(errs.KindUpstream, "%s answered a taskId that is neither a number nor a plain string", p.d.name)
}

// solution reads a ready answer's solution.
func (p *Provider) solution(t Type, id string, a *taskAnswer) (*Solution, error) {
	if a.Solution == nil {
		return nil, errs.New(errs.KindUpstream, "%s answered ready without a solution (task %s)", p.d.name, id)
	}
	s := &Solution{TaskID: id, UserAgent: clean(a.Solution.UserAgent, 512)}
	if t == TypeImage {
		s.Text = strings.TrimSpace(a.Solution.Text)
		if s.Text == "" {
			return nil, errs.New(errs.KindUpstream, "%s answered ready without the image's text (task %s)", p.d.name, id)
		}
		return s, nil
	}
	s.Token = strings.TrimSpace(a.Solution.GRecaptchaResponse)
	if s.Token == "" {
		s.Token = strings.TrimSpace(a.Solution.Token)
	}
	if s.Token == "" {
		return nil, errs.New(errs.KindUpstream, "%s answered ready without a token (task %s)", p.d.name, id)
	}
	return s, nil
}

// call POSTs body as JSON to {base}/method and reads the answer, bounded.
// A provider's error (errorId not 0) is errs.KindUpstream naming its code.
func (p *Provider) call(ctx, parent context.Context, method string, body any) (*taskAnswer, error) {
	data, err := json.Marshal(body)
	if err != nil {
		return nil, errs.Wrap(errs.KindInternal, err, "%s %s request", p.d.name, method)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.base.JoinPath(method).String(), bytes.NewReader(data))
	if err != nil {
		return nil, errs.Wrap(errs.KindInternal, hide(err, "bad request"), "%s %s request", p.d.name, method)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "webinfra/1.0 (+https://github.com/webinfra/webinfra)")
	resp, err := p.client.Do(req)
	if err != nil {
		return nil, p.transportError(ctx, parent, method, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, p.maxBytes+1))
	if err != nil {
		return nil, p.transportError(ctx, parent, method, err)
	}
	if int64(len(raw)) > p.maxBytes {
		return nil, errs.New(errs.KindUpstream, "%s answered %s with more than %d bytes", p.d.name, method, p.maxBytes)
	}
	var a taskAnswer
	jsonErr := json.Unmarshal(raw, &a)
	switch {
	case jsonErr == nil && a.ErrorID != 0:
		return nil, p.providerError(method, &a)
	case resp.StatusCode != http.StatusOK:
		e := errs.New(errs.KindUpstream, "%s answered %s with HTTP %d", p.d.name, method, resp.StatusCode)
		if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable {
			e.Message += " (busy: try again later)"
			if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && s > 0 && s <= 3600 {
				e.RetryAfter = time.Duration(s) * time.Second
			}
		}
		return nil, e
	case jsonErr != nil:
		return nil, errs.New(errs.KindUpstream, "%s answered %s with something other than its JSON (%s)", p.d.name, method, describeJSONError(jsonErr))
	}
	return &a, nil
}

// providerError turns {"errorId":N,"errorCode","errorDescription"} into
// errs.KindUpstream naming the provider and the code, with a hint when
// the code is known. The operator's key never appears in it.
func (p *Provider) providerError(method string, a *taskAnswer) error {
	code := p.scrub(clean(a.ErrorCode, 80))
	if code == "" {
		code = "errorId " + strconv.FormatInt(a.ErrorID, 10)
	}
	verb := "refused the task"
	if method == "getTaskResult" {
		verb = "failed the task"
	}
	msg := fmt.Sprintf("%s %s: %s", p.d.name, verb, code)
	if hint := errorHints[code]; hint != "" {
		if strings.Contains(hint, "API key") || strings.Contains(hint, "balance") {
			hint += " (" + p.d.setting() + ")"
		}
		msg += " (" + hint + ")"
	}
	if desc := p.scrub(clean(a.ErrorDescription, 300)); desc != "" && desc != code {
		msg += ": " + desc
	}
	e := errs.New(errs.KindUpstream, "%s", msg)
	if busyCodes[code] {
		e.RetryAfter = p.d.retryAfter
	}
	return e
}

// scrub removes the operator's key from text a provider wrote.
func (p *Provider) scrub(s string) string {
	return strings.ReplaceAll(s, p.key, "[api key]")
}

// timeoutError is the error for a task not ready in time.
func (p *Provider) timeoutError(t Type, id string) error {
	return errs.New(errs.KindTimeout, "%s did not solve the %s task within %s (task %s)", p.d.name, t, p.timeout, id)
}

// contextError classifies a wait cut short: the caller cancelling, or the
// solve's own deadline.
func (p *Provider) contextError(ctx, parent context.Context, err error, t Type, id string) error {
	if parent.Err() != nil {
		return fmt.Errorf("%s task cancelled: %w", p.d.name, parent.Err())
	}
	if ctx.Err() != nil {
		return p.timeoutError(t, id)
	}
	return errs.Wrap(errs.KindInternal, err, "%s: waiting for the task", p.d.name)
}

// transportError classifies a failed request. Its message names the
// provider but not its address (an operator may point it at an internal
// proxy); the original error stays in the chain for logs.
func (p *Provider) transportError(ctx, parent context.Context, method string, err error) error {
	var netErr net.Error
	var kindErr *errs.Error
	switch {
	case parent.Err() != nil:
		return fmt.Errorf("%s %s cancelled: %w", p.d.name, method, hide(err, "cancelled"))
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return errs.Wrap(errs.KindTimeout, hide(err, "timeout"), "%s did not answer %s within %s", p.d.name, method, p.timeout)
	case errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &netErr) && netErr.Timeout()):
		return errs.Wrap(errs.KindTimeout, hide(err, "timeout"), "%s did not answer %s in time", p.d.name, method)
	case errors.As(err, &kindErr) && kindErr.Kind == errs.KindForbidden:
		return errs.Wrap(errs.KindUnavailable, hide(err, "address refused by the SSRF guard"),
			"%s is at an address this server's HTTP client may not reach (%s)", p.d.name, p.d.urlFlag)
	}
	return errs.Wrap(errs.KindUpstream, hide(err, "request failed"), "%s unreachable (%s)", p.d.name, method)
}

// describeJSONError names what was wrong with an answer, without echoing
// it.
func describeJSONError(err error) string {
	var syntax *json.SyntaxError
	if errors.As(err, &syntax) {
		return fmt.Sprintf("syntax error at byte %d", syntax.Offset)
	}
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) {
		return fmt.Sprintf("field %q has a %s value", typeErr.Field, typeErr.Value)
	}
	return "unreadable"
}

// clean keeps the printable characters of a provider's string, cut to
// max bytes.
func clean(s string, max int) string {
	s = strings.Map(func(r rune) rune {
		if !unicode.IsPrint(r) {
			return -1
		}
		return r
	}, strings.TrimSpace(s))
	if len(s) > max {
		cut := max
		for cut > 0 && !utf8Start(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

// hidden keeps an error in the chain (errors.Is and As see it) under a
// message that reveals neither the provider's address nor a request body.
type hidden struct {
	msg string
	err error
}

func hide(err error, msg string) error { return &hidden{msg: msg, err: err} }
func (h *hidden) Error() string        { return h.msg }
func (h *hidden) Unwrap() error        { return h.err }
