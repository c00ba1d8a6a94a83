package server

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/server/telemetry"
	"github.com/webinfra/webinfra/store"
)

// Bounds on forwarders.
const (
	maxForwarderHeaders     = 20
	maxForwarderHeaderBytes = 8 << 10 // names and values of one forwarder's headers together
)

// ForwarderCreateRequest adds a telemetry destination.
type ForwarderCreateRequest struct {
	Name       string            `json:"name,omitempty" maxLength:"100" doc:"A label for people."`
	Endpoint   string            `json:"endpoint" minLength:"8" maxLength:"2048" format:"uri" example:"https://otlp.example.com/v1/traces" doc:"The OTLP/HTTP traces URL (protobuf), usually ending in /v1/traces. HTTPS unless the operator allows plain HTTP."`
	AuthHeader string            `json:"auth_header,omitempty" maxLength:"100" example:"Authorization" doc:"The header carrying the destination's credential."`
	AuthValue  string            `json:"auth_value,omitempty" maxLength:"4096" writeOnly:"true" example:"Bearer 0123456789abcdef" doc:"The credential: encrypted at rest, never shown again except its last 4 characters."`
	Headers    map[string]string `json:"headers,omitempty" maxProperties:"20" doc:"Extra headers sent with every export (encrypted at rest and shown masked, like the credential)."`
}

// ForwarderInfo is a forwarder as listings show it: secrets masked.
type ForwarderInfo struct {
	ForwarderID    int64             `json:"forwarder_id"`
	Name           string            `json:"name"`
	Endpoint       string            `json:"endpoint"`
	AuthHeader     string            `json:"auth_header"`
	AuthValue      string            `json:"auth_value" doc:"Masked: asterisks, then the last 4 characters."`
	Headers        map[string]string `json:"headers" doc:"Extra header names with masked values."`
	CreatedAt      time.Time         `json:"created_at"`
	LastTestAt     *time.Time        `json:"last_test_at"`
	LastTestStatus string            `json:"last_test_status" enum:"ok,failed," doc:"The last test's outcome; empty until tested."`
	LastTestDetail string            `json:"last_test_detail"`
}

// ForwarderList is the caller's forwarders.
type ForwarderList struct {
	Forwarders []ForwarderInfo `json:"forwarders"`
}

// ForwarderTestResult says whether the destination accepted a test span.
type ForwarderTestResult struct {
	ForwarderID int64     `json:"forwarder_id"`
	Accepted    bool      `json:"accepted"`
	Status      string    `json:"status" enum:"ok,failed"`
	Detail      string    `json:"detail"`
	TestedAt    time.Time `json:"tested_at"`
}

type forwarderIDPath struct {
	ForwarderID int64 `path:"forwarder_id" minimum:"1"`
}

// forwarderHeaderNames the destination's headers may not use: the
// exporter sets them, or they would change how the request is framed.
var reservedForwarderHeaders = map[string]bool{
	"Host": true, "Content-Length": true, "Content-Type": true, "Content-Encoding": true, "Transfer-Encoding": true,
	"Connection": true, "Te": true, "Trailer": true, "Upgrade": true, "Proxy-Authorization": true, "Proxy-Connection": true,
	"Keep-Alive": true, "User-Agent": true, "Expect": true,
}

// mask hides all but the last 4 characters of a secret (all of it when
// it has 4 or fewer).
func mask(secret string) string {
	r := []rune(secret)
	if len(r) <= 4 {
		return strings.Repeat("*", len(r))
	}
	return strings.Repeat("*", len(r)-4) + string(r[len(r)-4:])
}

