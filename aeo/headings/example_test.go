package headings_test

import (
	"fmt"

	"github.com/webinfra/webinfra/aeo/headings"
	"github.com/webinfra/webinfra/internal/htmltag"
)

func ExampleScore() {
	doc, _ := htmltag.Parse(`<h1>Webhooks</h1>
<h2>What is a signed webhook?</h2>
<h4>Headers</h4>
<h2>Retries</h2>`, "html")
	r := headings.Score(doc)
	fmt.Println("score", r.Score, r.Grade, "questions", r.QuestionCount)
	for _, p := range r.Problems {
		fmt.Println(p.Code, p.Tag, p.Message)
	}
	// Output:
	// score 95 A questions 1
	// skipped_level h4 h4 follows h2: use h3 here or add the missing level
}
