package snippetformat

import (
	"regexp"
	"slices"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/webinfra/webinfra/seo/htmlaudit/auditkit"
)

// The four formats.
const (
	Paragraph  = "paragraph"
	List       = "list"
	Table      = "table"
	Definition = "definition"
)

// Formats are the formats in the order reported.
var Formats = []string{Paragraph, List, Table, Definition}

// Limits.
const (
	maxElements = 200_000 // elements walked
	maxExamples = 3       // examples per format
	exampleLen  = 200     // characters of an example's text
	maxText     = 8 << 10 // bytes of a block's text read
)

// Report is the answer of snippet-format-detect.
type Report struct {
	Counts     map[string]int       `json:"counts" doc:"Blocks of each format: paragraph, list, table, definition."`
	Examples   map[string][]Example `json:"examples" doc:"Up to three blocks of each format, in page order."`
	Cues       map[string]int       `json:"cues" doc:"Headings whose wording calls for each format."`
	Prediction Prediction           `json:"prediction"`
	Truncated  bool                 `json:"truncated" doc:"The page had more than 200,000 elements; the rest was not read."`
}

// Example is one block of a format.
type Example struct {
	Heading string `json:"heading,omitempty" doc:"The nearest heading before the block."`
	Text    string `json:"text" doc:"The block's text, cut at 200 characters."`
	Words   int    `json:"words"`
}

// Prediction is the format that fits the page best.
type Prediction struct {
	Format     string             `json:"format" enum:"paragraph,list,table,definition,none" doc:"none when the page has no block of any format."`
	Confidence float64            `json:"confidence" doc:"The format's share of the weighted total, 0-1."`
	Scores     map[string]float64 `json:"scores" doc:"The weighted score of each format: its blocks, with heading cues counting three blocks each."`
	Reason     string             `json:"reason"`
}

var (
	definitionOpening = regexp.MustCompile(`(?i)^[^.?!]{1,80}?\b(is|are|was|refers to|means|describes)\b\s+(a|an|the|one|any|when|how|used)?\b`)
	cueWords          = map[string][]string{
		List:       {"how to", "how do", "steps", "step by step", "ways", "tips", "checklist", "ideas", "examples of"},
		Table:      {" vs", "versus", "compare", "comparison", "price", "prices", "cost", "costs", "best ", "top ", "specs", "rates"},
		Definition: {"what is", "what are", "who is", "who are", "define", "definition", "meaning", "what does"},
	}
	chrome = map[atom.Atom]bool{atom.Nav: true, atom.Header: true, atom.Footer: true, atom.Aside: true, atom.Form: true}
)

// Detect classifies the blocks of a parsed page.
func Detect(doc *html.Node) *Report {
	r := &Report{Counts: map[string]int{}, Examples: map[string][]Example{}, Cues: map[string]int{}}
	heading, afterHeading := "", false
	r.Truncated = auditkit.Walk(doc, maxElements, func(n *html.Node) bool {
		if chrome[n.DataAtom] || auditkit.Hidden(n) {
			return false
		}
		switch n.DataAtom {
		case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
			heading, afterHeading = auditkit.Text(n, maxText), true
			r.cue(heading)
			return false
		case atom.P:
			text := auditkit.Text(n, maxText)
			words := auditkit.Words(text)
			switch {
			case afterHeading && words >= 8 && definitionOpening.MatchString(text):
				r.add(Definition, heading, text, words)
			case words >= 15 && words <= 120:
				r.add(Paragraph, heading, text, words)
			}
			afterHeading = afterHeading && words == 0
			return false
		case atom.Ul, atom.Ol:
			if items, words, ok := listItems(n); ok {
				r.add(List, heading, strings.Join(items, "; "), words)
			}
			afterHeading = false
			return false
		case atom.Table:
			if text, words, ok := dataTable(n); ok {
				r.add(Table, heading, text, words)
			}
			afterHeading = false
			return false
		case atom.Dl:
			if hasChild(n, atom.Dt) && hasChild(n, atom.Dd) {
				text := auditkit.Text(n, maxText)
				r.add(Definition, heading, text, auditkit.Words(text))
			}
			afterHeading = false
			return false
		}
		return true
	})
	r.predict()
	return r
}

