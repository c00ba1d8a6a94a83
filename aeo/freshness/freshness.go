package freshness

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"strings"
	"time"

	"github.com/webinfra/webinfra/aeo/internal/pagedata"
	"github.com/webinfra/webinfra/aeo/internal/scoring"
	"github.com/webinfra/webinfra/seo/htmlaudit/auditkit"
)

// Sources of a Signal.
const (
	SourceJSONLD    = "json_ld"
	SourceMicrodata = "microdata"
	SourceMeta      = "meta"
	SourceHeader    = "http_header"
	SourceText      = "visible_text"
	SourceCopyright = "copyright"
)

// Kinds of a Signal.
const (
	KindModified  = "modified"
	KindPublished = "published"
	KindCopyright = "copyright"
)

// Page carries extractions of the page the caller already made (see
// Options.Page); it is the same type in aeo/schemacov and aeo/citation, so
// one value serves every audit.
type Page = pagedata.Page

// Input is the page to score; it is the body of
// POST /v1/aeo/freshness-signal (Header and Now are for Go callers).
type Input struct {
	HTML         string `json:"html" minLength:"1" maxLength:"10485760" example:"<html><head><meta property=\"article:modified_time\" content=\"2024-05-01T09:00:00Z\"></head><body><p>Last updated: May 1, 2024</p><footer>© 2024 Example</footer></body></html>" doc:"The page's HTML, UTF-8."`
	URL          string `json:"url,omitempty" maxLength:"8192" example:"https://example.com/guide" doc:"The page's URL, optional: an absolute http(s) URL."`
	LastModified string `json:"last_modified,omitempty" maxLength:"200" example:"Wed, 01 May 2024 09:00:00 GMT" doc:"The Last-Modified header the page was served with, when known."`
	// Header is the page's response headers; its Last-Modified is read
	// when LastModified is empty.
	Header http.Header `json:"-"`
	// Now is the time ages are measured from; zero means time.Now().
	Now time.Time `json:"-"`
}

// Options tune Check. Nil means defaults.
type Options struct {
	// Page, when set, holds the page already parsed and extracted (from
	// the same HTML); Check reads Doc and Structured from it instead of
	// redoing them.
	Page *Page
}

// Report is the answer of freshness-signal.
type Report struct {
	Score           int             `json:"score" minimum:"0" maximum:"100" doc:"0-100: the age of the newest in-page date on the curve in the package doc, less 5 points per inconsistency (at most 15)."`
	Grade           string          `json:"grade" enum:"A,B,C,D,F" doc:"A from 90, B from 80, C from 70, D from 60, F below."`
	Reason          string          `json:"reason" doc:"How the score was reached."`
	Basis           *Signal         `json:"basis" doc:"The signal the score is based on; null when the page has no dated signal."`
	MostRecent      *Signal         `json:"most_recent" doc:"The most recent dated signal of any source (not in the future; a copyright year only when nothing else is dated)."`
	Signals         []Signal        `json:"signals" doc:"Every signal found, at most 20 per source."`
	Inconsistencies []Inconsistency `json:"inconsistencies" doc:"Dates that contradict each other or the clock."`
	Now             string          `json:"now" doc:"The time ages are measured from, RFC 3339."`
	Truncated       bool            `json:"truncated" doc:"Signals were left out, or the page was too large to read whole."`
}

// Signal is one date the page or its response states.
type Signal struct {
	Source   string `json:"source" enum:"json_ld,microdata,meta,http_header,visible_text,copyright" doc:"Where it was found."`
	Kind     string `json:"kind" enum:"modified,published,copyright" doc:"What it dates."`
	Property string `json:"property" example:"dateModified" doc:"The property, meta name, header or visible label it came from (dateModified, article:modified_time, Last-Modified, \"Last updated\", ©)."`
	Path     string `json:"path,omitempty" example:"$[0].dateModified" doc:"For JSON-LD, the JSON path ($[i] indexes the page's JSON-LD items)."`
	Raw      string `json:"raw" doc:"The value or text as the page states it, at most 160 characters."`
	Date     string `json:"date,omitempty" example:"2024-05-01T09:00:00Z" doc:"The date read: RFC 3339, a full-date when only the day is known, the year for a copyright; empty when the value could not be read."`
	AgeDays  *int   `json:"age_days,omitempty" doc:"Whole days from the date to now (negative in the future); absent when undated."`
	Future   bool   `json:"future,omitempty" doc:"The date is more than a day after now."`

	t       time.Time
	dated   bool
	dayOnly bool
	year    bool
}

