package cttest_test

import (
	"testing"

	"github.com/webinfra/webinfra/intel/ct/cttest"
)

func TestMatches(t *testing.T) {
	t.Parallel()
	e := cttest.Entry{CommonName: "www.example.com", NameValue: "example.com\n*.API.example.com"}
	for _, c := range []struct {
		pattern string
		want    bool
	}{
		{"example.com", true},
		{"EXAMPLE.com", true},
		{"%.example.com", true},
		{"%.api.example.com", true},
		{"%example%", true},
		{"%.example.org", false},
		{"api.example.com", false},
		{"", false},
	} {
		if got := cttest.Matches(c.pattern, e); got != c.want {
			t.Errorf("Matches(%q) = %v, want %v", c.pattern, got, c.want)
		}
	}
}
