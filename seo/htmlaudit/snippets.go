package htmlaudit

import (
	"context"
	"net/url"
	"slices"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/webinfra/webinfra/extract/tables"
	"github.com/webinfra/webinfra/internal/htmltag"
	"github.com/webinfra/webinfra/seo/htmlaudit/auditkit"
)

// Limits of SnippetCandidates.
const (
	// MaxSnippetBlocks is the most paragraphs, lists and tables examined.
	MaxSnippetBlocks = 5_000
	// MaxSnippetCandidates is the most candidates listed, best first.
	MaxSnippetCandidates = 20
	// MinParagraphWords is the shortest paragraph considered.
	MinParagraphWords = 15
	// maxItemsListed and maxRowsListed cap the items of a listed list and
	// the rows of a listed table; maxParagraphRunes caps a paragraph.
	maxItemsListed    = 12
	maxRowsListed     = 10
	maxParagraphRunes = 1_000
	maxTableCells     = 10_000
)

// Snippet candidate types.
const (
	SnippetParagraph = "paragraph"
	SnippetList      = "list"
	SnippetTable     = "table"
)

// SnippetReport is the answer of the snippet-candidates audit.
type SnippetReport struct {
	PageURL    string             `json:"page_url" doc:"The page's URL as given."`
	Candidates []SnippetCandidate `json:"candidates" doc:"The best candidates, highest score first (ties in page order), at most 20."`
	Examined   SnippetCounts      `json:"examined" doc:"The blocks read, candidates or not."`
	Truncated  bool               `json:"truncated" doc:"More candidates scored than are listed, or the page had more than 5,000 blocks or 200,000 elements."`
}

// SnippetCounts counts the blocks examined.
type SnippetCounts struct {
	Paragraphs int `json:"paragraphs"`
	Lists      int `json:"lists"`
	Tables     int `json:"tables"`
}

// SnippetCandidate is a block that could answer a query as a featured
// snippet.
type SnippetCandidate struct {
	Type        string          `json:"type" enum:"paragraph,list,table"`
	Tag         string          `json:"tag" doc:"p, ul, ol or table."`
	Position    int             `json:"position" doc:"The block's place among the paragraphs, lists and tables of the page, from 0."`
	Heading     *SnippetHeading `json:"heading" doc:"The nearest heading before the block; null when none."`
	Text        string          `json:"text,omitempty" doc:"paragraph: its text (at most 1,000 characters); table: its caption."`
	Items       []string        `json:"items,omitempty" doc:"list: the items' text, at most 12."`
	Ordered     bool            `json:"ordered,omitempty" doc:"list: an <ol>."`
	ItemCount   int             `json:"item_count,omitempty" doc:"list: all its items."`
	Headers     []string        `json:"headers,omitempty" doc:"table: the column headers."`
	Rows        [][]string      `json:"rows,omitempty" doc:"table: the body rows, at most 10."`
	RowCount    int             `json:"row_count,omitempty" doc:"table: all its body rows."`
	ColumnCount int             `json:"column_count,omitempty"`
	WordCount   int             `json:"word_count"`
	Score       int             `json:"score" minimum:"0" maximum:"100" doc:"Suitability as a snippet, the sum of the reasons' points."`
	Reasons     []SnippetReason `json:"reasons"`
	Snippet     string          `json:"snippet" doc:"The block's start tag, to find it in the page."`
}

// SnippetHeading is the heading a candidate sits under.
type SnippetHeading struct {
	Text     string `json:"text"`
	Level    int    `json:"level" minimum:"1" maximum:"6"`
	Question bool   `json:"question" doc:"The heading reads as a question (see auditkit.IsQuestion)."`
	Distance int    `json:"distance" doc:"Blocks between the heading and the candidate: 0 when it follows the heading directly."`
}

// SnippetReason is one part of a candidate's score.
type SnippetReason struct {
	Code    string `json:"code" doc:"Stable identifier."`
	Points  int    `json:"points" doc:"Points added (or taken away, when negative)."`
	Message string `json:"message"`
}

