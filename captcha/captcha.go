package captcha

import (
	"context"
	"math"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/fetch"
)

// Type is a kind of captcha.
type Type string

// The captcha types a solver may support.
const (
	TypeImage       Type = "image"        // a picture of text to type
	TypeRecaptchaV2 Type = "recaptcha_v2" // Google reCAPTCHA v2, checkbox or invisible
	TypeRecaptchaV3 Type = "recaptcha_v3" // Google reCAPTCHA v3, scored and invisible
	TypeHCaptcha    Type = "hcaptcha"     // hCaptcha
	TypeTurnstile   Type = "turnstile"    // Cloudflare Turnstile
)

// Types lists every Type, in the order the API documents them.
var Types = []Type{TypeImage, TypeRecaptchaV2, TypeRecaptchaV3, TypeHCaptcha, TypeTurnstile}

// token reports whether t is answered with a token (every type but image).
func (t Type) token() bool { return t != TypeImage }

// The names of the built-in solvers, as SolveRequest.Provider takes them.
const (
	ProviderTwoCaptcha = "2captcha"
	ProviderCapSolver  = "capsolver"
	ProviderLocal      = "local"
)

// Task is one captcha to solve, checked: SolveRequest.Task builds it.
type Task struct {
	Type Type
	// Image is the decoded image (TypeImage), at most MaxImageBytes.
	Image []byte
	// SiteKey and PageURL locate a token captcha's widget; PageURL may
	// also come with an image, as context for the provider.
	SiteKey, PageURL string
	// Action is reCAPTCHA v3's action or Turnstile's data-action.
	Action string
	// MinScore is the reCAPTCHA v3 score wanted; 0 means the provider's
	// lowest.
	MinScore float64
	// Invisible marks an invisible reCAPTCHA v2 or hCaptcha.
	Invisible bool
	// CaseSensitive says the image's text must keep its case.
	CaseSensitive bool
}

// Solution is a solved captcha: the text of an image, or the token a
// widget would have put in its form field (g-recaptcha-response,
// h-captcha-response, cf-turnstile-response).
type Solution struct {
	Type      string  `json:"type" enum:"image,recaptcha_v2,recaptcha_v3,hcaptcha,turnstile" doc:"The captcha type solved."`
	Provider  string  `json:"provider" example:"2captcha" doc:"The solver that answered: 2captcha, capsolver or local."`
	Text      string  `json:"text,omitempty" doc:"type image: the text read from the image (the local solver drops spaces and line breaks, and lower-cases it unless case_sensitive was asked)."`
	Token     string  `json:"token,omitempty" doc:"Token types: the response token to submit with the form (g-recaptcha-response, h-captcha-response or cf-turnstile-response). Tokens expire within minutes (reCAPTCHA: 2)."`
	UserAgent string  `json:"user_agent,omitempty" doc:"The browser User-Agent the provider solved with, when it says; some sites (hCaptcha, Turnstile) check that the form is submitted with the same one."`
	TaskID    string  `json:"task_id,omitempty" doc:"The provider's task id, for its support or for reporting a wrong answer."`
	TimeMS    float64 `json:"time_ms" doc:"Time spent solving, in milliseconds, rounded to two decimals."`
}

// Solver solves captchas of some types. Solve is given only tasks of
// types Supports accepts; it fills Solution's Text or Token, and TaskID
// and UserAgent when it has them (the Client fills Type, Provider and
// TimeMS). Implementations must be safe for concurrent use.
type Solver interface {
	// Name is how SolveRequest.Provider picks the solver.
	Name() string
	Supports(Type) bool
	Solve(ctx context.Context, task Task) (*Solution, error)
}

// Defaults for zero Options fields.
const (
	DefaultPollInterval     = 5 * time.Second   // both providers' recommendation
	DefaultInitialDelay     = 5 * time.Second   // before the first getTaskResult
	DefaultTimeout          = 120 * time.Second // one solve, creation to answer
	DefaultMaxResponseBytes = 1 << 20           // a provider's answer
)

