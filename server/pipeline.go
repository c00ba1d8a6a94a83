package server

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/fetch"
	"github.com/webinfra/webinfra/internal/apikey"
	"github.com/webinfra/webinfra/internal/clientaddr"
	"github.com/webinfra/webinfra/store"
)

// ServeHTTP serves a mounted handler's paths (the dashboard, mount.go)
// by that handler, and runs every other request through the pipeline:
//
//  1. request id, W3C trace context and timing, and the versioning
//     headers of a deprecated route or of the legacy host (every response);
//  2. route lookup in the catalog;
//  3. public routes: the client IP's token bucket, then the handler;
//  4. other routes: API key → the account's token bucket → body limit →
//     the page gate, for a call carrying a page (pagegate.go) →
//     Idempotency-Key → credit hold (monthly quota, key's daily cap,
//     balance) → handler → settle on 2xx or release otherwise → usage log.
//
// Nothing runs and nothing is charged when a step refuses the call.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if h := s.mountFor(r.URL.Path); h != nil {
		h.ServeHTTP(w, r)
		return
	}
	c := &call{console: isConsole(r.Context()), requestID: newRequestID(), client: clientIP(r), start: s.now(), span: newSpan(r), cost: -1}
	rw := &recorder{ResponseWriter: w}
	r = r.WithContext(fetch.WithPageAdmission(context.WithValue(r.Context(), callKey{}, c), s.admitFetched))
	rw.beforeHeader = func(status int) int { return s.beforeHeader(r.Context(), rw, c, status) }
	defer s.releasePages(c) // after the answer, whatever the path
	defer s.recoverPanic(rw, c)
	if s.isLegacyHost(r.Host) {
		c.legacyURI = r.URL.RequestURI()
	}

	if r.URL.Path == MCPPath {
		s.serveMCP(rw, r, c)
		return
	}
	_, pattern := s.mux.Handler(r)
	if pattern == "" {
		s.serveNoRoute(rw, r, c)
		return
	}
	c.op = s.routes[pattern]
	if c.op == nil || c.op.Public {
		s.serveAnonymous(rw, r, c)
		return
	}
	s.serveAuthenticated(rw, r, c)
}

// serveNoRoute answers unknown paths (404) and known paths with another
// method (405 with Allow) in the API's error model.
func (s *Server) serveNoRoute(rw *recorder, r *http.Request, c *call) {
	if !s.admitRate(rw, r.Context(), c, "ip:"+c.client, s.opts.Billing.AnonymousRequestsPerMinute, false) {
		return
	}
	var allowed []string
	for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
		probe := r.Clone(r.Context())
		probe.Method = m
		if _, pattern := s.mux.Handler(probe); pattern != "" {
			allowed = append(allowed, m)
		}
	}
	if len(allowed) == 0 {
		s.fail(rw, c, errs.NotFound("no endpoint %s %s", r.Method, r.URL.Path))
		return
	}
	rw.Header().Set("Allow", strings.Join(allowed, ", "))
	p := newProblem(http.StatusMethodNotAllowed, errs.KindInvalid, r.Method+" is not allowed on "+r.URL.Path+"; use "+strings.Join(allowed, ", "))
	p.RequestID = c.requestID
	p.write(rw)
}

func (s *Server) recoverPanic(rw *recorder, c *call) {
	v := recover()
	if v == nil {
		return
	}
	if v == http.ErrAbortHandler {
		panic(v)
	}
	s.log.Error("handler panic", "request_id", c.requestID, "panic", v, "stack", string(debug.Stack()))
	if !rw.wroteHeader {
		s.fail(rw, c, errs.New(errs.KindInternal, "panic"))
	}
}

func (s *Server) serveAnonymous(rw *recorder, r *http.Request, c *call) {
	unlimited := c.op != nil && c.op.Unlimited
	if !s.admitRate(rw, r.Context(), c, "ip:"+c.client, s.opts.Billing.AnonymousRequestsPerMinute, unlimited) {
		return
	}
	limit := s.opts.MaxBodyBytes
	if c.op != nil {
		limit = s.bodyLimit(c.op)
	}
	if _, err := s.readBodyInTime(rw, r, limit); err != nil {
		s.fail(rw, c, err)
		return
	}
	s.mux.ServeHTTP(rw, r) // the mux, not the bare handler, fills in r.PathValue
}

