package llmstxt

import (
	"fmt"
	"net/url"
	"regexp"
	"sort"
	"strings"

	"github.com/webinfra/webinfra/seo/htmlaudit/auditkit"
	"github.com/webinfra/webinfra/seo/linkcheck"
)

// Bounds of Parse.
const (
	// MaxLines is the most lines read; the rest of a longer file is not
	// audited (truncated).
	MaxLines = 20_000
	// MaxSections is the most sections listed.
	MaxSections = 200
	// MaxLinksListed is the most links listed.
	MaxLinksListed = 1_000
	// MaxProblems is the most problems listed.
	MaxProblems = 200
	// textRunes caps a title, summary or note kept.
	textRunes = 300
)

// Structure is what Parse reads from an llms.txt file.
type Structure struct {
	Title       string    `json:"title" doc:"The H1: the project's or site's name."`
	TitleLine   int       `json:"title_line,omitempty"`
	Summary     string    `json:"summary,omitempty" doc:"The blockquote right after the H1."`
	DetailLines int       `json:"detail_lines" doc:"Non-blank lines of free text between the summary and the first H2 section."`
	Sections    []Section `json:"sections" doc:"The H2 sections in file order, at most 200."`
	HasOptional bool      `json:"has_optional" doc:"There is an \"## Optional\" section, whose links an agent may skip when its context is short."`
	Links       []Link    `json:"links" doc:"Each link of the sections' lists in file order, at most 1,000."`
	LinkCount   int       `json:"link_count" doc:"All links in the sections' lists, listed or not."`
	Problems    []Problem `json:"problems" doc:"Structural problems in file order, at most 200."`
	Lines       int       `json:"lines" doc:"Lines read."`
	Truncated   bool      `json:"truncated" doc:"Lines, sections, links or problems were left out."`

	counts map[string]int // problems per code, listed or not
}

// Section is one H2 section.
type Section struct {
	Title    string `json:"title"`
	Line     int    `json:"line"`
	Links    int    `json:"links" doc:"Links in the section's list."`
	Optional bool   `json:"optional" doc:"The \"Optional\" section."`
}

// Link is one entry of a section's list: "- [name](url): notes".
type Link struct {
	Section string `json:"section"`
	Line    int    `json:"line"`
	Name    string `json:"name"`
	URL     string `json:"url" doc:"Absolute, against the llms.txt URL."`
	Notes   string `json:"notes,omitempty"`
	// Check is the link-rot probe of the URL; nil when it was not probed.
	Check *linkcheck.LinkStatus `json:"check,omitempty" doc:"The link-rot probe of the URL; absent when it was not probed (past max_links, or skip_link_check)."`
}

// Problem is one problem of the file, with its line (0: the file as a
// whole).
type Problem struct {
	Line int `json:"line"`
	auditkit.Finding
}

var (
	atxHeading = regexp.MustCompile(`^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*$`)
	listItem   = regexp.MustCompile(`^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+(.*)$`)
	linkEntry  = regexp.MustCompile(`^\[([^\]]*)\]\(\s*<?([^()\s<>]*)>?(?:\s+"[^"]*")?\s*\)\s*(?::\s*(.*))?$`)
	closingTag = regexp.MustCompile(`[ \t]+#+$`)
)

// parser holds the state of one Parse.
type parser struct {
	s        Structure
	base     *url.URL
	stage    int // stageStart, stageHeader, stageSections
	section  *Section
	seen     map[string]int  // link URL → line first listed
	texts    map[string]bool // sections already warned for free text
	inFence  string
	preamble bool // text before the H1 was reported
}

const (
	stageStart    = iota // before the H1
	stageHeader          // after the H1, before the first H2
	stageSections        // in the H2 sections
)