// SnippetCandidates finds the paragraphs, lists and tables of a page that
// could serve as a featured snippet or an AI answer, scores each 0-100
// with the reasons, and returns the best first. Blocks in <nav>, <footer>,
// <aside>, <form>, <noscript>, hidden elements and role=navigation are
// skipped. pageURL is only echoed.
//
// Candidates: <p> of at least MinParagraphWords (15) words; <ul>/<ol> of
// two or more <li>; <table> with a body row and two or more columns that
// is not a layout table (one holding another table, or paragraphs, lists,
// headings or divs in its cells, or role=presentation: its contents are
// examined instead). Each is filed under the nearest heading before it.
//
// Points (the sum, clamped to 0-100):
//
//   - paragraph length: 40-60 words 50 (ideal_length); 30-39 or 61-80 35
//     (near_ideal_length); 20-29 or 81-120 20 (length_off); else 5
//     (length_poor). A definition-style opening (" is ", " are ",
//     " means ", " refers to " in the first 12 words) 5 (definition_style).
//   - list: 3-8 items 40 (ideal_item_count); 2 or 9-12 items 25
//     (item_count_ok); more 10 (too_many_items: results show about 8);
//     items of 12 words or fewer on average 10 (concise_items); ordered 5
//     (ordered); 80% or more of the items just a link -40 (mostly_links:
//     navigation, not an answer).
//   - table: header row 15 (has_headers); 2-10 body rows 30 (ideal_rows),
//     more 15 (many_rows), one 10 (single_row); 2-4 columns 5
//     (compact_columns), more than 6 -10 (wide_table).
//   - heading: under a heading 15 (under_heading); a question-shaped one
//     20 more (question_heading); directly after it 10 (follows_heading).
func SnippetCandidates(doc *html.Node, pageURL *url.URL) *SnippetReport {
	s := &snippetAudit{}
	if pageURL != nil {
		s.report.PageURL = pageURL.String()
	}
	cut := auditkit.Walk(doc, MaxElements, s.visit)
	slices.SortStableFunc(s.found, func(a, b SnippetCandidate) int { return b.Score - a.Score })
	s.report.Truncated = cut || s.cut || len(s.found) > MaxSnippetCandidates
	s.report.Candidates = s.found[:min(len(s.found), MaxSnippetCandidates)]
	if s.report.Candidates == nil {
		s.report.Candidates = []SnippetCandidate{}
	}
	return &s.report
}

type snippetAudit struct {
	report  SnippetReport
	found   []SnippetCandidate
	heading *SnippetHeading // the latest heading, nil before the first
	blocks  int             // blocks seen
	cut     bool
}

// boilerplate are the elements whose blocks are never snippets.
var boilerplate = map[atom.Atom]bool{
	atom.Nav: true, atom.Footer: true, atom.Aside: true, atom.Form: true, atom.Noscript: true,
	atom.Head: true, atom.Script: true, atom.Style: true, atom.Select: true, atom.Button: true,
	atom.Dialog: true, atom.Menu: true,
}

func (s *snippetAudit) visit(n *html.Node) bool {
	if n.Namespace != "" || boilerplate[n.DataAtom] || auditkit.Hidden(n) || htmltag.Attr(n, "role") == "navigation" {
		return false
	}
	if level := htmltag.HeadingLevel(n.DataAtom); level > 0 {
		if text, _ := auditkit.Name(n); text != "" {
			s.heading = &SnippetHeading{Text: auditkit.Clip(text, 300), Level: level, Question: auditkit.IsQuestion(text)}
		}
		return false
	}
	switch n.DataAtom {
	case atom.P, atom.Ul, atom.Ol, atom.Table:
	default:
		return true
	}
	if s.blocks >= MaxSnippetBlocks {
		s.cut = true
		return false
	}
	var c *SnippetCandidate
	switch n.DataAtom {
	case atom.P:
		s.report.Examined.Paragraphs++
		c = paragraphCandidate(n)
	case atom.Ul, atom.Ol:
		s.report.Examined.Lists++
		c = listCandidate(n)
	case atom.Table:
		if layoutTable(n) {
			return true
		}
		s.report.Examined.Tables++
		c = tableCandidate(n)
	}
	s.add(n, c)
	return false
}

// add files a block: it scores a candidate under the current heading, and
// counts the block either way.
func (s *snippetAudit) add(n *html.Node, c *SnippetCandidate) {
	if c != nil {
		c.Tag, c.Position, c.Snippet = n.Data, s.blocks, auditkit.StartTag(n)
		if h := s.heading; h != nil {
			hc := *h
			c.Heading = &hc
			c.reason("under_heading", 15, "sits under a heading")
			if h.Question {
				c.reason("question_heading", 20, "the heading is a question the block can answer")
			}
			if h.Distance == 0 {
				c.reason("follows_heading", 10, "directly after its heading")
			}
		}
		c.Score = auditkit.Clamp(c.Score)
		s.found = append(s.found, *c)
	}
	s.blocks++
	if s.heading != nil {
		s.heading.Distance++
	}
}

// reason adds points to a candidate's score, with why.
func (c *SnippetCandidate) reason(code string, points int, message string) {
	c.Reasons = append(c.Reasons, SnippetReason{Code: code, Points: points, Message: message})
	c.Score += points
}

func paragraphCandidate(n *html.Node) *SnippetCandidate {
	text := auditkit.Text(n, 8*maxParagraphRunes)
	words := auditkit.Words(text)
	if words < MinParagraphWords {
		return nil
	}
	c := &SnippetCandidate{Type: SnippetParagraph, Text: auditkit.Clip(text, maxParagraphRunes), WordCount: words}
	switch {
	case words >= 40 && words <= 60:
		c.reason("ideal_length", 50, "40-60 words: the featured-snippet sweet spot")
	case words >= 30 && words <= 80:
		c.reason("near_ideal_length", 35, "close to the ideal 40-60 words")
	case words >= 20 && words <= 120:
		c.reason("length_off", 20, "some way from the ideal 40-60 words")
	default:
		c.reason("length_poor", 5, "far from the ideal 40-60 words")
	}
	if definitionStyle(text) {
		c.reason("definition_style", 5, "opens like a definition (\"X is ...\")")
	}
	return c
}