// Options configure a Client. Nil or zero fields mean defaults; a solver
// whose key is empty is not configured.
type Options struct {
	// TwoCaptchaKey is the 2Captcha API key (server: --twocaptcha-key,
	// WEBINFRA_TWOCAPTCHA_KEY); empty: no 2Captcha solver.
	TwoCaptchaKey string
	// TwoCaptchaURL is the base URL of a 2Captcha-compatible task API;
	// empty: https://api.2captcha.com.
	TwoCaptchaURL string
	// CapSolverKey is the CapSolver API key (server: --capsolver-key,
	// WEBINFRA_CAPSOLVER_KEY); empty: no CapSolver solver.
	CapSolverKey string
	// CapSolverURL is the base URL of a CapSolver-compatible task API;
	// empty: https://api.capsolver.com.
	CapSolverURL string
	// OCR is the engine of the local solver for plain text images; nil:
	// no local solver.
	OCR OCR
	// HTTPClient talks to the providers; nil: a client of its own. The
	// provider URLs are the operator's configuration, never a caller's
	// input, so this need not be the fetcher's SSRF-guarded client (a
	// guarded client would refuse a provider on a private address).
	HTTPClient *http.Client
	// PollInterval is the wait between two getTaskResult calls;
	// 0: DefaultPollInterval.
	PollInterval time.Duration
	// InitialDelay is the wait between createTask and the first
	// getTaskResult; 0: DefaultInitialDelay.
	InitialDelay time.Duration
	// Timeout bounds one solve; 0: DefaultTimeout. Past it the solve is
	// errs.KindTimeout.
	Timeout time.Duration
	// MaxResponseBytes caps a provider's answer; 0: DefaultMaxResponseBytes.
	MaxResponseBytes int64
	// Sleep waits between polls and returns early with ctx's error; nil:
	// a timer. Tests pass one that returns at once: the provider's
	// timeout is then counted in the waits asked for, not on the clock.
	Sleep func(ctx context.Context, d time.Duration) error
	// Now is the clock Solution.TimeMS is measured with; nil: time.Now.
	Now func() time.Time
	// Solvers are more solvers, routed after the built-in ones. Names
	// must be unique.
	Solvers []Solver
}

// Client routes captchas to the configured solvers and detects widgets on
// pages. It is safe for concurrent use.
type Client struct {
	fetcher *fetch.Fetcher
	solvers []Solver // in routing order
	now     func() time.Time
}

// New returns a Client that fetches pages through f (nil: a fetcher with
// default options) and solves with the solvers opts configures. A bad
// provider URL is errs.KindInvalid naming its setting; no solver at all is
// not an error (Solve then answers errs.KindUnavailable).
func New(f *fetch.Fetcher, opts *Options) (*Client, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	var err error
	if f == nil {
		if f, err = fetch.New(nil); err != nil {
			return nil, err
		}
	}
	c := &Client{fetcher: f, now: o.Now}
	if c.now == nil {
		c.now = time.Now
	}
	po := &ProviderOptions{HTTPClient: o.HTTPClient, PollInterval: o.PollInterval, InitialDelay: o.InitialDelay,
		Timeout: o.Timeout, MaxResponseBytes: o.MaxResponseBytes, Sleep: o.Sleep}
	if key := strings.TrimSpace(o.TwoCaptchaKey); key != "" {
		po.BaseURL = o.TwoCaptchaURL
		p, err := NewTwoCaptcha(key, po)
		if err != nil {
			return nil, err
		}
		c.solvers = append(c.solvers, p)
	}
	if key := strings.TrimSpace(o.CapSolverKey); key != "" {
		po.BaseURL = o.CapSolverURL
		p, err := NewCapSolver(key, po)
		if err != nil {
			return nil, err
		}
		c.solvers = append(c.solvers, p)
	}
	if o.OCR != nil {
		c.solvers = append(c.solvers, NewLocal(o.OCR, &LocalOptions{Timeout: o.Timeout}))
	}
	for _, s := range o.Solvers {
		if s == nil {
			continue
		}
		if s.Name() == "" || c.solver(s.Name()) != nil {
			return nil, errs.Invalid("solvers", "solver name %q is empty or used twice", s.Name())
		}
		c.solvers = append(c.solvers, s)
	}
	return c, nil
}