// Inconsistency is a contradiction between dates.
type Inconsistency struct {
	Code    string `json:"code" enum:"modified_before_published,json_ld_meta_disagree,last_modified_far_newer,copyright_outdated,future_date" doc:"What contradicts what."`
	Message string `json:"message"`
	Signals []int  `json:"signals" doc:"Indexes into signals of the dates concerned."`
}

// Check scores how fresh a page looks from the dates it states (see the
// package doc). Errors: blank html (without opts.Page holding the page)
// or a url that is not an absolute http(s) URL is errs.KindInvalid; html
// over 10 MiB errs.KindTooLarge.
func Check(ctx context.Context, in Input, opts *Options) (*Report, error) {
	var given *Page
	if opts != nil {
		given = opts.Page
	}
	p, err := pagedata.Load(ctx, in.HTML, in.URL, given, pagedata.Need{})
	if err != nil {
		return nil, err
	}
	now := in.Now
	if now.IsZero() {
		now = time.Now()
	}
	c := &collector{now: now, perSource: map[string]int{}}
	c.jsonLD(p.Structured.JSONLD)
	c.microdata(p.Structured.Microdata)
	c.meta(p.Structured)
	c.header(in.Header, in.LastModified)
	body, times, footers, cut := pageParts(p.Doc)
	text := auditkit.Text(body, maxTextBytes)
	c.timeElements(times)
	c.visibleText(text)
	c.copyright(footers, text)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	r := &Report{Now: now.UTC().Format(time.RFC3339), Inconsistencies: []Inconsistency{},
		Truncated: c.truncated || cut || len(text) >= maxTextBytes}
	for i := range c.signals {
		finish(&c.signals[i], now)
	}
	r.Signals = c.signals
	if r.Signals == nil {
		r.Signals = []Signal{}
	}
	r.Inconsistencies = inconsistencies(r.Signals, now)
	score(r, now)
	return r, nil
}

// finish fills a signal's Date, AgeDays and Future.
func finish(s *Signal, now time.Time) {
	if !s.dated {
		return
	}
	switch {
	case s.year:
		s.Date = fmt.Sprint(s.t.Year())
	case s.dayOnly:
		s.Date = s.t.Format(time.DateOnly)
	default:
		s.Date = s.t.Format(time.RFC3339)
	}
	age := int(math.Floor(now.Sub(s.t).Hours() / 24))
	if s.year && age < 0 {
		age = 0 // this year's copyright
	}
	s.AgeDays = &age
	s.Future = !s.year && s.t.After(now.Add(24*time.Hour))
}

// inPage reports whether a signal is a date the page itself states.
func inPage(s *Signal) bool {
	return s.dated && !s.Future && s.Source != SourceHeader && s.Source != SourceCopyright
}

// curve is the score of an age in days, linear between its points:
// fresh for a month, half after a year, nothing after two.
var curve = scoring.Curve{{X: 30, Y: 100}, {X: 90, Y: 85}, {X: 180, Y: 70}, {X: 365, Y: 50}, {X: 730, Y: 0}}

func ageScore(days float64) int { return curve.Int(days) }

// Caps on the score when the only date is a weak one.
const (
	headerOnlyCap    = 60 // Last-Modified alone: servers often send the time of serving
	copyrightOnlyCap = 30 // a copyright year alone: often rendered from the clock
	penaltyEach      = 5
	penaltyMax       = 15
)

// score sets Score, Grade, Reason, Basis and MostRecent.
func score(r *Report, now time.Time) {
	newest := func(keep func(*Signal) bool) *Signal {
		var best *Signal
		for i := range r.Signals {
			s := &r.Signals[i]
			if keep(s) && (best == nil || s.t.After(best.t)) {
				best = s
			}
		}
		return best
	}
	page := newest(inPage)
	header := newest(func(s *Signal) bool { return s.dated && !s.Future && s.Source == SourceHeader })
	copyright := newest(func(s *Signal) bool { return s.Source == SourceCopyright })
	r.MostRecent = newest(func(s *Signal) bool { return s.dated && !s.Future && s.Source != SourceCopyright })
	if r.MostRecent == nil {
		r.MostRecent = copyright
	}
	age := func(s *Signal) float64 { return max(0, now.Sub(s.t).Hours()/24) }
	switch {
	case page != nil:
		r.Basis, r.Score = page, ageScore(age(page))
		r.Reason = fmt.Sprintf("newest in-page date: %s %s (%s), %d days old", page.Source, page.Property, page.Date, *page.AgeDays)
	case header != nil:
		r.Basis, r.Score = header, min(headerOnlyCap, ageScore(age(header)))
		r.Reason = fmt.Sprintf("no date in the page; the Last-Modified header alone (%d days old), capped at %d", *header.AgeDays, headerOnlyCap)
	case copyright != nil:
		r.Basis, r.Score = copyright, min(copyrightOnlyCap, ageScore(age(copyright)))
		r.Reason = fmt.Sprintf("no date in the page or headers; the copyright year %s alone, capped at %d", copyright.Date, copyrightOnlyCap)
	default:
		r.Reason = "no dated signal: no JSON-LD or meta date, no Last-Modified header, no dated \"Updated\" text and no copyright year"
	}
	if n := len(r.Inconsistencies); n > 0 && r.Score > 0 {
		penalty := min(penaltyMax, penaltyEach*n)
		r.Score = max(0, r.Score-penalty)
		r.Reason += fmt.Sprintf("; %d %s cost %d points", n, plural(n, "inconsistency", "inconsistencies"), penalty)
	}
	r.Grade = auditkit.Grade(r.Score)
}

