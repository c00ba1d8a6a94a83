package fetch

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/andybalholm/cascadia"

	"github.com/webinfra/webinfra/errs"
)

// attempt is one Fetch as it moves down the cascade.
type attempt struct {
	parent  context.Context    // the caller's
	ctx     context.Context    // parent bounded by the whole-fetch timeout
	cancel  context.CancelFunc // of ctx
	start   time.Time
	url     *url.URL
	req     *Request
	timeout time.Duration
	waitFor selector
	plan    []Tier
}

// selector is a compiled Request.WaitFor.
type selector struct {
	raw string
	sel cascadia.Selector // nil: no wait_for
}

func compileWaitFor(raw string) (selector, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return selector{}, nil
	}
	if len(raw) > 1024 {
		return selector{}, errs.Invalid("wait_for", "is longer than 1024 characters")
	}
	sel, err := cascadia.Compile(raw)
	if err != nil {
		return selector{}, errs.Invalid("wait_for", "is not a CSS selector: %v", err)
	}
	return selector{raw: raw, sel: sel}, nil
}

// available returns an errs.KindUnavailable error when tier t is not
// configured on this Fetcher.
func (f *Fetcher) available(t Tier) error {
	switch {
	case t == TierRender && f.renderer == nil:
		return errs.New(errs.KindUnavailable, "the render tier is not available: no renderer is configured")
	case t == TierResidential && f.residential == nil:
		return errs.New(errs.KindUnavailable, "the residential tier is not available: no proxies are configured")
	}
	return nil
}

// plan returns the tiers a request may try, in order. A pinned tier is
// the whole plan; otherwise the plan is direct, render (when configured)
// and residential (when configured and asked for), cut at MaxTier. A
// screenshot can only come from the render tier, so it is then the plan.
func (f *Fetcher) plan(req *Request) ([]Tier, error) {
	for _, p := range []struct {
		field string
		tier  Tier
	}{{"tier", req.Tier}, {"max_tier", req.MaxTier}} {
		if p.tier != "" && p.tier.rank() < 0 {
			return nil, errs.Invalid(p.field, "unknown tier %q (want %q, %q or %q)", p.tier, TierDirect, TierRender, TierResidential)
		}
	}
	if err := checkTierCombination(req); err != nil {
		return nil, err
	}
	if req.Tier != "" {
		if err := f.available(req.Tier); err != nil {
			return nil, err
		}
		return []Tier{req.Tier}, nil
	}
	if req.UseResidential {
		if err := f.available(TierResidential); err != nil {
			return nil, err
		}
	}
	if req.Screenshot {
		if err := f.available(TierRender); err != nil {
			return nil, errs.Wrap(errs.KindUnavailable, err, "a screenshot needs the render tier")
		}
		return []Tier{TierRender}, nil
	}
	var plan []Tier
	for _, t := range tierOrder {
		if req.MaxTier != "" && t.rank() > req.MaxTier.rank() {
			break
		}
		if t == TierResidential && !req.UseResidential || f.available(t) != nil {
			continue
		}
		plan = append(plan, t)
	}
	return plan, nil
}

// checkTierCombination refuses requests whose options contradict each
// other (and would otherwise pay for a tier they cannot use).
func checkTierCombination(req *Request) error {
	switch {
	case req.Tier != "" && req.MaxTier != "" && req.Tier.rank() > req.MaxTier.rank():
		return errs.Invalid("max_tier", "tier %q is above max_tier %q", req.Tier, req.MaxTier)
	case req.Screenshot && req.Tier != "" && req.Tier != TierRender:
		return errs.Invalid("tier", "a screenshot needs the render tier, not %q", req.Tier)
	case req.Screenshot && req.MaxTier == TierDirect:
		return errs.Invalid("max_tier", "a screenshot needs the render tier, above max_tier %q", req.MaxTier)
	case req.UseResidential && req.Screenshot:
		return errs.Invalid("use_residential_proxy", "a screenshot comes from the render tier only, never through the residential proxy")
	case req.UseResidential && req.Tier != "" && req.Tier != TierResidential:
		return errs.Invalid("use_residential_proxy", "the residential proxy cannot be used with tier %q pinned", req.Tier)
	case req.UseResidential && req.MaxTier != "" && req.MaxTier != TierResidential:
		return errs.Invalid("use_residential_proxy", "the residential proxy is above max_tier %q", req.MaxTier)
	}
	return nil
}

