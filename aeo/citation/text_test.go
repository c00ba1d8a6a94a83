package citation

import (
	"slices"
	"testing"
)

func TestCountNumbers(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		text                string
		numbers, statistics int
		examples            []string
	}{
		{"Sales rose 23% to $4.5 million in 2024.", 2, 2, []string{"23%", "$4.5 million"}},
		{"In 1998 and 2024 nothing happened.", 0, 0, nil},
		{"COVID-19 and H2O and 4K and 3D are words.", 0, 0, nil},
		{"We counted 1,284 nests, 61 heronries and 3.5 birds.", 3, 2, []string{"1,284", "3.5"}},
		{"It cost €45,000, or 40 percent more; 7 billion people.", 3, 3, []string{"€45,000", "40 percent", "7 billion"}},
		{"Steps: 1 then 2 then 3.", 3, 0, nil},
	} {
		n, s, ex := countNumbers(c.text)
		if n != c.numbers || s != c.statistics || !slices.Equal(ex, c.examples) {
			t.Errorf("%q: %d numbers, %d statistics %q; want %d, %d %q", c.text, n, s, ex, c.numbers, c.statistics, c.examples)
		}
	}
}

func TestNamedEntities(t *testing.T) {
	t.Parallel()
	text := "The Bank of England raised rates. Economists at the IMF and the World Bank disagreed. " +
		"NASA said nothing. THIS IS A SHOUTED HEADING. Then Ludwig van Beethoven played, and Paris slept at 9 PM."
	mentions, found := namedEntities(text)
	var got []string
	for _, e := range found {
		got = append(got, e.text)
	}
	slices.Sort(got)
	want := []string{"Bank of England", "IMF", "Ludwig van Beethoven", "NASA", "World Bank"}
	if !slices.Equal(got, want) || mentions != 5 {
		t.Errorf("%d mentions of %q, want 5 of %q", mentions, got, want)
	}
}

func TestIsAuthoritative(t *testing.T) {
	t.Parallel()
	for host, want := range map[string]string{
		"cdc.gov": ".gov domain", "army.mil": ".mil domain", "mit.edu": ".edu domain", "who.int": ".int domain",
		"gov.uk": ".gov.uk domain", "ons.gov.uk": ".gov.uk domain", "ox.ac.uk": ".ac.uk domain",
		"env.go.jp": ".go.jp domain", "insee.gouv.fr": ".gouv.fr domain", "inegi.gob.mx": ".gob.mx domain",
		"doi.org": "doi.org", "en.wikipedia.org": "wikipedia.org", "www.nature.com": "nature.com",
		"example.com": "", "co.uk": "", "notwikipedia.org": "", "gov.example.com": "",
	} {
		if got := isAuthoritative(host); got != want {
			t.Errorf("isAuthoritative(%q) = %q, want %q", host, got, want)
		}
	}
}

func TestQuotedPassages(t *testing.T) {
	t.Parallel()
	text := `He said "every new nest is a small vote of confidence" and "yes". She wrote “the river is cleaner than in decades”.`
	if n := quotedPassages(text); n != 2 {
		t.Errorf("%d quoted passages, want 2", n)
	}
}
