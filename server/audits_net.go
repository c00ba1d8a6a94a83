package server

import (
	"context"

	"github.com/webinfra/webinfra/aeo/fetchsim"
	"github.com/webinfra/webinfra/aeo/llmstxt"
	"github.com/webinfra/webinfra/fetch"
	"github.com/webinfra/webinfra/seo/linkcheck"
	"github.com/webinfra/webinfra/seo/redirects"
)

// The bodies of the audits that fetch for themselves (through the
// server's fetcher: the SSRF guard, timeouts and caps apply to every
// request), named as SPEC names them.
type (
	RedirectChainMapRequest     struct{ redirects.Input }
	BrokenLinksAuditRequest     struct{ linkcheck.Input }
	AeoLlmsTxtAuditRequest      struct{ llmstxt.Input }
	AeoLlmFetchSimulatorRequest struct{ fetchsim.Input }
)

// TargetURL names the audited URL for the usage log.
func (r *RedirectChainMapRequest) TargetURL() string { return r.URL }

// TargetURL names the audited URL for the usage log.
func (r *BrokenLinksAuditRequest) TargetURL() string { return r.URL }

// TargetURL names the audited URL for the usage log.
func (r *AeoLlmsTxtAuditRequest) TargetURL() string { return r.URL }

// TargetURL names the audited URL for the usage log.
func (r *AeoLlmFetchSimulatorRequest) TargetURL() string { return r.URL }

// networkAudit is the handler of an audit that fetches: run it with the
// server's fetcher on the body's input; its errors name body fields.
func networkAudit[B, I, O, R any](s *Server, input func(*B) I, run func(context.Context, *fetch.Fetcher, I, *O) (*R, error)) func(context.Context, *B) (*R, error) {
	return bodyCall(input, func(ctx context.Context, in I) (*R, error) { return run(ctx, s.fetcher, in, nil) })
}

func redirectsInput(r *RedirectChainMapRequest) redirects.Input   { return r.Input }
func linkcheckInput(r *BrokenLinksAuditRequest) linkcheck.Input   { return r.Input }
func llmstxtInput(r *AeoLlmsTxtAuditRequest) llmstxt.Input        { return r.Input }
func fetchsimInput(r *AeoLlmFetchSimulatorRequest) fetchsim.Input { return r.Input }
