package server

import (
	"context"

	"github.com/webinfra/webinfra/fetch"
)

func (s *Server) llmReady(ctx context.Context, in *fetch.LlmReadyRequest) (*fetch.LlmReadyResult, error) {
	in.CacheScope = cacheScope(ctx)
	in.MaxChunks = s.opts.Billing.Limits.LLMReadyMaxChunks
	res, err := s.fetcher.LlmReady(ctx, *in)
	if err != nil {
		return nil, bodyField(err)
	}
	reportFetch(ctx, res.TierUsed, res.CascadePath)
	return res, nil
}