// Parse reads an llms.txt file as the proposal (llmstxt.org) lays it out:
// an H1 with the name (required, first), a blockquote summary, optional
// free text, then H2 sections of markdown link lists ("- [name](url):
// notes"), the one titled "Optional" holding links that may be skipped.
// Link URLs are made absolute against base. Fenced code blocks are
// skipped. At most MaxLines lines are read.
func Parse(text string, base *url.URL) *Structure {
	p := &parser{base: base, seen: map[string]int{}, texts: map[string]bool{}}
	p.s.counts = map[string]int{}
	p.s.Sections, p.s.Links, p.s.Problems = []Section{}, []Link{}, []Problem{}
	text = strings.TrimPrefix(strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\r", "\n"), "\ufeff")
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if len(lines) > MaxLines {
		lines, p.s.Truncated = lines[:MaxLines], true
	}
	p.s.Lines = len(lines)
	summaryOpen := false
	for i, line := range lines {
		n := i + 1
		if p.fence(line) {
			continue
		}
		blank := strings.TrimSpace(line) == ""
		if m := atxHeading.FindStringSubmatch(line); m != nil {
			summaryOpen = false
			p.heading(n, len(m[1]), strings.TrimSpace(closingTag.ReplaceAllString(m[2], "")))
			continue
		}
		switch p.stage {
		case stageStart:
			if !blank && !p.preamble {
				p.preamble = true
				p.problem(n, "content_before_h1", auditkit.Error, "Text comes before the H1: the file must open with \"# Name\".")
			}
		case stageHeader:
			summaryOpen = p.header(n, line, blank, summaryOpen)
		case stageSections:
			p.sectionLine(n, line, blank)
		}
	}
	p.finish()
	return &p.s
}

// fence tracks fenced code blocks; it reports whether line is inside one
// (or opens or closes one).
func (p *parser) fence(line string) bool {
	t := strings.TrimLeft(line, " ")
	if p.inFence != "" {
		if strings.HasPrefix(t, p.inFence) {
			p.inFence = ""
		}
		return true
	}
	for _, f := range []string{"```", "~~~"} {
		if strings.HasPrefix(t, f) {
			p.inFence = f
			return true
		}
	}
	return false
}

func (p *parser) heading(n, level int, title string) {
	switch {
	case level == 1 && p.s.TitleLine == 0:
		p.s.Title, p.s.TitleLine, p.stage = auditkit.Clip(title, textRunes), n, stageHeader
		if title == "" {
			p.problem(n, "empty_h1", auditkit.Error, "The H1 is empty: it should name the project or site.")
		}
	case level == 1:
		p.problem(n, "multiple_h1", auditkit.Warning, fmt.Sprintf("A second H1 (%q): the file has one H1, the name; use H2 for sections.", auditkit.Clip(title, 80)))
	case level == 2:
		p.stage = stageSections
		if len(p.s.Sections) == MaxSections {
			p.s.Truncated, p.section = true, nil
			return
		}
		optional := strings.EqualFold(title, "optional")
		p.s.HasOptional = p.s.HasOptional || optional
		for _, s := range p.s.Sections {
			if strings.EqualFold(s.Title, title) {
				p.problem(n, "duplicate_section", auditkit.Notice, fmt.Sprintf("Section %q appears twice (first on line %d): merge them.", auditkit.Clip(title, 80), s.Line))
				break
			}
		}
		p.s.Sections = append(p.s.Sections, Section{Title: auditkit.Clip(title, textRunes), Line: n, Optional: optional})
		p.section = &p.s.Sections[len(p.s.Sections)-1]
	default:
		p.problem(n, "deep_heading", auditkit.Notice, fmt.Sprintf("An H%d: the format knows H1 (name) and H2 (sections); agents may not read deeper structure.", level))
	}
}

// header reads a line between the H1 and the first H2: the summary
// blockquote, then free text. It returns whether the summary goes on.
func (p *parser) header(n int, line string, blank, summaryOpen bool) bool {
	t := strings.TrimSpace(line)
	switch {
	case blank:
		return false
	case strings.HasPrefix(t, ">") && p.s.Summary == "" && p.s.DetailLines == 0, strings.HasPrefix(t, ">") && summaryOpen:
		part := strings.TrimSpace(strings.TrimPrefix(t, ">"))
		p.s.Summary = auditkit.Clip(strings.TrimSpace(p.s.Summary+" "+part), textRunes)
		return true
	}
	p.s.DetailLines++
	return false
}

// sectionLine reads a line of an H2 section: a list entry that should be
// a link, or free text.
func (p *parser) sectionLine(n int, line string, blank bool) {
	if blank || p.section == nil {
		return
	}
	m := listItem.FindStringSubmatch(line)
	if m == nil {
		if !p.texts[p.section.Title] {
			p.texts[p.section.Title] = true
			p.problem(n, "text_in_section", auditkit.Notice, fmt.Sprintf("Section %q holds free text: sections are lists of links (\"- [name](url): notes\").", auditkit.Clip(p.section.Title, 80)))
		}
		return
	}
	e := linkEntry.FindStringSubmatch(strings.TrimSpace(m[1]))
	if e == nil {
		p.problem(n, "malformed_link", auditkit.Warning, fmt.Sprintf("List entry %q is not a link entry \"[name](url): notes\".", auditkit.Clip(m[1], 80)))
		return
	}
	name, raw, notes := strings.TrimSpace(e[1]), e[2], strings.TrimSpace(e[3])
	if name == "" {
		p.problem(n, "empty_link_name", auditkit.Warning, "A link entry without a name: say what the linked page is.")
	}
	u, ok := p.resolve(n, raw)
	if !ok {
		return
	}
	if first, dup := p.seen[u]; dup {
		p.problem(n, "duplicate_link", auditkit.Notice, fmt.Sprintf("%s is listed again (first on line %d).", u, first))
	} else {
		p.seen[u] = n
	}
	p.section.Links++
	p.s.LinkCount++
	if len(p.s.Links) == MaxLinksListed {
		p.s.Truncated = true
		return
	}
	p.s.Links = append(p.s.Links, Link{Section: p.section.Title, Line: n, Name: auditkit.Clip(name, textRunes), URL: u, Notes: auditkit.Clip(notes, textRunes)})
}

// resolve makes a link's URL absolute, reporting URLs that are not
// http(s) or not absolute.
func (p *parser) resolve(n int, raw string) (string, bool) {
	u, err := url.Parse(raw)
	if raw == "" || err != nil {
		p.problem(n, "invalid_url", auditkit.Warning, fmt.Sprintf("The link's URL %q cannot be parsed.", auditkit.Clip(raw, 80)))
		return "", false
	}
	if !u.IsAbs() {
		p.problem(n, "relative_url", auditkit.Notice, fmt.Sprintf("The link's URL %q is relative: agents that read the file out of context cannot follow it; write it absolute.", auditkit.Clip(raw, 80)))
		if p.base != nil {
			u = p.base.ResolveReference(u)
		}
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		p.problem(n, "invalid_url", auditkit.Warning, fmt.Sprintf("The link's URL %q is not an http(s) URL.", auditkit.Clip(raw, 80)))
		return "", false
	}
	return u.String(), true
}

// finish adds the problems of the file as a whole.
func (p *parser) finish() {
	switch {
	case p.s.TitleLine == 0:
		p.problem(0, "missing_h1", auditkit.Error, "No H1: the file must open with \"# Name\", the project's or site's name (the one required part of the format).")
	case p.s.Summary == "":
		p.problem(p.s.TitleLine, "missing_summary", auditkit.Warning, "No blockquote summary after the H1: add \"> what the site is\" so an agent knows what it reads.")
	}
	if p.s.TitleLine != 0 && len(p.s.Sections) == 0 {
		p.problem(0, "no_sections", auditkit.Warning, "No H2 sections: list the pages an agent should read under \"## Section\" headings.")
	}
	for _, s := range p.s.Sections {
		if s.Links == 0 {
			p.problem(s.Line, "empty_section", auditkit.Warning, fmt.Sprintf("Section %q has no links.", auditkit.Clip(s.Title, 80)))
		}
	}
	sort.SliceStable(p.s.Problems, func(i, j int) bool { return p.s.Problems[i].Line < p.s.Problems[j].Line })
}

func (p *parser) problem(line int, code, severity, msg string) {
	p.s.counts[code]++
	if len(p.s.Problems) == MaxProblems {
		p.s.Truncated = true
		return
	}
	p.s.Problems = append(p.s.Problems, Problem{Line: line, Finding: auditkit.Finding{Code: code, Severity: severity, Message: msg}})
}
