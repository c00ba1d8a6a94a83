package llmstxt

import (
	"bytes"
	"context"
	"fmt"
	"net/url"
	"path"
	"strings"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/fetch"
	"github.com/webinfra/webinfra/seo/htmlaudit/auditkit"
	"github.com/webinfra/webinfra/seo/linkcheck"
)

// Bounds and thresholds of Audit.
const (
	// MaxCheckedLinks is the most links probed for rot (SPEC: up to 50).
	MaxCheckedLinks = 50
	// MaxParseBytes is the most of the file parsed.
	MaxParseBytes = 1 << 20
	// LargeFileBytes is the size above which the file is large: llms.txt
	// is an index, and long content belongs in llms-full.txt.
	LargeFileBytes = 100 << 10
)

// Input names the site whose llms.txt is audited.
type Input struct {
	URL           string `json:"url" minLength:"1" maxLength:"8192" example:"https://example.com" doc:"The site: any URL on it, or a bare domain (https:// is then assumed). Its origin's /llms.txt is audited, or the URL itself when its file name is llms.txt (the proposal allows a subpath)."`
	MaxLinks      int    `json:"max_links,omitempty" minimum:"0" maximum:"50" example:"50" doc:"The most links probed for rot, the first distinct ones in file order; 0 means 50."`
	SkipLinkCheck bool   `json:"skip_link_check,omitempty" doc:"Audit the structure only: probe no link (llms-full.txt is still looked for)."`
}

// Options tune Audit. The zero value (or nil) means defaults.
type Options struct {
	// Probe tunes the link-rot probes (see linkcheck.ProbeOptions).
	Probe linkcheck.ProbeOptions
}

// Report is the answer of the llms.txt audit.
type Report struct {
	URL         string `json:"url" doc:"The llms.txt URL fetched."`
	Found       bool   `json:"found" doc:"The URL answered 2xx."`
	StatusCode  int    `json:"status_code"`
	FinalURL    string `json:"final_url"`
	ContentType string `json:"content_type" doc:"The media type served; text/plain or text/markdown expected."`
	Bytes       int    `json:"bytes" doc:"The file's size as served (decoded)."`
	// Structure is what the file holds: title, summary, sections, links
	// (each with its probe), problems (the file's own ones at line 0).
	Structure
	LinkCheck  LinkCheck   `json:"link_check" doc:"The link-rot check."`
	FullText   FullText    `json:"llms_full_txt" doc:"The companion llms-full.txt (the whole documentation in one file)."`
	Score      int         `json:"score" minimum:"0" maximum:"100" doc:"100 minus the deductions; 0 when there is no usable file."`
	Grade      string      `json:"grade" enum:"A,B,C,D,F" doc:"A from 90, B from 80, C from 70, D from 60, F below."`
	Deductions []Deduction `json:"deductions" doc:"What the score lost, per problem code."`
}

// LinkCheck sums up the link-rot probes.
type LinkCheck struct {
	Distinct    int  `json:"distinct" doc:"Distinct link URLs in the file."`
	Checked     int  `json:"checked" doc:"Probed: at most max_links (50)."`
	OK          int  `json:"ok"`
	Broken      int  `json:"broken" doc:"4xx (429 excepted), 5xx, no answer or invalid."`
	RateLimited int  `json:"rate_limited"`
	Blocked     int  `json:"blocked" doc:"Refused by the SSRF guard: not fetched, not counted as broken."`
	Unchecked   int  `json:"unchecked" doc:"Not probed: the time budget ran out, past max_links, or skip_link_check."`
	Truncated   bool `json:"truncated" doc:"Some distinct links were past max_links (or skip_link_check was set) and not probed."`
}

// FullText is what was found at llms-full.txt.
type FullText struct {
	URL        string `json:"url"`
	Present    bool   `json:"present" doc:"It answered 2xx."`
	StatusCode int    `json:"status_code,omitempty"`
	Result     string `json:"result,omitempty" doc:"The probe's result (see linkcheck results)."`
}

// Deduction is what one problem code cost the score.
type Deduction struct {
	Code   string `json:"code"`
	Count  int    `json:"count"`
	Points int    `json:"points"`
	Reason string `json:"reason"`
}

// deductions are the points per problem code: each occurrence costs each,
// up to limit. Codes not listed (notices such as text_in_section,
// blocked_link, no_llms_full_txt) cost nothing.
var deductions = []struct {
	code        string
	each, limit int
	reason      string
}{
	{"not_found", 100, 100, "no llms.txt"},
	{"not_available", 100, 100, "llms.txt did not answer 2xx"},
	{"html_served", 100, 100, "an HTML page is served, not markdown"},
	{"empty_file", 100, 100, "the file is empty"},
	{"missing_h1", 40, 40, "no H1 with the name (the one required part)"},
	{"empty_h1", 20, 20, "the H1 is empty"},
	{"content_before_h1", 15, 15, "the file does not open with the H1"},
	{"missing_summary", 15, 15, "no blockquote summary"},
	{"no_sections", 15, 15, "no H2 sections of links"},
	{"wrong_content_type", 10, 10, "served with a media type that is not text/plain or text/markdown"},
	{"broken_link", 5, 30, "broken links"},
	{"empty_section", 5, 15, "sections without links"},
	{"malformed_link", 3, 15, "list entries that are not [name](url) links"},
	{"invalid_url", 3, 15, "link URLs that are not http(s)"},
	{"multiple_h1", 5, 5, "more than one H1"},
	{"empty_link_name", 2, 10, "links without a name"},
	{"large_file", 5, 5, "over 100 KiB: an index should be short"},
	{"duplicate_section", 2, 6, "sections repeated"},
	{"relative_url", 1, 5, "relative link URLs"},
	{"duplicate_link", 1, 5, "links listed twice"},
	{"deep_heading", 1, 5, "H3-H6 headings"},
}

