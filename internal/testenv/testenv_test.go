package testenv

import (
	"testing"
)

// fakeTB records how Missing ended the test.
type fakeTB struct {
	testing.TB
	skipped, failed bool
}

func (f *fakeTB) Helper()               {}
func (f *fakeTB) Skip(...any)           { f.skipped = true }
func (f *fakeTB) Fatalf(string, ...any) { f.failed = true }

func TestMissingSkipsLocallyAndFailsInCI(t *testing.T) {
	for _, ci := range []string{"", "true"} {
		t.Run("CI="+ci, func(t *testing.T) {
			t.Setenv("CI", ci)
			f := &fakeTB{}
			Missing(f, "no chromium")
			if f.failed != (ci == "true") || f.skipped != (ci != "true") {
				t.Fatalf("CI=%q: skipped %v, failed %v", ci, f.skipped, f.failed)
			}
		})
	}
}
