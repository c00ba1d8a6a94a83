package tables_test

import (
	"context"
	"fmt"

	"github.com/webinfra/webinfra/extract/tables"
)

func ExampleExtract() {
	page := `<table>
  <caption>Scores</caption>
  <thead>
    <tr><th rowspan="2">Name</th><th colspan="2">Score</th></tr>
    <tr><th>Math</th><th>Art</th></tr>
  </thead>
  <tbody>
    <tr><td>Ada</td><td>9</td><td rowspan="2">7</td></tr>
    <tr><td>Grace</td><td>8</td></tr>
  </tbody>
  <tfoot><tr><td>Mean</td><td colspan="2">7.75</td></tr></tfoot>
</table>`
	res, err := tables.Extract(context.Background(), tables.Input{HTML: page}, nil)
	if err != nil {
		panic(err)
	}
	t := res.Tables[0]
	fmt.Println(t.Caption)
	fmt.Printf("%q\n", t.Headers)
	for _, row := range t.Rows {
		fmt.Printf("%q\n", row)
	}
	// Output:
	// Scores
	// ["Name" "Score / Math" "Score / Art"]
	// ["Ada" "9" "7"]
	// ["Grace" "8" "7"]
	// ["Mean" "7.75" "7.75"]
}
