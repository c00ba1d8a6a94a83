package words

import "testing"

func TestCount(t *testing.T) {
	for s, want := range map[string]int{"": 0, "Arc Brass, $89.00": 4, "  one ": 1, "naïve café-bar": 3, "東京 2026": 2} {
		if got := Count(s); got != want {
			t.Errorf("Count(%q) = %d, want %d", s, got, want)
		}
	}
}