// definitionStyle reports whether a paragraph opens like a definition:
// " is ", " are ", " means " or " refers to " among its first 12 words.
func definitionStyle(text string) bool {
	words := 0
	for i := 0; i < len(text) && words < 12; i++ {
		if text[i] != ' ' {
			continue
		}
		words++
		for _, w := range []string{"is ", "are ", "means ", "refers to "} {
			if len(text) > i+1+len(w) && text[i+1:i+1+len(w)] == w {
				return true
			}
		}
	}
	return false
}

func listCandidate(n *html.Node) *SnippetCandidate {
	c := &SnippetCandidate{Type: SnippetList, Ordered: n.DataAtom == atom.Ol}
	links, words := 0, 0
	for li := n.FirstChild; li != nil; li = li.NextSibling {
		if li.Type != html.ElementNode || li.DataAtom != atom.Li || auditkit.Hidden(li) {
			continue
		}
		text := auditkit.Text(li, 2_000)
		if text == "" {
			continue
		}
		c.ItemCount++
		w := auditkit.Words(text)
		words += w
		if len(c.Items) < maxItemsListed {
			c.Items = append(c.Items, auditkit.Clip(text, 300))
		}
		if linkOnly(li, len(text)) {
			links++
		}
	}
	if c.ItemCount < 2 {
		return nil
	}
	c.WordCount = words
	switch {
	case c.ItemCount >= 3 && c.ItemCount <= 8:
		c.reason("ideal_item_count", 40, "3-8 items: results show a list of about this size whole")
	case c.ItemCount <= 12:
		c.reason("item_count_ok", 25, "2 or 9-12 items")
	default:
		c.reason("too_many_items", 10, "more than 12 items: results show about 8")
	}
	if words <= 12*c.ItemCount {
		c.reason("concise_items", 10, "items of 12 words or fewer on average")
	}
	if c.Ordered {
		c.reason("ordered", 5, "an ordered list reads as steps")
	}
	if links*5 >= c.ItemCount*4 {
		c.reason("mostly_links", -40, "most items are just a link: navigation, not an answer")
	}
	return c
}

// linkOnly reports whether the text of an item (textLen bytes) is mostly
// (80% or more) link text.
func linkOnly(li *html.Node, textLen int) bool {
	linkText := 0
	auditkit.Walk(li, 0, func(c *html.Node) bool {
		if c.DataAtom == atom.A && c.Namespace == "" {
			linkText += len(auditkit.Text(c, 2_000))
			return false
		}
		return true
	})
	return linkText*5 >= textLen*4
}

// layoutTable reports whether a table lays out the page rather than holding
// data: it is role=presentation, or holds another table, paragraphs, lists,
// headings or divs.
func layoutTable(n *html.Node) bool {
	if htmltag.Attr(n, "role") == "presentation" {
		return true
	}
	layout := false
	auditkit.Walk(n, 0, func(c *html.Node) bool {
		if layout {
			return false
		}
		if c != n && c.Namespace == "" {
			switch c.DataAtom {
			case atom.Table, atom.P, atom.Ul, atom.Ol, atom.Div, atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
				layout = true
			}
		}
		return true
	})
	return layout
}

func tableCandidate(n *html.Node) *SnippetCandidate {
	res, err := tables.ExtractNode(context.Background(), n, &tables.Options{MaxTables: 1, MaxCells: maxTableCells})
	if err != nil || len(res.Tables) == 0 {
		return nil
	}
	t := res.Tables[0]
	if t.RowCount == 0 || t.ColumnCount < 2 {
		return nil
	}
	c := &SnippetCandidate{Type: SnippetTable, Text: t.Caption, RowCount: t.RowCount, ColumnCount: t.ColumnCount}
	if len(t.Headers) > 0 {
		c.Headers = t.Headers
	}
	c.Rows = t.Rows[:min(len(t.Rows), maxRowsListed)]
	for _, row := range t.Rows {
		for _, cell := range row {
			c.WordCount += auditkit.Words(cell)
		}
	}
	if len(t.Headers) > 0 {
		c.reason("has_headers", 15, "has a header row")
	}
	switch {
	case t.RowCount >= 2 && t.RowCount <= 10:
		c.reason("ideal_rows", 30, "2-10 rows: shown whole")
	case t.RowCount > 10:
		c.reason("many_rows", 15, "more than 10 rows: results show the first few")
	default:
		c.reason("single_row", 10, "a single row")
	}
	switch {
	case t.ColumnCount <= 4:
		c.reason("compact_columns", 5, "2-4 columns fit a result")
	case t.ColumnCount > 6:
		c.reason("wide_table", -10, "more than 6 columns: results drop some")
	}
	return c
}
