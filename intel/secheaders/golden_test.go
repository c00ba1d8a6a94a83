package secheaders_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/webinfra/webinfra/intel/secheaders"
)

var update = flag.Bool("update", false, "rewrite the golden .report.json files under testdata")

// Each testdata/<name>.page.json is a realistic answer; its report must
// equal testdata/<name>.report.json and have the grade given here.
var goldenCases = []struct {
	name  string
	score int
	grade string
}{
	{"strict", 100, "A+"},
	{"wordpress", 20, "F"},
	{"api", 35, "D"},
	{"aspnet", 30, "D"},
	{"plain_http", 30, "D"},
}

func TestGolden(t *testing.T) {
	t.Parallel()
	for _, c := range goldenCases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			base := filepath.Join("testdata", c.name)
			raw, err := os.ReadFile(base + ".page.json")
			if err != nil {
				t.Fatal(err)
			}
			var page secheaders.Page
			if err := json.Unmarshal(raw, &page); err != nil {
				t.Fatal(err)
			}
			rep := secheaders.Grade(page)
			got, err := json.MarshalIndent(rep, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			if *update {
				if err := os.WriteFile(base+".report.json", got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(base + ".report.json")
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("report differs from %s.report.json (go test -update rewrites it):\n%s", base, got)
			}
			if rep.Score != c.score || rep.Grade != c.grade {
				t.Errorf("score %d grade %s, want %d %s", rep.Score, rep.Grade, c.score, c.grade)
			}
		})
	}
}