func (r *Report) add(format, heading, text string, words int) {
	r.Counts[format]++
	if len(r.Examples[format]) < maxExamples {
		r.Examples[format] = append(r.Examples[format], Example{Heading: auditkit.Clip(heading, exampleLen), Text: auditkit.Clip(text, exampleLen), Words: words})
	}
}

// cue counts what a heading's wording asks for.
func (r *Report) cue(heading string) {
	h := " " + strings.ToLower(heading) + " "
	for _, format := range []string{List, Table, Definition} {
		if slices.ContainsFunc(cueWords[format], func(w string) bool { return strings.Contains(h, " "+strings.TrimLeft(w, " ")) }) {
			r.Cues[format]++
			return
		}
	}
	if auditkit.IsQuestion(heading) {
		r.Cues[Paragraph]++
	}
}

// predict weighs blocks by heading cues (three blocks each) and picks the
// heaviest format, the first in Formats on a tie.
func (r *Report) predict() {
	p := Prediction{Format: "none", Scores: map[string]float64{}}
	total, best := 0.0, 0.0
	for _, f := range Formats {
		score := float64(r.Counts[f])
		if r.Counts[f] > 0 {
			score += 3 * float64(r.Cues[f])
		}
		p.Scores[f] = score
		total += score
		if score > best {
			best, p.Format = score, f
		}
	}
	switch {
	case total == 0:
		p.Reason = "no paragraph, list, table or definition block found"
	case r.Cues[p.Format] > 0:
		p.Reason = "the most blocks, with headings that ask for a " + p.Format
	default:
		p.Reason = "the most blocks; no heading asks for a particular format"
	}
	if total > 0 {
		p.Confidence = float64(int(best/total*100+0.5)) / 100
	}
	r.Prediction = p
}

// listItems reads a list: at least three items of at most 40 words, not
// all of them only a link.
func listItems(n *html.Node) (items []string, words int, ok bool) {
	linksOnly := true
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.DataAtom != atom.Li {
			continue
		}
		text := auditkit.Text(c, maxText)
		w := auditkit.Words(text)
		if w == 0 {
			continue
		}
		if w > 40 {
			return nil, 0, false
		}
		if link := onlyChild(c, atom.A); link == nil || auditkit.Text(link, maxText) != text {
			linksOnly = false
		}
		items, words = append(items, text), words+w
	}
	return items, words, len(items) >= 3 && !linksOnly
}

// dataTable reads a table of at least two rows and two columns with a
// header cell.
func dataTable(n *html.Node) (text string, words int, ok bool) {
	rows, cols, header := 0, 0, false
	auditkit.Walk(n, 10_000, func(c *html.Node) bool {
		switch c.DataAtom {
		case atom.Table:
			return c == n // a nested table is its own block
		case atom.Tr:
			rows++
			cells := 0
			for cell := c.FirstChild; cell != nil; cell = cell.NextSibling {
				if cell.DataAtom == atom.Td || cell.DataAtom == atom.Th {
					cells++
					header = header || cell.DataAtom == atom.Th
				}
			}
			cols = max(cols, cells)
		}
		return true
	})
	if rows < 2 || cols < 2 || !header {
		return "", 0, false
	}
	text = auditkit.Text(n, maxText)
	return text, auditkit.Words(text), true
}

func hasChild(n *html.Node, a atom.Atom) bool {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.DataAtom == a {
			return true
		}
	}
	return false
}

// onlyChild is n's one element child when it is an a, else nil.
func onlyChild(n *html.Node, a atom.Atom) *html.Node {
	var only *html.Node
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch {
		case c.Type == html.ElementNode && only == nil:
			only = c
		case c.Type == html.ElementNode:
			return nil
		}
	}
	if only == nil || only.DataAtom != a {
		return nil
	}
	return only
}