// inconsistencies lists the contradictions between the signals.
func inconsistencies(sigs []Signal, now time.Time) []Inconsistency {
	out := []Inconsistency{}
	add := func(code, msg string, idx ...int) {
		if len(out) < 50 {
			out = append(out, Inconsistency{Code: code, Message: msg, Signals: idx})
		}
	}
	first := func(source, kind string) int {
		for i := range sigs {
			if s := &sigs[i]; s.Source == source && s.Kind == kind && s.dated {
				return i
			}
		}
		return -1
	}
	// modified before published, within one source (one JSON-LD object, the meta tags)
	for i := range sigs {
		m := &sigs[i]
		if m.Kind != KindModified || !m.dated || m.Source == SourceText {
			continue
		}
		for j := range sigs {
			p := &sigs[j]
			if p.Kind == KindPublished && p.dated && p.Source == m.Source && owner(p) == owner(m) && before(m, p) {
				add("modified_before_published", fmt.Sprintf("%s says modified %s, before published %s", m.Source, m.Date, p.Date), i, j)
			}
		}
	}
	for _, kind := range []string{KindModified, KindPublished} {
		j, m := first(SourceJSONLD, kind), first(SourceMeta, kind)
		if j >= 0 && m >= 0 && absHours(sigs[j].t.Sub(sigs[m].t)) > 24 {
			add("json_ld_meta_disagree", fmt.Sprintf("JSON-LD %s %s and meta %s %s are more than a day apart",
				sigs[j].Property, sigs[j].Date, sigs[m].Property, sigs[m].Date), j, m)
		}
	}
	newestPage, hdr, cr := -1, -1, -1
	for i := range sigs {
		s := &sigs[i]
		switch {
		case inPage(s) && (newestPage < 0 || s.t.After(sigs[newestPage].t)):
			newestPage = i
		case s.Source == SourceHeader && s.dated && !s.Future:
			hdr = i
		case s.Source == SourceCopyright:
			cr = i
		}
		if s.Future {
			add("future_date", fmt.Sprintf("%s %s is in the future (%s)", s.Source, s.Property, s.Date), i)
		}
	}
	if hdr >= 0 && newestPage >= 0 && sigs[hdr].t.Sub(sigs[newestPage].t) > 90*24*time.Hour {
		add("last_modified_far_newer", fmt.Sprintf("Last-Modified %s is %d days after the newest in-page date %s: the page is regenerated without its dates changing, or they are stale",
			sigs[hdr].Date, int(sigs[hdr].t.Sub(sigs[newestPage].t).Hours()/24), sigs[newestPage].Date), hdr, newestPage)
	}
	if cr >= 0 && newestPage >= 0 && sigs[cr].t.Year() < sigs[newestPage].t.Year() {
		add("copyright_outdated", fmt.Sprintf("the copyright year %s is older than the newest date %s", sigs[cr].Date, sigs[newestPage].Date), cr, newestPage)
	}
	return out
}

// owner names the object a signal belongs to: its JSON path without the
// property, or the source for the others.
func owner(s *Signal) string {
	if i := strings.LastIndexByte(s.Path, '.'); i > 0 {
		return s.Path[:i]
	}
	return s.Source
}

// before reports whether m is earlier than p, by the day when either is a
// bare date.
func before(m, p *Signal) bool {
	if m.dayOnly || p.dayOnly {
		return m.t.UTC().Format(time.DateOnly) < p.t.UTC().Format(time.DateOnly)
	}
	return p.t.Sub(m.t) > time.Minute
}

func absHours(d time.Duration) float64 { return math.Abs(d.Hours()) }

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
