package headings

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/webinfra/webinfra/internal/htmltag"
	"github.com/webinfra/webinfra/seo/htmlaudit/auditkit"
)

// Limits and thresholds of Score.
const (
	// MaxHeadings is the most headings listed in the outline; more are
	// still counted and checked.
	MaxHeadings = 1_000
	// MaxProblems is the most problems listed.
	MaxProblems = 200
	// MaxElements is the most elements read in a page.
	MaxElements = 200_000
	// LongHeadingChars is the length above which a heading is long.
	LongHeadingChars = 70
	// textRunes caps the text kept per heading.
	textRunes = 300
)

// The deductions, per problem code: points per occurrence and the most a
// code can take in all.
var deductions = []struct {
	code        string
	each, limit int
	reason      string
}{
	{"missing_h1", 25, 25, "no H1: the page has no main heading"},
	{"multiple_h1", 10, 10, "more than one H1"},
	{"skipped_level", 5, 20, "heading levels skipped"},
	{"empty_heading", 5, 15, "empty headings"},
	{"long_heading", 2, 10, "headings over 70 characters"},
	{"duplicate_heading", 2, 10, "headings repeated word for word"},
}

// Report is the answer of the heading-hierarchy audit.
type Report struct {
	Outline       []Heading   `json:"outline" doc:"Every heading in page order, at most 1,000."`
	Counts        LevelCounts `json:"counts" doc:"Headings per level."`
	Total         int         `json:"total" doc:"All headings, listed or not."`
	QuestionCount int         `json:"question_count" doc:"Question-shaped headings (AEO: each can be matched to a user's question)."`
	Score         int         `json:"score" minimum:"0" maximum:"100" doc:"100 minus the deductions."`
	Grade         string      `json:"grade" enum:"A,B,C,D,F" doc:"A from 90, B from 80, C from 70, D from 60, F below."`
	Deductions    []Deduction `json:"deductions" doc:"What the score lost, per problem code."`
	Problems      []Problem   `json:"problems" doc:"Each problem, at most 200."`
	Truncated     bool        `json:"truncated" doc:"Headings or problems were left out, or the page had more than 200,000 elements."`
}

// Heading is one entry of the outline.
type Heading struct {
	Order    int    `json:"order" doc:"Position among the page's headings, from 0."`
	Level    int    `json:"level" minimum:"1" maximum:"6"`
	Tag      string `json:"tag" doc:"h1 to h6."`
	Text     string `json:"text" doc:"The visible text, else an image's alt, else aria-label; at most 300 characters."`
	Chars    int    `json:"chars" doc:"Length of the full text in characters."`
	Question bool   `json:"question" doc:"Reads as a question (see auditkit.IsQuestion)."`
}

// LevelCounts counts headings per level.
type LevelCounts struct {
	H1 int `json:"h1"`
	H2 int `json:"h2"`
	H3 int `json:"h3"`
	H4 int `json:"h4"`
	H5 int `json:"h5"`
	H6 int `json:"h6"`
}

func (c *LevelCounts) add(level int) {
	switch level {
	case 1:
		c.H1++
	case 2:
		c.H2++
	case 3:
		c.H3++
	case 4:
		c.H4++
	case 5:
		c.H5++
	case 6:
		c.H6++
	}
}

// Problem is one hierarchy problem.
type Problem struct {
	auditkit.Finding
	Order int `json:"order" doc:"The heading's position in the outline; -1 for a problem of the whole page (missing_h1)."`
	Level int `json:"level,omitempty" doc:"The heading's level."`
}

// Deduction is what one problem code cost the score.
type Deduction struct {
	Code   string `json:"code"`
	Count  int    `json:"count" doc:"Occurrences."`
	Points int    `json:"points" doc:"Points taken off, after the code's limit."`
	Reason string `json:"reason"`
}