// admitKey authenticates the call's API key into c.principal, or answers
// 401 and reports false. Failed attempts spend the client IP's bucket: key
// guessing is rate limited.
func (s *Server) admitKey(rw *recorder, r *http.Request, c *call) bool {
	ctx := r.Context()
	p, err := s.authenticate(ctx, r)
	if err != nil {
		if s.admitRate(rw, ctx, c, "ip:"+c.client, s.opts.Billing.AnonymousRequestsPerMinute, false) {
			rw.Header().Set("WWW-Authenticate", `Bearer realm="webinfra"`)
			s.fail(rw, c, err)
		}
		return false
	}
	c.principal = p
	return true
}

func (s *Server) serveAuthenticated(rw *recorder, r *http.Request, c *call) {
	ctx := r.Context()
	if !s.admitKey(rw, r, c) {
		return
	}
	p := c.principal
	defer s.logUsage(rw, c)
	if err := checkScope(c.op, p.key); err != nil {
		s.fail(rw, c, err)
		return
	}

	if !s.admitRate(rw, ctx, c, "acct:"+strconv.FormatInt(p.account.ID, 10), p.plan.RequestsPerMinute, c.op.Unlimited) {
		return
	}
	body, err := s.readBodyInTime(rw, r, s.bodyLimit(c.op))
	if err != nil {
		s.fail(rw, c, err)
		return
	}
	var traits callTraits
	if c.op.inspect != nil {
		traits = c.op.inspect(body)
	}
	c.url = traits.url
	if c.op.Billable() {
		c.cost = s.opts.Billing.Quote(c.op.Price, p.plan, traits.items, traits.residential).Total
	}
	if c.op.CarriesPage {
		if err := s.holdPage(ctx, int64(len(body))); err != nil {
			s.fail(rw, c, err)
			return
		}
	}

	idem, done := s.beginIdempotent(rw, r, c, body)
	if done {
		return
	}
	defer func() { // deferred: a panicking handler must not leave the key claimed
		if !c.erased {
			idem.finish(ctx, rw)
		}
	}()
	if err := s.reserve(ctx, c); err != nil {
		s.fail(rw, c, err)
		return
	}
	if idem != nil {
		rw.capture, rw.captureLimit = &bytes.Buffer{}, s.opts.Billing.Limits.IdempotencyMaxResponseBytes
	}
	s.mux.ServeHTTP(rw, r) // the mux, not the bare handler, fills in r.PathValue
	if !rw.wroteHeader {
		rw.WriteHeader(http.StatusOK)
	}
}

// admitRate asks the limiter (or only peeks, for unlimited operations) and
// answers 429 when the bucket is empty. It reports whether to go on.
func (s *Server) admitRate(rw *recorder, ctx context.Context, c *call, key string, perMinute int, peek bool) bool {
	ask := s.opts.Limiter.Allow
	if peek {
		ask = s.opts.Limiter.Peek
	}
	d, err := ask(ctx, key, perMinute)
	if err != nil {
		s.fail(rw, c, errs.Wrap(errs.KindUnavailable, err, "rate limiter unavailable"))
		return false
	}
	if peek {
		d.Allowed = true
	}
	c.rate = &d
	if !d.Allowed {
		rateLimitProblem().write(rw)
		return false
	}
	return true
}