// cascade tries the planned tiers in order. A tier's answer is returned
// unless it is a bot wall (then the next tier is tried) or needs a
// browser (a JavaScript shell, or no wait_for match: then the cascade
// goes on when the render tier is still ahead). Past the first tier, a
// tier that fails is passed over too. When no tier gives the page, the
// result is a page that needed a browser but got none, else an
// errs.KindBlocked error naming the tiers and the walls (never the
// wall's content), else the last tier's error.
func (f *Fetcher) cascade(a *attempt) (*Response, error) {
	plan := a.plan
	var (
		path     []Tier
		problems []string  // per tier, why the cascade went on
		blocked  bool      // some tier met a wall
		fallback *Response // a page that needed a browser it did not get
		lastErr  error
	)
	for i, t := range plan {
		path = append(path, t)
		res, err := f.fetchTier(a, t)
		if err != nil {
			if i == 0 || !canEscalate(err) || a.ctx.Err() != nil {
				return nil, err
			}
			blocked = blocked || errs.Is(err, errs.KindBlocked)
			problems, lastErr = append(problems, fmt.Sprintf("%s: %v", t, err)), err
			continue
		}
		res.TierUsed, res.CascadePath = t, append([]Tier(nil), path...)
		if wall := blockedBy(res); wall != "" {
			blocked = true
			problems = append(problems, fmt.Sprintf("%s: %s (HTTP %d)", t, wall, res.StatusCode))
			continue
		}
		if renderAhead(plan[i+1:]) {
			if reason := shellReason(res, a.waitFor); reason != "" {
				problems = append(problems, fmt.Sprintf("%s: %s", t, reason))
				fallback = res
				continue
			}
		}
		return res, nil
	}
	switch {
	case fallback != nil:
		fallback.CascadePath = path
		return fallback, nil
	case blocked:
		return nil, errs.New(errs.KindBlocked, "fetch %s: blocked on every tier tried (%s): %s",
			a.url.Redacted(), joinTiers(path), strings.Join(problems, "; "))
	}
	return nil, lastErr
}

// canEscalate is true for failures another tier might not have: the site
// or the tier failed. Refusals and bad input are the same on every tier.
func canEscalate(err error) bool {
	switch errs.KindOf(err) {
	case errs.KindUpstream, errs.KindBlocked, errs.KindUnavailable:
		return true
	}
	return false
}

func renderAhead(rest []Tier) bool { return slices.Contains(rest, TierRender) }

func joinTiers(path []Tier) string {
	s := make([]string, len(path))
	for i, t := range path {
		s[i] = string(t)
	}
	return strings.Join(s, " → ")
}

func (f *Fetcher) fetchTier(a *attempt, t Tier) (*Response, error) {
	switch t {
	case TierRender:
		return f.fetchRender(a)
	case TierResidential:
		return f.fetchResidential(a)
	}
	return f.fetchDirect(a)
}

// fetchDirect is the direct tier: the guarded client, from this host.
func (f *Fetcher) fetchDirect(a *attempt) (*Response, error) {
	var hops []Hop
	client := *f.client
	client.Timeout = 0 // a.ctx bounds the fetch, so the error can name the timeout
	client.CheckRedirect = redirectPolicy(f.opts.MaxRedirects, &hops, nil)
	return f.doHTTP(a, a.ctx, &client, &hops, TierDirect)
}

// fetchResidential is the residential tier: the target (and every
// redirect hop) is checked against the SSRF guard here, since the
// connection goes to the proxy, which dials the target for us.
func (f *Fetcher) fetchResidential(a *attempt) (*Response, error) {
	if err := f.checkTierTarget(a.ctx, a.url.String()); err != nil {
		return nil, f.classify(a.parent, a.ctx, err, a.url, a.timeout)
	}
	ctx, err := f.residential.choose(a.ctx, a.req.Proxy)
	if err != nil {
		return nil, err
	}
	var hops []Hop
	client := &http.Client{
		Transport: f.residential.transport,
		CheckRedirect: redirectPolicy(f.opts.MaxRedirects, &hops, func(r *http.Request) error {
			if err := f.checkTierTarget(r.Context(), r.URL.String()); err != nil {
				return errs.Wrap(errs.KindOf(err), err, "redirect to %s refused", r.URL.Redacted())
			}
			return nil
		}),
	}
	res, err := f.doHTTP(a, ctx, client, &hops, TierResidential)
	if err == nil && res.StatusCode == http.StatusProxyAuthRequired {
		return nil, errs.New(errs.KindUnavailable, "fetch %s: the residential proxy refused our credentials (HTTP 407)", a.url.Redacted())
	}
	if err != nil {
		return nil, proxyFailure(a, err)
	}
	return res, nil
}

