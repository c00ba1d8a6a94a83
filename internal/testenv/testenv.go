package testenv

import (
	"os"
	"testing"
)

// InCI reports whether the tests run under .ci/run (CI=true).
func InCI() bool { return os.Getenv("CI") == "true" }

// Missing ends the test because something it needs is not installed:
// t.Skip locally, t.Fatal under CI=true.
func Missing(tb testing.TB, why string) {
	tb.Helper()
	if InCI() {
		tb.Fatalf("%s (CI=true: .ci/run installs it, so this test must run)", why)
		return
	}
	tb.Skip(why)
}
