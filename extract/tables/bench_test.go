package tables

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// largeTable is a 2,000-row, 20-column table with a header, some spans and
// inline markup: about 40,000 slots.
func largeTable() string {
	var b strings.Builder
	b.WriteString(`<table><thead><tr>`)
	for x := range 20 {
		fmt.Fprintf(&b, `<th>Column %d</th>`, x)
	}
	b.WriteString(`</tr></thead><tbody>`)
	for y := range 2000 {
		b.WriteString(`<tr>`)
		for x := 0; x < 20; x++ {
			switch {
			case y%10 == 0 && x == 0:
				b.WriteString(`<td rowspan="3">group <b>start</b></td>`)
			case y%10 < 3 && x == 0:
				continue // covered by the rowspan above
			case x == 18 && y%2 == 0:
				fmt.Fprintf(&b, `<td colspan="2">wide &amp; %d</td>`, y)
				x++
			default:
				fmt.Fprintf(&b, `<td><a href="/r/%d">cell %d,%d</a></td>`, y, x, y)
			}
		}
		b.WriteString(`</tr>`)
	}
	b.WriteString(`</tbody></table>`)
	return b.String()
}

func BenchmarkExtract(b *testing.B) {
	in := Input{HTML: largeTable()}
	b.SetBytes(int64(len(in.HTML)))
	for b.Loop() {
		res, err := Extract(context.Background(), in, nil)
		if err != nil {
			b.Fatal(err)
		}
		if t := res.Tables[0]; t.RowCount != 2000 || t.ColumnCount != 20 {
			b.Fatalf("got %d×%d", t.RowCount, t.ColumnCount)
		}
	}
}
