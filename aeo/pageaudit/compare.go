package pageaudit

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"golang.org/x/sync/errgroup"

	"github.com/webinfra/webinfra/aeo/internal/pagedata"
	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/fetch"
)

// CompareInput is the body of POST /v1/aeo/competitor-diff.
type CompareInput struct {
	URLs      []string `json:"urls" minItems:"2" maxItems:"5" example:"[\"https://example.com/guide\",\"https://rival.example/guide\"]" doc:"2 to 5 pages; the first is yours, the others are compared with it."`
	TimeoutMS int      `json:"timeout_ms,omitempty" minimum:"0" maximum:"120000" doc:"Timeout of each page's fetch in milliseconds; 0 = the fetcher's default."`
}

// Comparison is the answer of competitor-diff.
type Comparison struct {
	Ranking []Ranked `json:"ranking" doc:"The pages by score, best first; pages that could not be audited last."`
	// Wins and Losses are the categories where the first page leads every
	// other page, or trails the best of them.
	Wins   []CategoryDiff `json:"wins"`
	Losses []CategoryDiff `json:"losses"`
	Pages  []*Report      `json:"pages" doc:"Each page's audit, in the order given (null when it failed)."`
}

// Ranked is one page's place.
type Ranked struct {
	Rank  int    `json:"rank" doc:"1 is best; pages with equal scores share a rank."`
	URL   string `json:"url"`
	Score int    `json:"score"`
	Grade string `json:"grade,omitempty"`
	Error string `json:"error,omitempty" doc:"Why the page could not be audited."`
}

// CategoryDiff is the first page against the best other page in one
// category.
type CategoryDiff struct {
	Category string `json:"category"`
	Yours    int    `json:"yours"`
	Best     int    `json:"best" doc:"The best score of the other pages."`
	BestURL  string `json:"best_url"`
	Gap      int    `json:"gap" doc:"yours minus best."`
	Advice   string `json:"advice,omitempty" doc:"For a loss: the leading page's strongest probe in the category, to learn from."`
}

// Compare audits 2 to 5 pages, two at a time, and ranks them.
func Compare(ctx context.Context, f *fetch.Fetcher, in CompareInput, opts *Options) (*Comparison, error) {
	if n := len(in.URLs); n < 2 || n > 5 {
		return nil, errs.Invalid("urls", "give 2 to 5 URLs, got %d", n)
	}
	for i, u := range in.URLs {
		if _, err := pagedata.ParseURL(u); err != nil || u == "" {
			return nil, errs.Invalid(fmt.Sprintf("urls[%d]", i), "must be an absolute http(s) URL, got %q", u)
		}
	}
	out := &Comparison{Pages: make([]*Report, len(in.URLs)), Wins: []CategoryDiff{}, Losses: []CategoryDiff{}}
	failures := make([]string, len(in.URLs))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(2)
	for i, u := range in.URLs {
		g.Go(func() error {
			rep, err := Audit(gctx, f, Input{URL: u, TimeoutMS: in.TimeoutMS}, opts)
			if err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				failures[i] = err.Error()
				return nil
			}
			out.Pages[i] = rep
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	for i, u := range in.URLs {
		r := Ranked{URL: u, Score: -1, Error: failures[i]}
		if rep := out.Pages[i]; rep != nil {
			r.Score, r.Grade = rep.Score, rep.Grade
		}
		out.Ranking = append(out.Ranking, r)
	}
	slices.SortStableFunc(out.Ranking, func(a, b Ranked) int { return cmp.Compare(b.Score, a.Score) })
	for i := range out.Ranking {
		switch {
		case out.Ranking[i].Score < 0:
			out.Ranking[i].Score, out.Ranking[i].Rank = 0, len(in.URLs)
		case i > 0 && out.Ranking[i].Score == out.Ranking[i-1].Score:
			out.Ranking[i].Rank = out.Ranking[i-1].Rank
		default:
			out.Ranking[i].Rank = i + 1
		}
	}
	out.diff(in.URLs)
	return out, nil
}

// diff fills Wins and Losses: the first page against the best other page
// of each category.
func (c *Comparison) diff(urls []string) {
	yours := c.Pages[0]
	if yours == nil {
		return
	}
	for ci, cat := range yours.Categories {
		d := CategoryDiff{Category: cat.Name, Yours: cat.Score, Best: -1}
		var leader *Report
		for i, rep := range c.Pages[1:] {
			if rep != nil && rep.Categories[ci].Score > d.Best {
				d.Best, d.BestURL, leader = rep.Categories[ci].Score, urls[i+1], rep
			}
		}
		if leader == nil {
			continue
		}
		d.Gap = d.Yours - d.Best
		if d.Gap >= 0 {
			c.Wins = append(c.Wins, d)
			continue
		}
		best := Probe{Score: -1}
		for _, p := range leader.Probes {
			if p.Category == cat.Name && p.Score > best.Score {
				best = p
			}
		}
		d.Advice = fmt.Sprintf("%s leads on %s: %s", d.BestURL, best.Name, best.Summary)
		c.Losses = append(c.Losses, d)
	}
	slices.SortStableFunc(c.Losses, func(a, b CategoryDiff) int { return cmp.Compare(a.Gap, b.Gap) })
}
