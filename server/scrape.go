package server

import (
	"context"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/fetch"
)

func (s *Server) scrape(ctx context.Context, in *fetch.ScrapeRequest) (*fetch.ScrapeResult, error) {
	res, err := s.fetcher.Scrape(ctx, *in)
	if err != nil {
		return nil, bodyField(err)
	}
	reportFetch(ctx, res.TierUsed, res.CascadePath)
	return res, nil
}

// bodyField locates a capability's invalid-input error in the request
// body, as the API reports fields ("url" becomes "body.url").
func bodyField(err error) error {
	if f := errs.FieldOf(err); f != "" {
		return &errs.Error{Kind: errs.KindOf(err), Field: "body." + f, Message: err.Error()}
	}
	return err
}

// Health is the answer of GET /healthz.
type Health struct {
	Status string `json:"status" example:"ok"`
}

func (s *Server) health(ctx context.Context, _ *struct{}) (*bodyOutput[Health], error) {
	return reply(&Health{Status: "ok"}), nil
}
