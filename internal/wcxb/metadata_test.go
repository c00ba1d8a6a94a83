package wcxb

import "testing"

func TestSameTitle(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		truth, got string
		want       bool
	}{
		{"Don’t Panic", "don't panic", true},
		{"  Hello   World!  ", "“Hello World”", true},
		{"Sudo - ArchWiki", "Sudo", true},
		{"Sudo - ArchWiki", "Sudo - ArchWiki", true},
		{"ArchWiki | Sudo", "Sudo", true},
		{"Sudo", "Sudo - ArchWiki", false},
		{"Functions - JavaScript | MDN", "Functions", true}, // section and site
		{"The headline — and a long second part of it", "The headline", false},
		{"Title", "", false},
		{"Straße", "STRASSE", true},
	} {
		if got := SameTitle(c.truth, c.got); got != c.want {
			t.Errorf("SameTitle(%q, %q) = %v, want %v", c.truth, c.got, got, c.want)
		}
	}
}

func TestSameAuthor(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		truth, got string
		want       bool
	}{
		{"Jane Doe", "By Jane Doe", true},
		{"Jane Doe", "by: JANE  DOE", true},
		{"Jane Doe, John Roe", "John Roe and Jane Doe", true},
		{"Maria & Katerina", "Katerina, Maria", true},
		{"Jane Doe, John Roe", "Jane Doe", false},
		{"Jane Doe, MD", "Jane Doe", false},
		{"Byron Smith", "Byron Smith", true},
		{"Dr. Andrew Huberman", "Dr Andrew Huberman", true},
		{"Jane Doe", "", false},
		{"Sandy Anderson", "Sandy Anderson", true}, // "and" only as a word
	} {
		if got := SameAuthor(c.truth, c.got); got != c.want {
			t.Errorf("SameAuthor(%q, %q) = %v, want %v", c.truth, c.got, got, c.want)
		}
	}
}

func TestSameDay(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		truth, got string
		want       bool
	}{
		{"2025-09-04", "2025-09-04", true},
		{"2025-09-04", "2025-09-04T08:30:00-07:00", true},
		{"2025-09-04", "2025-09-05", false},
		{"2025-09", "2025-09-30", true},
		{"2025-09-04", "", false},
		{"2025-09-04", "2025-09", false},
	} {
		if got := SameDay(c.truth, c.got); got != c.want {
			t.Errorf("SameDay(%q, %q) = %v, want %v", c.truth, c.got, got, c.want)
		}
	}
}