// authenticate resolves the Bearer key. Malformed keys are refused without
// a lookup; stored hashes are compared in constant time.
func (s *Server) authenticate(ctx context.Context, r *http.Request) (*principal, error) {
	if n := len(r.Header.Values("Authorization")); n > 1 {
		return nil, errs.New(errs.KindMalformed, "%d Authorization headers: send exactly one, Authorization: Bearer <API key>", n)
	}
	header := r.Header.Get("Authorization")
	if header == "" {
		return nil, errs.New(errs.KindUnauthenticated, "missing Authorization header: send Authorization: Bearer <API key>")
	}
	scheme, raw, _ := strings.Cut(header, " ")
	if !strings.EqualFold(scheme, "Bearer") {
		return nil, errs.New(errs.KindUnauthenticated, "Authorization header must use the Bearer scheme")
	}
	raw = strings.TrimSpace(raw)
	invalid := errs.New(errs.KindUnauthenticated, "invalid API key")
	if !apikey.WellFormed(raw) {
		return nil, invalid
	}
	key, acct, err := s.store.KeyAndAccount(ctx, apikey.Hash(raw))
	if errs.Is(err, errs.KindNotFound) || err == nil && !apikey.Matches(raw, key.Hash) {
		return nil, invalid
	}
	if err != nil {
		return nil, err
	}
	if !key.Active() {
		return nil, errs.New(errs.KindUnauthenticated, "API key has been revoked")
	}
	if err := s.checkIdle(ctx, key); err != nil {
		return nil, err
	}
	plan, err := s.opts.Billing.Plan(acct.Plan)
	if err != nil {
		return nil, errs.Wrap(errs.KindInternal, err, "account %d is on an unknown plan", acct.ID)
	}
	payer := acct.ID
	if key.OrgID != 0 {
		// Leaving an org revokes the member's keys of it; checking the
		// membership here too closes the window of a key minted while
		// its owner was being removed.
		org, err := s.store.OrgByID(ctx, key.OrgID)
		if errs.Is(err, errs.KindNotFound) {
			return nil, errs.New(errs.KindUnauthenticated, "the API key's organization no longer exists")
		}
		if err != nil {
			return nil, err
		}
		member, err := s.store.IsOrgMember(ctx, org.ID, acct.ID)
		if err != nil {
			return nil, err
		}
		if !member {
			return nil, errs.New(errs.KindUnauthenticated, "the API key belongs to an organization you are no longer a member of")
		}
		payer = org.WalletAccountID
	}
	return &principal{account: acct, key: key, plan: plan, payer: payer}, nil
}

// bodyLimit is the request body limit of an operation.
func (s *Server) bodyLimit(op *Operation) int64 {
	if op.CarriesPage {
		return s.opts.MaxPageBytes
	}
	return s.opts.MaxBodyBytes
}

// readBodyInTime reads the whole request body, which must arrive within
// Limits.BodyRead of now (with the headers, which http.Server's
// ReadHeaderTimeout bounds): a client trickling bytes is cut off. Once the
// body is in, the connection's read deadline is lifted, so the handler runs
// for its own timeout (a 60 s scrape, four webhook tries), not the body's.
// Connections without deadlines (in-process tests) are simply read.
func (s *Server) readBodyInTime(rw http.ResponseWriter, r *http.Request, limit int64) ([]byte, error) {
	rc := http.NewResponseController(rw)
	wait := s.opts.Billing.Limits.BodyRead()
	rc.SetReadDeadline(time.Now().Add(wait)) // wall clock: this is the socket's deadline
	body, err := readBody(rw, r, limit, wait)
	// On an error the deadline stays: after the answer, Go's server drains
	// what is left of the body, and must not wait on a trickle.
	if err == nil {
		rc.SetReadDeadline(time.Time{})
	}
	return body, err
}

func readBody(rw http.ResponseWriter, r *http.Request, limit int64, wait time.Duration) ([]byte, error) {
	if r.Body == nil || r.Body == http.NoBody {
		return nil, nil
	}
	body, err := io.ReadAll(http.MaxBytesReader(rw, r.Body, limit))
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return nil, errs.New(errs.KindTooLarge, "request body is larger than the limit of %d bytes", limit)
	}
	if errors.Is(err, os.ErrDeadlineExceeded) {
		rw.Header().Set("Connection", "close")
		return nil, errs.New(errs.KindMalformed, "the request body did not arrive within %s", wait)
	}
	if err != nil {
		return nil, errs.Wrap(errs.KindMalformed, err, "could not read the request body")
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	return body, nil
}

// reserve holds the call's credits and one request of the monthly quota.
func (s *Server) reserve(ctx context.Context, c *call) error {
	p := c.principal
	if c.cost <= 0 || p.plan.Bypass {
		return nil
	}
	err := s.store.Reserve(ctx, store.Reservation{
		RequestID: c.requestID, AccountID: p.payer, KeyID: p.key.ID, Credits: c.cost,
		MonthlyQuota: p.plan.MonthlyRequests, DailyCap: p.key.DailyCapCredits,
		Now: s.now(), TTL: s.opts.HoldTTL,
	})
	if err != nil {
		return err
	}
	c.reserved = true
	return nil
}

