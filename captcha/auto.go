package captcha

import (
	"context"
	"net/http"
	"strings"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/fetch"
)

// AutoRequest is the input of POST /v1/captcha/auto.
type AutoRequest struct {
	URL      string `json:"url" minLength:"1" maxLength:"8192" example:"https://www.google.com/recaptcha/api2/demo" doc:"The page with the captcha (http or https). It is fetched through the server's fetcher (SSRF guard, tiers), its widget detected from the HTML, and solved for the page's final URL."`
	Provider string `json:"provider,omitempty" enum:"2captcha,capsolver,local" doc:"The solver to use, which must be configured on the server; omitted: the first configured one that solves the widget found, in the order 2captcha, capsolver."`
}

// Widget is a captcha widget found on a page.
type Widget struct {
	Type      string `json:"type" enum:"recaptcha_v2,recaptcha_v3,hcaptcha,turnstile" doc:"The widget's captcha type."`
	SiteKey   string `json:"sitekey" doc:"The widget's site key."`
	Action    string `json:"action,omitempty" doc:"recaptcha_v3: the action passed to grecaptcha.execute, when the page shows it; turnstile: the widget's data-action."`
	Invisible bool   `json:"invisible,omitempty" doc:"recaptcha_v2, hcaptcha: the widget is invisible (data-size=\"invisible\")."`
}

// AutoResult is the output of POST /v1/captcha/auto.
type AutoResult struct {
	PageURL  string    `json:"page_url" doc:"The page's final URL after redirects: the URL the captcha was solved for."`
	Detected Widget    `json:"detected" doc:"The widget solved: the first the configured solvers can take, visible widgets before reCAPTCHA v3."`
	Others   []Widget  `json:"others,omitempty" doc:"Other widgets found on the page and not solved; solve one with POST /v1/captcha/solve."`
	Solution *Solution `json:"solution" doc:"The solved captcha."`
}

// Auto fetches the page through the fetcher, detects its captcha widget
// (see Detect) and solves it for the page's final URL. A page without a
// widget is errs.KindInvalid on "url"; fetch errors keep their kind; the
// solve's errors are those of Solve.
func (c *Client) Auto(ctx context.Context, req AutoRequest) (*AutoResult, error) {
	provider := strings.TrimSpace(req.Provider)
	if err := c.canSolveWidgets(provider); err != nil {
		return nil, err
	}
	target := strings.TrimSpace(req.URL)
	if target == "" {
		return nil, errs.Invalid("url", "is required: the page with the captcha")
	}
	res, err := c.fetcher.Fetch(ctx, fetch.Request{URL: target})
	if err != nil {
		return nil, err
	}
	if !isHTML(res) {
		return nil, errs.Invalid("url", "answered %s, not an HTML page with a captcha widget", res.ContentType)
	}
	found := detect(res.Body)
	if len(found.widgets) == 0 {
		return nil, errs.Invalid("url", "%s", found.noWidgetMessage())
	}
	pageURL := res.FinalURL
	if pageURL == "" {
		pageURL = target
	}
	chosen, err := c.pick(found.widgets, provider)
	if err != nil {
		return nil, err
	}
	w := found.widgets[chosen]
	sol, err := c.Solve(ctx, SolveRequest{Type: w.Type, SiteKey: w.SiteKey, PageURL: pageURL, Action: w.Action,
		Invisible: w.Invisible, Provider: provider})
	if err != nil {
		return nil, err
	}
	out := &AutoResult{PageURL: pageURL, Detected: w, Solution: sol}
	for i, o := range found.widgets {
		if i != chosen {
			out.Others = append(out.Others, o)
		}
	}
	return out, nil
}

// canSolveWidgets refuses, before anything is fetched, an Auto call no
// configured solver could answer.
func (c *Client) canSolveWidgets(provider string) error {
	widgetTypes := []Type{TypeRecaptchaV2, TypeRecaptchaV3, TypeHCaptcha, TypeTurnstile}
	if provider != "" {
		s, err := c.named(provider)
		if err != nil {
			return err
		}
		for _, t := range widgetTypes {
			if s.Supports(t) {
				return nil
			}
		}
		return errs.Invalid("provider", "%s solves no widget captchas (only images): use 2captcha or capsolver, or leave provider out", provider)
	}
	for _, s := range c.solvers {
		for _, t := range widgetTypes {
			if s.Supports(t) {
				return nil
			}
		}
	}
	return errs.New(errs.KindUnavailable, "no solver for widget captchas (reCAPTCHA, hCaptcha, Turnstile) is configured on this server: the operator sets %s or %s",
		twoCaptcha.setting(), capSolver.setting())
}

// pick returns the index of the first widget a solver can take; when
// none can, the routing error of the first.
func (c *Client) pick(widgets []Widget, provider string) (int, error) {
	var first error
	for i, w := range widgets {
		_, err := c.route(Type(w.Type), provider)
		if err == nil {
			return i, nil
		}
		if first == nil {
			first = err
		}
	}
	return -1, first
}

// isHTML reports whether a fetched page is HTML, by its media type or,
// when the server said something vaguer, by its bytes.
func isHTML(res *fetch.Response) bool {
	mt := strings.ToLower(res.ContentType)
	switch {
	case strings.Contains(mt, "html"):
		return true
	case mt == "" || mt == "text/plain" || mt == "application/octet-stream":
		return strings.Contains(http.DetectContentType(res.Body), "html")
	}
	return false
}