// Audit fetches the site's llms.txt with the direct tier, audits its
// structure (Parse), its media type and size, probes its first
// in.MaxLinks distinct links (linkcheck.Probe, with its per-host
// politeness) and llms-full.txt beside it, and scores it 0-100.
//
// A missing file (or any non-2xx answer) is a report with found false and
// score 0, not an error. Bad input is errs.KindInvalid naming the field
// ("url", "max_links"); a site that cannot be reached is the fetch's
// error; cancelling ctx returns ctx's error.
func Audit(ctx context.Context, f *fetch.Fetcher, in Input, opts *Options) (*Report, error) {
	if f == nil {
		return nil, errs.Invalid("fetcher", "must not be nil")
	}
	if in.MaxLinks < 0 || in.MaxLinks > MaxCheckedLinks {
		return nil, errs.Invalid("max_links", "must be between 0 and %d, got %d", MaxCheckedLinks, in.MaxLinks)
	}
	llmsURL, fullURL, err := targets(in.URL)
	if err != nil {
		return nil, err
	}
	var o Options
	if opts != nil {
		o = *opts
	}
	res, err := f.Fetch(ctx, fetch.Request{URL: llmsURL, Tier: fetch.TierDirect})
	if err != nil {
		return nil, err
	}
	rep := &Report{URL: llmsURL, StatusCode: res.StatusCode, FinalURL: res.FinalURL, ContentType: res.ContentType,
		Bytes: len(res.Body), FullText: FullText{URL: fullURL}}
	rep.Structure = Structure{Sections: []Section{}, Links: []Link{}, Problems: []Problem{}, counts: map[string]int{}}
	if rep.Found = res.StatusCode >= 200 && res.StatusCode <= 299; rep.Found {
		rep.readBody(res)
	} else if res.StatusCode == 404 || res.StatusCode == 410 {
		rep.fileProblem("not_found", auditkit.Error, fmt.Sprintf("%s answered HTTP %d: the site has no llms.txt.", llmsURL, res.StatusCode))
	} else {
		rep.fileProblem("not_available", auditkit.Error, fmt.Sprintf("%s answered HTTP %d.", llmsURL, res.StatusCode))
	}
	if err := rep.probe(ctx, f, in, &o.Probe); err != nil {
		return nil, err
	}
	rep.score()
	return rep, nil
}

// targets returns the llms.txt URL named by raw and the llms-full.txt
// beside it.
func targets(raw string) (llms, full string, err error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return "", "", errs.Invalid("url", "is required")
	}
	if !strings.Contains(raw, "://") {
		raw = "https://" + raw
	}
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		return "", "", errs.Invalid("url", "is not a valid URL")
	case u.Scheme != "http" && u.Scheme != "https":
		return "", "", errs.Invalid("url", "scheme must be http or https, not %q", u.Scheme)
	case u.Hostname() == "":
		return "", "", errs.Invalid("url", "must have a host")
	case u.User != nil:
		return "", "", errs.Invalid("url", "must not contain credentials (user:password@)")
	}
	dir := "/"
	if path.Base(u.Path) == "llms.txt" {
		dir = path.Dir(u.Path)
	}
	origin := u.Scheme + "://" + u.Host
	return origin + path.Join(dir, "llms.txt"), origin + path.Join(dir, "llms-full.txt"), nil
}

// readBody checks the served file's type and size, then parses it.
func (rep *Report) readBody(res *fetch.Response) {
	body := res.Body
	head := bytes.ToLower(bytes.TrimSpace(body[:min(len(body), 512)]))
	switch {
	case res.ContentType == "text/html" || res.ContentType == "application/xhtml+xml" ||
		bytes.HasPrefix(head, []byte("<!doctype html")) || bytes.HasPrefix(head, []byte("<html")):
		rep.fileProblem("html_served", auditkit.Error, fmt.Sprintf("An HTML page (%s) is served instead of the markdown file: often a site's catch-all page answering a missing file with 200.", res.ContentType))
		return
	case len(bytes.TrimSpace(body)) == 0:
		rep.fileProblem("empty_file", auditkit.Error, "The file is empty.")
		return
	}
	switch res.ContentType {
	case "text/plain", "text/markdown", "text/x-markdown":
	default:
		rep.fileProblem("wrong_content_type", auditkit.Warning, fmt.Sprintf("Served as %s: serve it as text/markdown or text/plain so agents read it as text.", res.ContentType))
	}
	if len(body) > LargeFileBytes {
		rep.fileProblem("large_file", auditkit.Notice, fmt.Sprintf("%d KiB: llms.txt is an index an agent reads whole; keep it short and put long content in llms-full.txt.", len(body)>>10))
	}
	cut := len(body) > MaxParseBytes
	if cut {
		body = body[:MaxParseBytes]
	}
	base, _ := url.Parse(res.FinalURL)
	fileProblems := rep.Problems
	rep.Structure = *Parse(string(body), base)
	rep.Truncated = rep.Truncated || cut
	rep.Problems = append(fileProblems, rep.Problems...)
	for _, p := range fileProblems {
		rep.counts[p.Code]++
	}
}

// fileProblem adds a problem of the file as a whole (line 0).
func (rep *Report) fileProblem(code, severity, msg string) {
	rep.counts[code]++
	rep.Problems = append(rep.Problems, Problem{Finding: auditkit.Finding{Code: code, Severity: severity, Message: msg, URL: rep.URL}})
}