// checkForwarder validates a creation request, naming the field at fault.
func (s *Server) checkForwarder(ctx context.Context, in *ForwarderCreateRequest) (map[string]string, error) {
	u, err := url.Parse(in.Endpoint)
	if err != nil || u.Host == "" {
		return nil, errs.Invalid("body.endpoint", "is not an absolute URL")
	}
	switch {
	case u.Scheme == "http" && !s.opts.AllowHTTPForwarders:
		return nil, errs.Invalid("body.endpoint", "must be https (this server does not send telemetry over plain HTTP)")
	case u.Scheme != "https" && u.Scheme != "http":
		return nil, errs.Invalid("body.endpoint", "must be an https URL")
	}
	headers := map[string]string{}
	size := 0
	for name, value := range in.Headers {
		canon := http.CanonicalHeaderKey(name)
		if reservedForwarderHeaders[canon] {
			return nil, errs.Invalid("body.headers", "the header %q is set by the exporter and cannot be chosen", name)
		}
		if _, dup := headers[canon]; dup {
			return nil, errs.Invalid("body.headers", "the header %q is given twice", name)
		}
		headers[canon] = value
		size += len(name) + len(value)
	}
	if in.AuthHeader != "" || in.AuthValue != "" {
		if in.AuthHeader == "" || in.AuthValue == "" {
			return nil, errs.Invalid("body.auth_header", "auth_header and auth_value go together")
		}
		canon := http.CanonicalHeaderKey(in.AuthHeader)
		if reservedForwarderHeaders[canon] {
			return nil, errs.Invalid("body.auth_header", "the header %q is set by the exporter and cannot be chosen", in.AuthHeader)
		}
		if _, dup := headers[canon]; dup {
			return nil, errs.Invalid("body.headers", "the header %q is also the auth header", in.AuthHeader)
		}
		size += len(in.AuthHeader) + len(in.AuthValue)
	}
	if len(headers) > maxForwarderHeaders || size > maxForwarderHeaderBytes {
		return nil, errs.Invalid("body.headers", "at most %d headers and %d bytes of names and values", maxForwarderHeaders, maxForwarderHeaderBytes)
	}
	all := telemetry.Destination{Endpoint: in.Endpoint, Headers: map[string]string{}}
	for k, v := range headers {
		all.Headers[k] = v
	}
	if in.AuthHeader != "" {
		all.Headers[http.CanonicalHeaderKey(in.AuthHeader)] = in.AuthValue
	}
	if err := all.Validate(); err != nil { // credentials in the URL, a query, bad header names or values
		field, msg, _ := strings.Cut(err.Error(), ": ")
		return nil, errs.Invalid("body."+field, "%s", msg)
	}
	if err := s.fetcher.CheckTarget(ctx, in.Endpoint); err != nil {
		return nil, &errs.Error{Kind: errs.KindOf(err), Field: "body.endpoint", Message: err.Error()}
	}
	return headers, nil
}

// sealForwarder turns a checked request into the stored record.
func (s *Server) sealForwarder(accountID int64, in *ForwarderCreateRequest, headers map[string]string) (store.Forwarder, error) {
	f := store.Forwarder{AccountID: accountID, Name: in.Name, Endpoint: in.Endpoint, CreatedAt: s.now()}
	if in.AuthHeader != "" {
		f.AuthHeader = http.CanonicalHeaderKey(in.AuthHeader)
		f.AuthSealed = s.opts.Secrets.Seal([]byte(in.AuthValue))
	}
	if len(headers) > 0 {
		raw, err := json.Marshal(headers)
		if err != nil {
			return store.Forwarder{}, errs.Wrap(errs.KindInternal, err, "encode forwarder headers")
		}
		f.HeadersSealed = s.opts.Secrets.Seal(raw)
	}
	return f, nil
}

// opened is a stored forwarder with its secrets unsealed.
type opened struct {
	auth    string
	headers map[string]string
}

func (s *Server) openForwarder(f store.Forwarder) (opened, error) {
	var o opened
	if f.AuthSealed != nil {
		raw, err := s.opts.Secrets.Open(f.AuthSealed)
		if err != nil {
			return o, errs.Wrap(errs.KindInternal, err, "forwarder %d: its credential cannot be decrypted (was the server key changed?)", f.ID)
		}
		o.auth = string(raw)
	}
	if f.HeadersSealed != nil {
		raw, err := s.opts.Secrets.Open(f.HeadersSealed)
		if err == nil {
			err = json.Unmarshal(raw, &o.headers)
		}
		if err != nil {
			return o, errs.Wrap(errs.KindInternal, err, "forwarder %d: its headers cannot be decrypted", f.ID)
		}
	}
	return o, nil
}

// destination is where a stored forwarder sends spans.
func (s *Server) destination(f store.Forwarder) (telemetry.Destination, error) {
	o, err := s.openForwarder(f)
	if err != nil {
		return telemetry.Destination{}, err
	}
	d := telemetry.Destination{Endpoint: f.Endpoint, Headers: map[string]string{}}
	for k, v := range o.headers {
		d.Headers[k] = v
	}
	if f.AuthHeader != "" {
		d.Headers[f.AuthHeader] = o.auth
	}
	return d, nil
}

// loadDestinations is the telemetry package's view of an account's
// forwarders; one that cannot be opened is logged and skipped.
func (s *Server) loadDestinations(ctx context.Context, accountID int64) (map[int64]telemetry.Destination, error) {
	list, err := s.store.ListForwarders(ctx, accountID)
	if err != nil {
		return nil, err
	}
	out := make(map[int64]telemetry.Destination, len(list))
	for _, f := range list {
		d, err := s.destination(f)
		if err != nil {
			s.log.Error("forwarder skipped", "forwarder_id", f.ID, "err", err)
			continue
		}
		out[f.ID] = d
	}
	return out, nil
}