// beforeHeader runs once, just before the status line is written: it
// settles the credit hold of a successful call (or releases it), then
// stamps the headers every response carries.
func (s *Server) beforeHeader(ctx context.Context, rw *recorder, c *call, status int) int {
	ctx = context.WithoutCancel(ctx) // a client hanging up must not skip settlement
	if status >= 500 && c.failure != nil {
		s.log.Error("request failed", "request_id", c.requestID, "status", status, "err", c.failure)
	}
	if c.reserved {
		c.reserved = false
		if status >= 200 && status < 300 {
			status = s.settle(ctx, rw, c, status)
		} else if err := s.store.Release(ctx, c.requestID); err != nil {
			s.log.Error("release credit hold", "request_id", c.requestID, "err", err)
		}
	}
	if accepted := c.onAccepted; accepted != nil {
		c.onAccepted = nil
		ok := status >= 200 && status < 300
		if err := accepted(ctx, ok); err != nil && ok {
			c.charged = 0
			status = s.replaceWithProblem(rw, c, err)
		}
	}
	if c.cost >= 0 && !c.haveBal && c.principal != nil {
		if bal, err := s.store.Balance(ctx, c.principal.payer); err == nil {
			c.balance, c.haveBal = bal, true
		}
	}
	c.stampHeaders(rw.Header(), s.now())
	s.stampVersion(rw.Header(), c)
	return status
}

func (s *Server) settle(ctx context.Context, rw *recorder, c *call, status int) int {
	charge := c.cost
	if c.chargeUnits != nil {
		charge = min(max(*c.chargeUnits, 0), c.cost)
	}
	bal, err := s.store.Settle(ctx, store.Settlement{RequestID: c.requestID, Charged: charge, Endpoint: c.op.Path, Now: s.now()})
	if err == nil {
		c.charged, c.balance, c.haveBal = charge, bal, true
		return status
	}
	// The work is done but could not be billed: do not hand it out.
	s.log.Error("settle credit hold", "request_id", c.requestID, "err", err)
	if rerr := s.store.Release(ctx, c.requestID); rerr != nil {
		s.log.Error("release credit hold", "request_id", c.requestID, "err", rerr)
	}
	return s.replaceWithProblem(rw, c, errs.Wrap(errs.KindInternal, err, "settle"))
}

// replaceWithProblem swaps a successful answer that could not be honoured
// after all for the error's problem body, and returns its status.
func (s *Server) replaceWithProblem(rw *recorder, c *call, err error) int {
	p := problemFromError(err)
	p.RequestID = c.requestID
	rw.Header().Set("Content-Type", "application/json")
	rw.Header().Del("Content-Length")
	rw.replaceBody(p)
	return p.status
}

// fail answers with the error's problem body.
func (s *Server) fail(rw *recorder, c *call, err error) {
	p := problemFromError(err)
	if p.status >= 500 {
		s.log.Error("request failed", "request_id", c.requestID, "err", err)
	}
	p.RequestID = c.requestID
	p.write(rw)
}

// logUsage queues the usage row of an authenticated call and exports its
// span to the account's forwarders.
func (s *Server) logUsage(rw *recorder, c *call) {
	status := rw.status
	if status == 0 {
		status = http.StatusInternalServerError // a panic is unwinding; recoverPanic answers 500
	}
	if c.erased || c.console {
		return
	}
	s.recordSpan(c, status)
	s.usage.Add(store.UsageRow{
		RequestID: c.requestID, AccountID: c.principal.payer, KeyID: c.principal.key.ID,
		CreatedAt: c.start, Endpoint: c.op.Path, Method: c.op.Method, URL: c.url, Status: status,
		TimeMS:         float64(s.now().Sub(c.start).Microseconds()) / 1000,
		CreditsCharged: c.charged, TierUsed: string(c.tierUsed),
	})
}

// clientIP is the peer's limit key: its IPv4 address, or its IPv6 /64 (one
// host usually holds a whole /64). Forwarded headers are not trusted:
// behind a proxy every caller would otherwise pick its own bucket.
func clientIP(r *http.Request) string { return clientaddr.Key(r.RemoteAddr) }
