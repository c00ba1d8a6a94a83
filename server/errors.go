package server

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/webinfra/webinfra/errs"
)

// problem is the one error body of the API:
//
//	{"detail": "...", "kind": "invalid", "errors": [{"location": "body.url", "message": "..."}], "request_id": "..."}
//
// The per-minute rate limit answers with the bare {"detail": "Rate limit
// exceeded"} that SPEC §7 fixes.
type problem struct {
	status     int
	retryAfter time.Duration       // sent as Retry-After when set
	Detail     string              `json:"detail" doc:"What went wrong, in a sentence that names the field or limit."`
	Kind       errs.Kind           `json:"kind,omitempty" doc:"The error's kind; absent on the per-minute rate limit's 429."`
	Errors     []*huma.ErrorDetail `json:"errors,omitempty" doc:"Each invalid input: location (body.url, query.limit, header.Idempotency-Key) and message; submitted values are never echoed."`
	RequestID  string              `json:"request_id,omitempty" doc:"The call's X-Request-Id."`
}

func (p *problem) Error() string             { return p.Detail }
func (p *problem) GetStatus() int            { return p.status }
func (p *problem) ContentType(string) string { return "application/json" }
func rateLimitProblem() *problem {
	return &problem{status: http.StatusTooManyRequests, Detail: "Rate limit exceeded"}
}
func (p *problem) write(w http.ResponseWriter) {
	if p.retryAfter > 0 {
		w.Header().Set("Retry-After", retryAfterSeconds(p.retryAfter))
	}
	writeJSON(w, p.status, p)
}

// retryAfterSeconds is a Retry-After value: whole seconds, rounded up, at
// least one.
func retryAfterSeconds(d time.Duration) string {
	return strconv.FormatInt(max(int64((d+time.Second-1)/time.Second), 1), 10)
}
func newProblem(status int, kind errs.Kind, detail string) *problem {
	return &problem{status: status, Kind: kind, Detail: detail}
}

// statusOf is the only place error kinds become HTTP statuses.
var statusOf = map[errs.Kind]int{
	errs.KindInvalid:         http.StatusUnprocessableEntity,
	errs.KindMalformed:       http.StatusBadRequest,
	errs.KindTooLarge:        http.StatusRequestEntityTooLarge,
	errs.KindNotFound:        http.StatusNotFound,
	errs.KindConflict:        http.StatusConflict,
	errs.KindUnauthenticated: http.StatusUnauthorized,
	errs.KindForbidden:       http.StatusForbidden,
	errs.KindPaymentRequired: http.StatusPaymentRequired,
	errs.KindRateLimited:     http.StatusTooManyRequests,
	errs.KindQuotaExceeded:   http.StatusTooManyRequests,
	errs.KindBlocked:         http.StatusBadGateway,
	errs.KindUnavailable:     http.StatusServiceUnavailable,
	errs.KindNotImplemented:  http.StatusNotImplemented,
	errs.KindUpstream:        http.StatusBadGateway,
	errs.KindTimeout:         http.StatusGatewayTimeout,
	errs.KindInternal:        http.StatusInternalServerError,
}

// kindOfStatus names the kind of a status huma chose itself.
func kindOfStatus(status int) errs.Kind {
	switch {
	case status == http.StatusBadRequest:
		return errs.KindMalformed
	case status == http.StatusRequestEntityTooLarge:
		return errs.KindTooLarge
	case status == http.StatusNotFound:
		return errs.KindNotFound
	case status >= 500:
		return errs.KindInternal
	}
	return errs.KindInvalid
}

// problemFromError turns any error into the API's error body.
func problemFromError(err error) *problem {
	var p *problem
	if errors.As(err, &p) {
		return p
	}
	var e *errs.Error
	if errors.As(err, &e) {
		detail := e.Error()
		if e.Kind == errs.KindInternal {
			detail = "internal error" // never leak our internals
		}
		out := newProblem(statusOf[e.Kind], e.Kind, detail)
		out.retryAfter = e.RetryAfter
		if e.Field != "" {
			out.Errors = []*huma.ErrorDetail{{Location: e.Field, Message: e.Message}}
		}
		return out
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return newProblem(http.StatusGatewayTimeout, errs.KindUpstream, "request cancelled or timed out")
	}
	return newProblem(http.StatusInternalServerError, errs.KindInternal, "internal error")
}

// humaError replaces huma's error constructor so validation and parse
// errors found by huma, and errors returned by handlers, all use problem.
// Setting huma.NewError is huma's documented way to customize errors; it is
// process-wide, which suits the one API this process serves.
func humaError(status int, msg string, list ...error) huma.StatusError {
	for _, err := range list {
		var e *errs.Error
		var p *problem
		if errors.As(err, &e) || errors.As(err, &p) {
			return problemFromError(err)
		}
	}
	if status >= 500 {
		for _, err := range list {
			if err != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)) {
				return problemFromError(err)
			}
		}
	}
	p := newProblem(status, kindOfStatus(status), msg)
	var parts []string
	for _, err := range list {
		if err == nil {
			continue
		}
		var d *huma.ErrorDetail
		if !errors.As(err, &d) {
			d = &huma.ErrorDetail{Message: err.Error()}
		}
		// Submitted values are never echoed: the caller has its input, and
		// an echo carries passwords, tokens and header values into logs,
		// proxies and stored idempotent answers.
		d.Value = nil
		locateMissing(d)
		p.Errors = append(p.Errors, d)
		if d.Location != "" {
			parts = append(parts, d.Location+": "+d.Message)
		} else {
			parts = append(parts, d.Message)
		}
	}
	if status >= 500 {
		p.Errors, parts = nil, nil
	}
	if len(parts) > 0 {
		p.Detail = msg + ": " + strings.Join(parts, "; ")
	}
	return p
}

var missingProperty = regexp.MustCompile(`^expected required property (\S+) to be present$`)

// locateMissing points a missing-field error at the field ("body.url is
// required"), not at the object that lacks it ("body").
func locateMissing(d *huma.ErrorDetail) {
	if m := missingProperty.FindStringSubmatch(d.Message); m != nil {
		d.Location = strings.TrimPrefix(d.Location+"."+m[1], ".")
		d.Message = "is required"
	}
}

func init() {
	huma.NewError = humaError
	huma.NewErrorWithContext = func(ctx huma.Context, status int, msg string, list ...error) huma.StatusError {
		p := humaError(status, msg, list...)
		if c := callFrom(ctx.Context()); c != nil {
			if pp, ok := p.(*problem); ok {
				pp.RequestID = c.requestID
				if pp.retryAfter > 0 {
					ctx.SetHeader("Retry-After", retryAfterSeconds(pp.retryAfter))
				}
			}
			if p.GetStatus() >= 500 {
				c.failure = errors.Join(list...) // logged by the pipeline (beforeHeader)
			}
		}
		return p
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}
