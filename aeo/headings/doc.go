// Package headings scores a page's H1-H6 hierarchy for answer engines and
// search: the outline (level, text, order), the problems (no H1, several
// H1s, skipped levels, empty, long and duplicate headings), a 0-100 score
// with each deduction listed, and the number of question-shaped headings,
// which answer engines match to users' questions. It backs
// POST /v1/aeo/heading-hierarchy-score.
//
// Score is a pure function over a page parsed with golang.org/x/net/html
// (the server parses with internal/htmltag.Parse); nothing is fetched.
//
//	doc, _ := htmltag.Parse(page, "html")
//	r := headings.Score(doc)
//	fmt.Println(r.Score, r.Grade, r.QuestionCount)
//
// The report is bounded: at most MaxHeadings headings and MaxProblems
// problems are listed (Truncated says when more were cut), and at most
// MaxElements elements are read.
package headings