func (s *Server) forwarderInfo(f store.Forwarder) ForwarderInfo {
	info := ForwarderInfo{ForwarderID: f.ID, Name: f.Name, Endpoint: f.Endpoint, AuthHeader: f.AuthHeader,
		Headers: map[string]string{}, CreatedAt: f.CreatedAt.UTC(), LastTestStatus: f.LastTest.Status, LastTestDetail: f.LastTest.Detail}
	if !f.LastTest.At.IsZero() {
		at := f.LastTest.At.UTC()
		info.LastTestAt = &at
	}
	o, err := s.openForwarder(f)
	if err != nil {
		info.AuthValue = "(cannot be decrypted)"
		return info
	}
	info.AuthValue = mask(o.auth)
	for k, v := range o.headers {
		info.Headers[k] = mask(v)
	}
	return info
}

func (s *Server) forwarderInfos(ctx context.Context, accountID int64) ([]ForwarderInfo, error) {
	list, err := s.store.ListForwarders(ctx, accountID)
	if err != nil {
		return nil, err
	}
	out := make([]ForwarderInfo, 0, len(list))
	for _, f := range list {
		out = append(out, s.forwarderInfo(f))
	}
	return out, nil
}

func (s *Server) listForwarders(ctx context.Context, _ *struct{}) (*bodyOutput[ForwarderList], error) {
	list, err := s.forwarderInfos(ctx, callFrom(ctx).principal.account.ID)
	if err != nil {
		return nil, err
	}
	return reply(&ForwarderList{Forwarders: list}), nil
}

func (s *Server) createForwarder(ctx context.Context, in *ForwarderCreateRequest) (*ForwarderInfo, error) {
	acct := callFrom(ctx).principal.account.ID
	headers, err := s.checkForwarder(ctx, in)
	if err != nil {
		return nil, err
	}
	f, err := s.sealForwarder(acct, in, headers)
	if err != nil {
		return nil, err
	}
	if f, err = s.store.CreateForwarder(ctx, f, s.opts.MaxForwarders); err != nil {
		return nil, err
	}
	d, err := s.destination(f)
	if err != nil {
		return nil, err
	}
	if err := s.forwarding.Add(acct, f.ID, d); err != nil {
		s.log.Error("forwarder not started", "forwarder_id", f.ID, "err", err)
	}
	info := s.forwarderInfo(f)
	return &info, nil
}

func (s *Server) deleteForwarder(ctx context.Context, in *forwarderIDPath) (*bodyOutput[ForwarderInfo], error) {
	acct := callFrom(ctx).principal.account.ID
	f, err := s.store.Forwarder(ctx, acct, in.ForwarderID)
	if err != nil {
		return nil, forwarderNotFound(err, in.ForwarderID)
	}
	if err := s.store.DeleteForwarder(ctx, acct, in.ForwarderID); err != nil {
		return nil, forwarderNotFound(err, in.ForwarderID)
	}
	s.forwarding.Remove(acct, in.ForwarderID)
	info := s.forwarderInfo(f)
	return reply(&info), nil
}

func (s *Server) testForwarder(ctx context.Context, in *forwarderIDPath) (*bodyOutput[ForwarderTestResult], error) {
	c := callFrom(ctx)
	acct := c.principal.account.ID
	f, err := s.store.Forwarder(ctx, acct, in.ForwarderID)
	if err != nil {
		return nil, forwarderNotFound(err, in.ForwarderID)
	}
	if err := s.allowTestSend(ctx, c.principal, "forwarder-test", "forwarder tests"); err != nil {
		return nil, err
	}
	d, err := s.destination(f)
	if err != nil {
		return nil, err
	}
	ok, detail := s.forwarding.Test(ctx, d, telemetry.Span{AccountID: acct, RequestID: c.requestID, Operation: c.op.ID,
		Method: c.op.Method, Route: c.op.Path, Status: http.StatusOK, Start: c.start, Duration: s.now().Sub(c.start), Trace: c.span})
	status := "failed"
	if ok {
		status = "ok"
	}
	now := s.now()
	if _, err := s.store.RecordForwarderTest(ctx, acct, f.ID, store.ForwarderTest{At: now, Status: status, Detail: detail}); err != nil {
		return nil, forwarderNotFound(err, in.ForwarderID)
	}
	return reply(&ForwarderTestResult{ForwarderID: f.ID, Accepted: ok, Status: status, Detail: detail, TestedAt: now.UTC()}), nil
}

func forwarderNotFound(err error, id int64) error {
	if errs.Is(err, errs.KindNotFound) {
		return errs.NotFound("no forwarder %d in this account", id)
	}
	return err
}

// recordSpan exports the call's span to the account's forwarders (none:
// nothing happens). Keys and bodies are never part of it.
func (s *Server) recordSpan(c *call, status int) {
	if c.principal == nil || c.op == nil || c.erased {
		return
	}
	s.forwarding.Record(context.Background(), telemetry.Span{AccountID: c.principal.account.ID, RequestID: c.requestID,
		Operation: c.op.ID, Method: c.op.Method, Route: c.op.Path, Status: status, Start: c.start, Duration: s.now().Sub(c.start),
		CreditsCharged: c.charged, Tier: string(c.tierUsed), Trace: c.span})
}
