package server

import (
	"context"
	"net/url"

	"github.com/webinfra/webinfra/aeo/aibots"
	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/fetch/robots"
)

// RobotsSource names a robots.txt: given inline, or fetched from the
// origin of url.
type RobotsSource struct {
	URL       string `json:"url,omitempty" maxLength:"8192" example:"https://example.com/blog/herons" doc:"A page of the site. Without robots_txt, the site's /robots.txt is fetched (through the SSRF guard; a 4xx allows all, a 5xx, 429 or unreachable site disallows all); with it, only the page to check."`
	RobotsTxt string `json:"robots_txt,omitempty" maxLength:"1048576" example:"User-agent: *\nDisallow: /private/\n" doc:"A robots.txt to read instead of fetching one (read up to 500 KiB, as crawlers do)."`
}

// TargetURL names the site for the usage log.
func (r *RobotsSource) TargetURL() string { return r.URL }

// IntelRobotsRequest is the body of POST /v1/intel/robots.
type IntelRobotsRequest struct {
	RobotsSource
	UserAgent string `json:"user_agent,omitempty" maxLength:"512" example:"GPTBot" doc:"A crawler's user agent (its product token is matched). With url, the answer says whether it may fetch that page."`
}

// RobotsReport is the answer of POST /v1/intel/robots: the file as read,
// and, for a user agent and a url, the decision and the rule that made it.
type RobotsReport struct {
	RobotsURL  string `json:"robots_url,omitempty" doc:"The robots.txt fetched; absent for an inline one."`
	FetchError string `json:"fetch_error,omitempty" doc:"Why robots.txt could not be fetched; the site then counts as disallowing all (RFC 9309 §2.3.1.4)."`
	robots.Robots
	UserAgent string `json:"user_agent,omitempty" doc:"The user agent decided for."`
	Path      string `json:"path,omitempty" doc:"The path (and query) decided for, as rules see it."`
	Allowed   *bool  `json:"allowed,omitempty" doc:"Whether user_agent may fetch url; present when both are given."`
	// MatchedRule is null when no rule matched (or no decision was asked).
	MatchedRule       *robots.Rule `json:"matched_rule" doc:"The rule that decided (directive, pattern, line); null when no rule matched or no decision was asked."`
	CrawlDelaySeconds *float64     `json:"crawl_delay_seconds,omitempty" doc:"The Crawl-delay that applies to user_agent, when one does."`
}

// loadRobots reads the inline robots.txt, or fetches the site's. A site
// that cannot be reached yields a complete disallow and the reason; a
// refused or malformed url is an error.
func (s *Server) loadRobots(ctx context.Context, in *RobotsSource) (r *robots.Robots, robotsURL, fetchError string, err error) {
	if in.URL != "" {
		if u, perr := url.Parse(in.URL); perr != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, "", "", errs.Invalid("body.url", "must be an absolute http(s) URL, got %q", in.URL)
		} else if in.RobotsTxt == "" {
			robotsURL = (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: "/robots.txt"}).String()
		}
	}
	switch {
	case in.RobotsTxt != "":
		return robots.Parse([]byte(in.RobotsTxt)), "", "", nil
	case in.URL == "":
		return nil, "", "", errs.Invalid("body.url", "give url, or robots_txt")
	}
	r, err = s.fetcher.Robots(ctx, in.URL)
	if errs.Is(err, errs.KindUpstream) {
		return robots.DisallowAll(), robotsURL, err.Error(), nil
	}
	if err != nil {
		return nil, "", "", bodyField(err)
	}
	return r, robotsURL, "", nil
}

func (s *Server) intelRobots(ctx context.Context, in *IntelRobotsRequest) (*RobotsReport, error) {
	r, robotsURL, fetchError, err := s.loadRobots(ctx, &in.RobotsSource)
	if err != nil {
		return nil, err
	}
	rep := &RobotsReport{RobotsURL: robotsURL, FetchError: fetchError, Robots: *r, UserAgent: in.UserAgent}
	if in.UserAgent != "" {
		if delay, ok := r.CrawlDelay(in.UserAgent); ok {
			seconds := delay.Seconds()
			rep.CrawlDelaySeconds = &seconds
		}
		if in.URL != "" {
			d := r.Test(in.UserAgent, in.URL)
			rep.Path, rep.Allowed, rep.MatchedRule = robots.RequestPath(in.URL), &d.Allowed, d.MatchedRule
		}
	}
	return rep, nil
}

// AeoAiBotAllowlistRequest is the body of POST /v1/aeo/ai-bot-allowlist.
type AeoAiBotAllowlistRequest struct{ RobotsSource }

// AIBotAllowlistReport is the answer of POST /v1/aeo/ai-bot-allowlist.
type AIBotAllowlistReport struct {
	RobotsURL  string `json:"robots_url,omitempty" doc:"The robots.txt fetched; absent for an inline one."`
	FetchError string `json:"fetch_error,omitempty" doc:"Why robots.txt could not be fetched; every crawler then counts as blocked (RFC 9309 §2.3.1.4)."`
	Status     int    `json:"status,omitempty" doc:"The HTTP status robots.txt was answered with, when it decided for every URL (4xx: allow all; 5xx, 429: disallow all)."`
	aibots.Report
}

func (s *Server) aeoAIBotAllowlist(ctx context.Context, in *AeoAiBotAllowlistRequest) (*AIBotAllowlistReport, error) {
	r, robotsURL, fetchError, err := s.loadRobots(ctx, &in.RobotsSource)
	if err != nil {
		return nil, err
	}
	return &AIBotAllowlistReport{RobotsURL: robotsURL, FetchError: fetchError, Status: r.Status, Report: *aibots.Check(r, in.URL)}, nil
}