// Providers names the configured solvers in routing order.
func (c *Client) Providers() []string {
	names := make([]string, len(c.solvers))
	for i, s := range c.solvers {
		names[i] = s.Name()
	}
	return names
}

// Solve checks req, routes it (see the package documentation) and solves
// it. Bad input is errs.KindInvalid naming the field; no solver for the
// type is errs.KindUnavailable naming the settings that configure one;
// the provider failing is errs.KindUpstream, and not answering within
// Options.Timeout errs.KindTimeout.
func (c *Client) Solve(ctx context.Context, req SolveRequest) (*Solution, error) {
	task, err := req.Task()
	if err != nil {
		return nil, err
	}
	s, err := c.route(task.Type, strings.TrimSpace(req.Provider))
	if err != nil {
		return nil, err
	}
	start := c.now()
	sol, err := s.Solve(ctx, task)
	if err != nil {
		return nil, err
	}
	sol.Type, sol.Provider = string(task.Type), s.Name()
	sol.TimeMS = math.Round(float64(c.now().Sub(start))/float64(time.Millisecond)*100) / 100
	return sol, nil
}

// solver returns the configured solver named name, or nil.
func (c *Client) solver(name string) Solver {
	for _, s := range c.solvers {
		if s.Name() == name {
			return s
		}
	}
	return nil
}

// route picks the solver for a task of type t: the one named, which must
// be configured and support t, or else the first configured one that
// supports t.
func (c *Client) route(t Type, provider string) (Solver, error) {
	if provider == "" {
		for _, s := range c.solvers {
			if s.Supports(t) {
				return s, nil
			}
		}
		return nil, noSolver(t)
	}
	s, err := c.named(provider)
	if err != nil {
		return nil, err
	}
	if !s.Supports(t) {
		var others []string
		for _, o := range c.solvers {
			if o.Supports(t) {
				others = append(others, o.Name())
			}
		}
		msg := "none of the configured solvers does"
		if len(others) > 0 {
			msg = "use " + strings.Join(others, " or ") + ", or leave provider out"
		}
		return nil, errs.Invalid("provider", "%s does not solve %s captchas: %s", provider, t, msg)
	}
	return s, nil
}

// named returns the configured solver called name; a built-in one that
// is not configured is errs.KindUnavailable naming its setting, any other
// name errs.KindInvalid.
func (c *Client) named(name string) (Solver, error) {
	if s := c.solver(name); s != nil {
		return s, nil
	}
	switch name {
	case ProviderTwoCaptcha:
		return nil, errs.New(errs.KindUnavailable, "the 2captcha solver is not configured on this server: the operator sets %s", twoCaptcha.setting())
	case ProviderCapSolver:
		return nil, errs.New(errs.KindUnavailable, "the capsolver solver is not configured on this server: the operator sets %s", capSolver.setting())
	case ProviderLocal:
		return nil, errs.New(errs.KindUnavailable, "the local solver is not available on this server: it needs an OCR engine (the operator installs tesseract-ocr)")
	}
	names := []string{ProviderTwoCaptcha, ProviderCapSolver, ProviderLocal}
	for _, s := range c.solvers {
		if !slices.Contains(names, s.Name()) {
			names = append(names, s.Name())
		}
	}
	return nil, errs.Invalid("provider", "unknown provider %q: one of %s, or leave it out", name, strings.Join(names, ", "))
}

// noSolver is the error for a type no configured solver supports: it
// names the settings that would configure one.
func noSolver(t Type) error {
	var how string
	switch t {
	case TypeHCaptcha:
		how = twoCaptcha.setting() + " (CapSolver does not solve hCaptcha)"
	case TypeImage:
		how = twoCaptcha.setting() + " or " + capSolver.setting() + ", or install tesseract-ocr for the local solver"
	default:
		how = twoCaptcha.setting() + " or " + capSolver.setting()
	}
	return errs.New(errs.KindUnavailable, "no captcha solver for %s is configured on this server: the operator sets %s", t, how)
}
