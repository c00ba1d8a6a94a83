package keywords_test

import (
	"context"
	"fmt"

	"github.com/webinfra/webinfra/seo/keywords"
)

// The sample abstract of Rose et al. (2010): RAKE's keywords with the
// paper's cut-off (a third of the 29 candidate words), scores printed as
// the paper prints them.
func ExampleExtract() {
	abstract := "Compatibility of systems of linear constraints over the set of natural numbers. " +
		"Criteria of compatibility of a system of linear Diophantine equations, strict inequations, " +
		"and nonstrict inequations are considered. Upper bounds for components of a minimal set of " +
		"solutions and algorithms of construction of minimal generating sets of solutions for all " +
		"types of systems are given. These criteria and the corresponding algorithms for constructing " +
		"a minimal supporting set of solutions can be used in solving all the considered types of " +
		"systems and systems of mixed types."
	res, err := keywords.Extract(context.Background(), keywords.Input{Text: abstract, TopThird: true}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, k := range res.Keywords {
		fmt.Printf("%-30s %.1f\n", k.Phrase, k.Score)
	}
	// Output:
	// minimal generating sets        8.7
	// linear diophantine equations   8.5
	// minimal supporting set         7.7
	// minimal set                    4.7
	// linear constraints             4.5
	// natural numbers                4.0
	// strict inequations             4.0
	// nonstrict inequations          4.0
	// upper bounds                   4.0
}

func ExampleText() {
	res, err := keywords.Text(context.Background(),
		"Die schnelle Überprüfung großer Dateien ist wichtig. Große Dateien brauchen Zeit.", "de", nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, k := range res.Keywords {
		fmt.Printf("%s %.2f\n", k.Phrase, k.Score)
	}
	// Output:
	// schnelle überprüfung großer dateien 16.00
	// große dateien brauchen zeit 16.00
	// wichtig 1.00
}
