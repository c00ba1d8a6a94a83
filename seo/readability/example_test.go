package readability_test

import (
	"context"
	"fmt"

	"github.com/webinfra/webinfra/seo/readability"
)

func ExampleText() {
	text := "The cat sat on the mat. It was a warm and sunny day. " +
		"The cat was happy, and it purred softly until the evening came."
	r, err := readability.Text(context.Background(), text, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("flesch reading ease:", r.FleschReadingEase)
	fmt.Println("flesch-kincaid grade:", r.FleschKincaidGrade)
	fmt.Println("sentences, words, syllables:", r.Sentences, r.Words, r.Syllables)
	fmt.Println("reading time (s):", r.ReadingTimeSeconds)
	// Output:
	// flesch reading ease: 96.89
	// flesch-kincaid grade: 1.8
	// sentences, words, syllables: 3 25 29
	// reading time (s): 1.35
}

func ExampleHTML() {
	page := `<html><head><title>Not counted</title><script>var x = "not counted";</script></head>
<body><h1>Release notes</h1><p>This version fixes three bugs. Upgrading is safe and quick.</p></body></html>`
	r, err := readability.HTML(context.Background(), page, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("words:", r.Words, "sentences:", r.Sentences)
	// Output: words: 12 sentences: 2
}

func ExampleAnalyze_emptyInput() {
	_, err := readability.Analyze(context.Background(), readability.Input{Text: "  "}, nil)
	fmt.Println(err)
	// Output: text: must contain at least one word
}
