package wcxb

import "testing"

func TestSite(t *testing.T) {
	for in, want := range map[string]string{
		"https://www.bbc.co.uk/news/1": "bbc.co.uk",
		"https://forum.example.com/t":  "example.com",
		"http://localhost:8080/x":      "localhost",
		"":                             "",
		"://bad":                       "",
	} {
		if got := Site(in); got != want {
			t.Errorf("Site(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestFold(t *testing.T) {
	counts := make([]int, 5)
	for _, s := range []string{"", "a.com", "b.org", "bbc.co.uk", "example.com", "wikipedia.org", "stackoverflow.com", "rei.com"} {
		f := Fold(s, 5)
		if f < 0 || f >= 5 || Fold(s, 5) != f {
			t.Errorf("Fold(%q) = %d", s, f)
		}
		counts[f]++
	}
	used := 0
	for _, c := range counts {
		if c > 0 {
			used++
		}
	}
	if used < 3 {
		t.Errorf("eight sites fell in %d of five folds: %v", used, counts)
	}
}
