package fetchsim

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/seo/htmlaudit/auditkit"
)

// answered is one job read: what the report shows and the page behind it.
type answered struct {
	Answer
	page page
	ok   bool // an HTTP answer came
}

func read(j *job) answered {
	a := answered{Answer: Answer{DurationMS: float64(j.duration.Microseconds()) / 1000}}
	if j.err != nil {
		a.Error = j.err.Error()
		if errs.Is(j.err, errs.KindBlocked) {
			a.Blocked, a.BlockReason = true, "a bot wall or challenge: "+j.err.Error()
		}
		return a
	}
	res := j.res
	a.ok, a.page = true, analyze(res)
	a.StatusCode, a.FinalURL, a.ContentType, a.Bytes = res.StatusCode, res.FinalURL, res.ContentType, len(res.Body)
	a.Words, a.TextPreview = auditkit.Words(a.page.text), auditkit.Clip(a.page.text, PreviewRunes)
	switch res.StatusCode {
	case http.StatusUnauthorized, http.StatusForbidden, http.StatusTooManyRequests:
		a.Blocked, a.BlockReason = true, fmt.Sprintf("HTTP %d", res.StatusCode)
	}
	return a
}

// build compares each agent's answer with the baseline's.
func build(rawURL string, agents []Agent, baseJob *job, agentJobs []*job, render *job, threshold float64) *Report {
	base := read(baseJob)
	rep := &Report{URL: rawURL, Baseline: Baseline{Name: BrowserName, UserAgent: BrowserUserAgent, Answer: base.Answer},
		Agents: []AgentResult{}, Blocked: []string{}, Cloaking: []string{}, Findings: []auditkit.Finding{}}
	add := func(code, severity, format string, args ...any) {
		rep.Findings = append(rep.Findings, auditkit.Finding{Code: code, Severity: severity, URL: rawURL, Message: fmt.Sprintf(format, args...)})
	}
	switch {
	case !base.ok && !base.Blocked:
		add("baseline_failed", auditkit.Error, "The browser baseline got no answer (%s): nothing to compare the agents with.", base.Error)
	case base.Blocked:
		add("baseline_blocked", auditkit.Warning, "The browser baseline itself was refused (%s): the site blocks this service, not only AI crawlers, so comparisons say little.", base.BlockReason)
	}
	for i, ag := range agents {
		r := compare(ag, read(agentJobs[i]), base, threshold)
		rep.Agents = append(rep.Agents, r)
		if r.Blocked {
			rep.Blocked = append(rep.Blocked, ag.Name)
			add("agent_blocked", auditkit.Error, "%s (%s, %s) is refused: %s. It cannot read or cite the page.", ag.Name, ag.Operator, ag.Purpose, r.BlockReason)
		}
		if r.Cloaking {
			rep.Cloaking = append(rep.Cloaking, ag.Name)
			add("cloaking", auditkit.Warning, "%s gets a different page than a browser: %s.", ag.Name, strings.Join(r.CloakingReasons, "; "))
		}
	}
	rep.JSOnly = jsOnly(base, render)
	if rep.JSOnly.Detected {
		add("js_only", auditkit.Error, "%s AI crawlers run no JavaScript and see next to nothing.", rep.JSOnly.Reason)
	} else if rw := rep.JSOnly.RenderedWords; rw != nil && *rw >= 2*base.Words+100 {
		add("js_dependent_content", auditkit.Warning, "The rendered page has %d words, the HTML %d: much of the content needs JavaScript, which AI crawlers do not run.", *rw, base.Words)
	}
	return rep
}

// compare reads an agent's answer against the baseline's: blocked, or
// (when not) cloaking.
func compare(ag Agent, a, base answered, threshold float64) AgentResult {
	r := AgentResult{Agent: ag, Answer: a.Answer}
	if a.ok && base.ok {
		s := similarity(a.page.words, base.page.words)
		r.Similarity = &s
	}
	switch {
	case r.Blocked:
	case !a.ok && base.ok:
		r.Blocked, r.BlockReason = true, fmt.Sprintf("no answer (%s) where the browser got HTTP %d", a.Error, base.StatusCode)
	case a.ok && base.ok && a.StatusCode >= 400 && base.StatusCode < 400:
		r.Blocked, r.BlockReason = true, fmt.Sprintf("HTTP %d where the browser got HTTP %d", a.StatusCode, base.StatusCode)
	}
	if r.Blocked || !a.ok || !base.ok || base.Blocked {
		return r
	}
	if a.StatusCode != base.StatusCode {
		r.CloakingReasons = append(r.CloakingReasons, fmt.Sprintf("HTTP %d where the browser got HTTP %d", a.StatusCode, base.StatusCode))
	}
	if a.FinalURL != base.FinalURL {
		r.CloakingReasons = append(r.CloakingReasons, fmt.Sprintf("redirected to %s where the browser ended at %s", a.FinalURL, base.FinalURL))
	}
	if *r.Similarity < threshold {
		r.CloakingReasons = append(r.CloakingReasons, fmt.Sprintf("text similarity %.3f, under %.2f (%d words where the browser got %d)", *r.Similarity, threshold, a.Words, base.Words))
	}
	r.Cloaking = len(r.CloakingReasons) > 0
	return r
}

// jsOnly decides whether the baseline's HTML is a JavaScript shell, and
// compares it with the rendered page when there is one.
func jsOnly(base answered, render *job) JSOnly {
	v := JSOnly{Words: base.Words, Scripts: base.page.scripts, AppRoot: base.page.appRoot}
	if base.ok && base.page.html && base.StatusCode >= 200 && base.StatusCode <= 299 &&
		base.Words < JSOnlyWords && (v.Scripts > 0 || v.AppRoot != "") {
		v.Detected = true
		v.Reason = fmt.Sprintf("Without JavaScript the page shows %d words", base.Words)
		if v.AppRoot != "" {
			v.Reason += fmt.Sprintf(", an empty app root (#%s)", v.AppRoot)
		}
		v.Reason += fmt.Sprintf(" and %d script(s).", v.Scripts)
	}
	if render == nil {
		return v
	}
	if render.err != nil {
		v.RenderNote = "no rendered comparison: " + render.err.Error()
		if errs.Is(render.err, errs.KindUnavailable) {
			v.RenderNote = "no rendered comparison: this server has no browser (render tier)"
		}
		return v
	}
	rendered := read(render)
	v.RenderedWords = &rendered.Words
	switch {
	case v.Detected && rendered.Words < JSOnlyWords:
		v.Detected, v.Reason = false, ""
		v.RenderNote = fmt.Sprintf("rendered in a browser the page shows %d words too: it is thin, not JavaScript-only", rendered.Words)
	case v.Detected:
		v.Reason += fmt.Sprintf(" Rendered in a browser it shows %d.", rendered.Words)
	}
	return v
}