// Score audits the H1-H6 outline of a parsed page. Headings in
// <template>, <noscript> and hidden elements (see auditkit.Hidden) are
// left out. Problems and what each costs (points per occurrence, the most
// in all):
//
//   - missing_h1 (error, 25): no H1 (or no headings at all).
//   - multiple_h1 (warning, 10 once): more than one H1; each extra H1 is
//     listed.
//   - skipped_level (warning, 5, at most 20): a heading more than one level
//     below the heading before it (h2 then h4), or a first heading below
//     h2.
//   - empty_heading (warning, 5, at most 15): no text, image alt or
//     aria-label.
//   - long_heading (notice, 2, at most 10): over 70 characters.
//   - duplicate_heading (notice, 2, at most 10): the same text as an
//     earlier heading, compared without case and with white space
//     collapsed.
//
// The score is 100 minus the deductions; question-shaped headings are
// counted for answer engines.
func Score(doc *html.Node) *Report {
	a := &audit{seen: map[string]int{}, prev: 1}
	cut := auditkit.Walk(doc, MaxElements, a.visit)
	r := &a.report
	if r.Counts.H1 == 0 {
		msg := "no H1: give the page one main heading that says what it answers"
		if r.Total == 0 {
			msg = "no headings at all: structure the page with an H1 and H2-H3 sections"
		}
		a.problem(auditkit.Error, "missing_h1", msg, -1, 0, nil, "")
	}
	r.Score = 100
	r.Deductions = []Deduction{}
	for _, d := range deductions {
		if n := a.counts[d.code]; n > 0 {
			points := min(n*d.each, d.limit)
			r.Score -= points
			r.Deductions = append(r.Deductions, Deduction{Code: d.code, Count: n, Points: points, Reason: d.reason})
		}
	}
	r.Score = auditkit.Clamp(r.Score)
	r.Grade = auditkit.Grade(r.Score)
	if r.Outline == nil {
		r.Outline = []Heading{}
	}
	if r.Problems == nil {
		r.Problems = []Problem{}
	}
	r.Truncated = r.Truncated || cut
	return r
}

type audit struct {
	report Report
	counts map[string]int
	seen   map[string]int // normalized text → order of its first heading
	prev   int            // the previous heading's level (1 before the first)
}

func (a *audit) visit(n *html.Node) bool {
	if n.Namespace != "" || n.DataAtom == atom.Noscript || auditkit.Hidden(n) {
		return false
	}
	level := htmltag.HeadingLevel(n.DataAtom)
	if level == 0 {
		return true
	}
	r := &a.report
	text, _ := auditkit.Name(n)
	h := Heading{Order: r.Total, Level: level, Tag: n.Data, Text: auditkit.Clip(text, textRunes),
		Chars: utf8.RuneCountInString(text), Question: auditkit.IsQuestion(text)}
	r.Total++
	r.Counts.add(level)
	if h.Question {
		r.QuestionCount++
	}
	if len(r.Outline) < MaxHeadings {
		r.Outline = append(r.Outline, h)
	} else {
		r.Truncated = true
	}
	a.check(n, h)
	a.prev = level
	return false
}

// check records the problems of one heading.
func (a *audit) check(n *html.Node, h Heading) {
	if h.Level == 1 && a.report.Counts.H1 > 1 {
		a.problem(auditkit.Warning, "multiple_h1", "another H1: keep one and make the others H2", h.Order, h.Level, n, h.Text)
	}
	if h.Level > a.prev+1 {
		a.problem(auditkit.Warning, "skipped_level",
			fmt.Sprintf("h%d follows h%d: use h%d here or add the missing level", h.Level, a.prev, a.prev+1), h.Order, h.Level, n, h.Text)
	}
	if h.Text == "" {
		a.problem(auditkit.Warning, "empty_heading", "empty heading: give it text or remove it", h.Order, h.Level, n, "")
		return
	}
	if h.Chars > LongHeadingChars {
		a.problem(auditkit.Notice, "long_heading",
			fmt.Sprintf("%d characters: keep headings under %d", h.Chars, LongHeadingChars), h.Order, h.Level, n, h.Text)
	}
	key := strings.ToLower(h.Text)
	if first, ok := a.seen[key]; ok {
		a.problem(auditkit.Notice, "duplicate_heading",
			fmt.Sprintf("same text as heading %d: make each heading say what its section holds", first), h.Order, h.Level, n, h.Text)
	} else {
		a.seen[key] = h.Order
	}
}

// problem counts a problem and lists it while there is room.
func (a *audit) problem(severity, code, message string, order, level int, n *html.Node, text string) {
	if a.counts == nil {
		a.counts = map[string]int{}
	}
	a.counts[code]++
	r := &a.report
	if len(r.Problems) >= MaxProblems {
		r.Truncated = true
		return
	}
	f := auditkit.Finding{Code: code, Severity: severity, Message: message, Snippet: text}
	if n != nil {
		f.Tag = n.Data
		if text == "" {
			f.Snippet = auditkit.StartTag(n)
		}
	}
	r.Problems = append(r.Problems, Problem{Finding: f, Order: order, Level: level})
}
