package fetchsim

import (
	"context"
	"net/url"
	"slices"
	"strings"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/fetch"
	"github.com/webinfra/webinfra/seo/htmlaudit/auditkit"
)

// Defaults and bounds.
const (
	// DefaultParallelism is how many fetches run at once by default; all
	// go to one site.
	DefaultParallelism = 4
	// MaxParallelism is the most fetches at once: every agent, the
	// baseline and the render.
	MaxParallelism = 13
	// DefaultSimilarityThreshold is the text similarity (see
	// Report.Agents[].Similarity) under which an agent's page differs
	// materially from the browser's.
	DefaultSimilarityThreshold = 0.6
	// JSOnlyWords is the visible word count under which the browser
	// baseline's HTML, holding scripts or an app root, is a JavaScript
	// shell.
	JSOnlyWords = 50
	// PreviewRunes is the length of a text preview.
	PreviewRunes = 300
	// MaxTimeoutMS bounds Input.TimeoutMS.
	MaxTimeoutMS = 60_000
)

// Input names the page and the agents.
type Input struct {
	URL           string   `json:"url" minLength:"1" maxLength:"8192" example:"https://example.com/pricing" doc:"The page to fetch as each agent."`
	Agents        []string `json:"agents,omitempty" maxItems:"11" example:"[\"GPTBot\",\"ClaudeBot\"]" doc:"Names of the agents to simulate (GPTBot, OAI-SearchBot, ChatGPT-User, ClaudeBot, Claude-User, PerplexityBot, Perplexity-User, CCBot, Bytespider, Amazonbot, Meta-ExternalAgent; any case); empty means all eleven. The browser baseline is always fetched."`
	CompareRender bool     `json:"compare_render,omitempty" doc:"Also load the page in the headless browser (the render tier, as the baseline's user agent) to confirm JavaScript-only content; noted as unavailable when the server has no browser."`
	TimeoutMS     int      `json:"timeout_ms,omitempty" minimum:"0" maximum:"60000" doc:"Timeout of each fetch in milliseconds; 0 = the server default."`
}

// Options tune Simulate. The zero value (or nil) means defaults.
type Options struct {
	// Parallelism is how many fetches run at once: 0 means
	// DefaultParallelism, at most MaxParallelism.
	Parallelism int
	// SimilarityThreshold replaces DefaultSimilarityThreshold when in
	// (0, 1].
	SimilarityThreshold float64
}

// Answer is what one fetch got.
type Answer struct {
	StatusCode  int     `json:"status_code,omitempty" doc:"Absent when there was no answer."`
	FinalURL    string  `json:"final_url,omitempty"`
	ContentType string  `json:"content_type,omitempty"`
	Bytes       int     `json:"bytes" doc:"The body's size, decoded."`
	Words       int     `json:"words" doc:"Words of visible text (the body without scripts, styles and hidden elements; no JavaScript run)."`
	TextPreview string  `json:"text_preview" doc:"The first 300 characters of the visible text."`
	DurationMS  float64 `json:"duration_ms"`
	Blocked     bool    `json:"blocked" doc:"Refused: a bot wall or challenge (fetch's detection), HTTP 401/403/429, an error status the browser did not get, or no answer when the browser got one."`
	BlockReason string  `json:"block_reason,omitempty"`
	Error       string  `json:"error,omitempty" doc:"Why there was no answer."`
}

// Baseline is the browser's fetch.
type Baseline struct {
	Name      string `json:"name" example:"Browser (Chrome)"`
	UserAgent string `json:"user_agent"`
	Answer
}

// AgentResult is one agent's fetch, compared with the baseline.
type AgentResult struct {
	Agent
	Answer
	Similarity      *float64 `json:"similarity,omitempty" doc:"Jaccard index of the visible texts' word 3-shingles (words when a text has fewer than 3), 0-1; absent when either fetch got no answer."`
	Cloaking        bool     `json:"cloaking" doc:"The agent, not blocked, got a materially different answer: another status, another final URL, or text similarity under the threshold (0.6)."`
	CloakingReasons []string `json:"cloaking_reasons,omitempty"`
}

// JSOnly is the JavaScript-only verdict, from the baseline's HTML and,
// when asked for and available, the rendered page.
type JSOnly struct {
	Detected      bool   `json:"detected" doc:"The browser's HTML has under 50 words of visible text and scripts or an app root: crawlers that run no JavaScript (all eleven) see next to nothing."`
	Reason        string `json:"reason,omitempty"`
	Words         int    `json:"words" doc:"The baseline's visible words without JavaScript."`
	Scripts       int    `json:"scripts" doc:"Executable scripts in the baseline's HTML."`
	AppRoot       string `json:"app_root,omitempty" doc:"The id of a client-side framework's mount point (root, app, __next, ...)."`
	RenderedWords *int   `json:"rendered_words,omitempty" doc:"Visible words after rendering in the browser (compare_render)."`
	RenderNote    string `json:"render_note,omitempty" doc:"Why there is no rendered comparison, when one was asked for."`
}