// proxyFailure turns a failure of the proxy itself (unreachable, or
// refusing our credentials) into errs.KindUnavailable: the tier is
// misconfigured or down, which is not the target's doing.
func proxyFailure(a *attempt, err error) error {
	if a.parent.Err() != nil {
		return err
	}
	var op *net.OpError
	switch {
	case strings.Contains(err.Error(), "Proxy Authentication Required"): // a CONNECT answered 407
		return errs.Wrap(errs.KindUnavailable, err, "fetch %s: the residential proxy refused our credentials", a.url.Redacted())
	case errors.As(err, &op) && op.Op == "proxyconnect":
		return errs.Wrap(errs.KindUnavailable, err, "fetch %s: the residential proxy could not be reached", a.url.Redacted())
	}
	return err
}

// fetchRender is the render tier: the target is checked first, then the
// Renderer loads the page (checking every request the page makes with
// CheckTarget itself).
func (f *Fetcher) fetchRender(a *attempt) (*Response, error) {
	if err := f.checkTierTarget(a.ctx, a.url.String()); err != nil {
		return nil, f.classify(a.parent, a.ctx, err, a.url, a.timeout)
	}
	remaining := a.timeout
	if d, ok := a.ctx.Deadline(); ok {
		remaining = time.Until(d)
	}
	rr, err := f.renderer.Render(a.ctx, RenderRequest{
		URL:         a.url.String(),
		Headers:     a.req.Headers,
		WaitFor:     a.waitFor.raw,
		Screenshot:  a.req.Screenshot,
		Timeout:     remaining,
		CheckTarget: f.CheckTarget,
	})
	if err != nil {
		return nil, f.classifyRender(a, err)
	}
	if rr == nil {
		return nil, errs.New(errs.KindUpstream, "fetch %s: the render tier returned nothing", a.url.Redacted())
	}
	if int64(len(rr.HTML)) > f.opts.MaxDecodedBytes {
		return nil, errs.New(errs.KindUpstream, "fetch %s: rendered page larger than %d bytes", a.url.Redacted(), f.opts.MaxDecodedBytes)
	}
	res := &Response{
		URL: a.req.URL, FinalURL: rr.FinalURL, StatusCode: rr.StatusCode, Header: rr.Header,
		Body: rr.HTML, ContentType: "text/html", Charset: "utf-8", Screenshot: rr.Screenshot,
	}
	if res.FinalURL == "" {
		res.FinalURL = a.url.String()
	}
	if res.StatusCode == 0 {
		res.StatusCode = http.StatusOK
	}
	if res.Header == nil {
		res.Header = http.Header{}
	}
	return res, nil
}

func (f *Fetcher) classifyRender(a *attempt, err error) error {
	target := a.url.Redacted()
	if a.parent.Err() != nil {
		return fmt.Errorf("fetch %s: %w", target, a.parent.Err())
	}
	if errors.Is(a.ctx.Err(), context.DeadlineExceeded) {
		return errs.Wrap(errs.KindUpstream, err, "fetch %s: no complete response within %s (request timeout)", target, a.timeout)
	}
	if e := asErr(err); e != nil {
		return errs.Wrap(e.Kind, e, "fetch %s (render tier)", target)
	}
	return errs.Wrap(errs.KindUpstream, err, "fetch %s: the render tier failed", target)
}

// checkTierTarget is CheckTarget for a tier that hands the target to
// someone else: a name that does not resolve is the site's failure
// (upstream), as it is on the direct tier, not bad input.
func (f *Fetcher) checkTierTarget(ctx context.Context, rawURL string) error {
	err := f.CheckTarget(ctx, rawURL)
	if errs.Is(err, errs.KindInvalid) {
		return errs.Wrap(errs.KindUpstream, err, "target check")
	}
	return err
}
