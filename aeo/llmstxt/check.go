package llmstxt

import (
	"context"
	"fmt"

	"github.com/webinfra/webinfra/fetch"
	"github.com/webinfra/webinfra/seo/htmlaudit/auditkit"
	"github.com/webinfra/webinfra/seo/linkcheck"
)

// probe looks for llms-full.txt and, unless skipped, probes the first
// in.MaxLinks distinct link URLs, in one linkcheck.Probe call.
func (rep *Report) probe(ctx context.Context, f *fetch.Fetcher, in Input, opts *linkcheck.ProbeOptions) error {
	limit := in.MaxLinks
	if limit == 0 {
		limit = MaxCheckedLinks
	}
	var urls []string
	first := map[string]int{} // URL → index of its first link
	for i, l := range rep.Links {
		if _, seen := first[l.URL]; seen {
			continue
		}
		first[l.URL] = i
		if !in.SkipLinkCheck && len(urls) < limit {
			urls = append(urls, l.URL)
		}
	}
	rep.LinkCheck.Distinct = len(first)
	statuses, err := linkcheck.Probe(ctx, f, append([]string{rep.FullText.URL}, urls...), opts)
	if err != nil {
		return err
	}
	full := statuses[0]
	rep.FullText.StatusCode, rep.FullText.Result = full.StatusCode, full.Result
	rep.FullText.Present = full.StatusCode >= 200 && full.StatusCode <= 299
	if rep.Found && !rep.FullText.Present {
		rep.fileProblem("no_llms_full_txt", auditkit.Notice, fmt.Sprintf("No llms-full.txt beside it (%s): an agent that wants the whole documentation in one file has none.", rep.FullText.URL))
	}
	checked := map[string]*linkcheck.LinkStatus{}
	for i, u := range urls {
		st := statuses[i+1]
		checked[u] = &st
		rep.LinkCheck.add(st)
		switch {
		case st.Broken:
			l := rep.Links[first[u]]
			rep.linkProblem(l, "broken_link", auditkit.Error, fmt.Sprintf("Link %q is broken: %s.", l.Name, describe(st)))
		case st.Result == linkcheck.ResultBlocked:
			l := rep.Links[first[u]]
			rep.linkProblem(l, "blocked_link", auditkit.Notice, fmt.Sprintf("Link %q points at an address this service may not fetch; it was not checked.", l.Name))
		}
	}
	rep.LinkCheck.Unchecked += rep.LinkCheck.Distinct - len(urls)
	rep.LinkCheck.Truncated = rep.LinkCheck.Distinct > len(urls)
	for i := range rep.Links {
		rep.Links[i].Check = checked[rep.Links[i].URL]
	}
	return nil
}

func (c *LinkCheck) add(st linkcheck.LinkStatus) {
	if st.Result == linkcheck.ResultUnchecked {
		c.Unchecked++
		return
	}
	c.Checked++
	switch {
	case st.Broken:
		c.Broken++
	case st.Result == linkcheck.ResultOK:
		c.OK++
	case st.Result == linkcheck.ResultRateLimited:
		c.RateLimited++
	case st.Result == linkcheck.ResultBlocked:
		c.Blocked++
	}
}

// describe says why a probed link is broken.
func describe(st linkcheck.LinkStatus) string {
	if st.StatusCode != 0 {
		return fmt.Sprintf("HTTP %d (%s)", st.StatusCode, st.Result)
	}
	return fmt.Sprintf("%s: %s", st.Result, st.Error)
}

// linkProblem adds a problem at a link's line, keeping problems in line
// order.
func (rep *Report) linkProblem(l Link, code, severity, msg string) {
	rep.counts[code]++
	if len(rep.Problems) >= MaxProblems+4 { // room for the file's own problems
		rep.Truncated = true
		return
	}
	p := Problem{Line: l.Line, Finding: auditkit.Finding{Code: code, Severity: severity, Message: msg, URL: l.URL}}
	i := len(rep.Problems)
	for i > 0 && rep.Problems[i-1].Line > l.Line {
		i--
	}
	rep.Problems = append(rep.Problems[:i], append([]Problem{p}, rep.Problems[i:]...)...)
}

// score applies the deductions.
func (rep *Report) score() {
	rep.Score, rep.Deductions = 100, []Deduction{}
	for _, d := range deductions {
		n := rep.counts[d.code]
		if n == 0 {
			continue
		}
		points := min(n*d.each, d.limit)
		rep.Score -= points
		rep.Deductions = append(rep.Deductions, Deduction{Code: d.code, Count: n, Points: points, Reason: d.reason})
	}
	rep.Score = auditkit.Clamp(rep.Score)
	rep.Grade = auditkit.Grade(rep.Score)
}