// Report is the answer of the LLM fetch simulator.
type Report struct {
	URL      string             `json:"url"`
	Baseline Baseline           `json:"baseline"`
	Agents   []AgentResult      `json:"agents"`
	JSOnly   JSOnly             `json:"js_only"`
	Blocked  []string           `json:"blocked" doc:"Names of the agents that were blocked."`
	Cloaking []string           `json:"cloaking" doc:"Names of the agents that got a materially different page."`
	Findings []auditkit.Finding `json:"findings"`
}

// job is one fetch to run.
type job struct {
	userAgent string
	tier      fetch.Tier
	res       *fetch.Response
	err       error
	duration  time.Duration
}

// Simulate fetches in.URL as each agent (Agents, or those in.Agents
// names) and as a browser (BrowserUserAgent), each with the direct tier:
// no JavaScript, the agent's User-Agent header, no cache
// (fetch.Fetcher.Fetch never answers from the scrape cache, so no agent
// gets another's page). Fetches run in parallel, at most
// Options.Parallelism at once. It reports each answer (status, final URL,
// bytes, visible words, a preview, time), which agents were blocked,
// which got a materially different page (cloaking), and whether the page
// is a JavaScript shell; with in.CompareRender it also renders the page
// (the render tier) to confirm.
//
// Bad input is errs.KindInvalid naming the field ("url", "agents",
// "timeout_ms"); a target the SSRF guard refuses is the baseline fetch's
// errs.KindForbidden error; cancelling ctx returns ctx's error. A site
// that fails or blocks is a report, not an error.
func Simulate(ctx context.Context, f *fetch.Fetcher, in Input, opts *Options) (*Report, error) {
	agents, o, err := check(f, in, opts)
	if err != nil {
		return nil, err
	}
	jobs := []*job{{userAgent: BrowserUserAgent, tier: fetch.TierDirect}}
	for _, a := range agents {
		jobs = append(jobs, &job{userAgent: a.UserAgent, tier: fetch.TierDirect})
	}
	var render *job
	if in.CompareRender {
		render = &job{userAgent: BrowserUserAgent, tier: fetch.TierRender}
		jobs = append(jobs, render)
	}
	timeout := time.Duration(in.TimeoutMS) * time.Millisecond
	var g errgroup.Group
	g.SetLimit(o.Parallelism)
	for _, j := range jobs {
		g.Go(func() error {
			if ctx.Err() != nil {
				return nil
			}
			start := time.Now()
			j.res, j.err = f.Fetch(ctx, fetch.Request{URL: in.URL, Tier: j.tier, Timeout: timeout,
				Headers: map[string]string{"User-Agent": j.userAgent}})
			j.duration = time.Since(start)
			return nil
		})
	}
	_ = g.Wait() // fetches report through their job
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := jobs[0].err; errs.Is(err, errs.KindForbidden) || errs.Is(err, errs.KindInvalid) {
		return nil, err
	}
	return build(in.URL, agents, jobs[0], jobs[1:1+len(agents)], render, o.SimilarityThreshold), nil
}

// check validates the input and options and returns the agents asked for.
func check(f *fetch.Fetcher, in Input, opts *Options) ([]Agent, Options, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if f == nil {
		return nil, o, errs.Invalid("fetcher", "must not be nil")
	}
	u, err := url.Parse(strings.TrimSpace(in.URL))
	switch {
	case strings.TrimSpace(in.URL) == "":
		return nil, o, errs.Invalid("url", "is required")
	case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "":
		return nil, o, errs.Invalid("url", "must be an absolute http or https URL")
	case in.TimeoutMS < 0 || in.TimeoutMS > MaxTimeoutMS:
		return nil, o, errs.Invalid("timeout_ms", "must be between 0 and %d, got %d", MaxTimeoutMS, in.TimeoutMS)
	case o.Parallelism < 0 || o.Parallelism > MaxParallelism:
		return nil, o, errs.Invalid("options.parallelism", "must be between 0 and %d, got %d", MaxParallelism, o.Parallelism)
	case o.SimilarityThreshold < 0 || o.SimilarityThreshold > 1:
		return nil, o, errs.Invalid("options.similarity_threshold", "must be between 0 and 1")
	}
	if o.Parallelism == 0 {
		o.Parallelism = DefaultParallelism
	}
	if o.SimilarityThreshold == 0 {
		o.SimilarityThreshold = DefaultSimilarityThreshold
	}
	if len(in.Agents) == 0 {
		return Agents, o, nil
	}
	if len(in.Agents) > len(Agents) {
		return nil, o, errs.Invalid("agents", "at most %d agents, got %d", len(Agents), len(in.Agents))
	}
	var out []Agent
	for _, name := range in.Agents {
		i := slices.IndexFunc(Agents, func(a Agent) bool { return strings.EqualFold(a.Name, strings.TrimSpace(name)) })
		switch {
		case i < 0:
			return nil, o, errs.Invalid("agents", "unknown agent %q; one of %s", name, agentNames())
		case slices.ContainsFunc(out, func(a Agent) bool { return a.Name == Agents[i].Name }):
			return nil, o, errs.Invalid("agents", "%q is named twice", name)
		}
		out = append(out, Agents[i])
	}
	return out, o, nil
}

func agentNames() string {
	names := make([]string, len(Agents))
	for i, a := range Agents {
		names[i] = a.Name
	}
	return strings.Join(names, ", ")
}
