package content

import (
	"net/url"
	"strings"
	"testing"
)

func TestMetadataCleanByline(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		{"By Jane Doe", "Jane Doe"},
		{"Written By: Cazzy Magennis Last Updated: August 1, 2025", "Cazzy Magennis"},
		{"This post was written by Danielle Padula, Head of Marketing", "Danielle Padula, Head of Marketing"},
		{"By Haley Hoekstra • March 12, 2025", "Haley Hoekstra"},
		{"Luke Kim December 17, 2025", "Luke Kim"},
		{"by Outer Armatonisdaristan » Tue Aug 27, 2019 1:47 am", "Outer Armatonisdaristan"},
		{"KumikoGoingCrAzY 15911 silver badge66 bronze badges", "KumikoGoingCrAzY"},
		{"paulb203", "paulb203"},
		{"Jane Doe and John Roe", "Jane Doe and John Roe"},
		{"The Author", ""},
		{"ops@example.com", ""},
		{"Sat, 20 Dec, 2025 - 06:36", ""},
		{"https://example.com/jane", ""},
	} {
		if got := cleanByline(c.in); got != c.want {
			t.Errorf("cleanByline(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestMetadataChooseTitle(t *testing.T) {
	t.Parallel()
	u, _ := url.Parse("https://www.dailyplanet.example/news/europa")
	for _, c := range []struct {
		name, page, want string
	}{
		{"h1 agrees with og:title", `<title>Water plumes on Europa | Daily Planet</title><meta property="og:title" content="Water plumes on Europa | Daily Planet"><body><h1>Water plumes on Europa</h1>`, "Water plumes on Europa"},
		{"site-name h1 skipped", `<title>Water plumes on Europa - Daily Planet</title><body><h1>Daily Planet</h1><h1>Water plumes on Europa found</h1>`, "Water plumes on Europa found"},
		{"no h1: title less site", `<title>Water plumes on Europa — DailyPlanet</title>`, "Water plumes on Europa"},
		{"unrelated h1: stated title", `<title>Water plumes on Europa</title><body><h1>Subscribe today</h1>`, "Water plumes on Europa"},
		{"h1 only", `<body><h1>Water plumes</h1>`, "Water plumes"},
	} {
		doc, err := parseHTML(c.page)
		if err != nil {
			t.Fatal(err)
		}
		if got := chooseTitle(readClues(doc), u); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

func TestMetadataChooseByline(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, page, want string
	}{
		{"JSON-LD authors", `<script type="application/ld+json">{"@type":"Article","author":[{"@type":"Person","name":"Ann Lee"},{"@type":"Person","name":"Bo Chen"}]}</script>`, "Ann Lee, Bo Chen"},
		{"meta author", `<meta name="author" content="Lois Lane">`, "Lois Lane"},
		{"byline element", `<body><h1>Europa</h1><div class="post-byline">By Clark Kent · Dec 1, 2025</div>`, "Clark Kent"},
		{"none", `<body><p>No one.</p>`, ""},
		// A class naming a permission or a how-to, not a person.
		{"authorization", `<body><h1>Access</h1><h2 class="authorization-header">Authorization</h2><p>Tokens.</p>`, ""},
		{"authoring", `<body><h1>Guide</h1><div id="authoring-apps">Authoring applications</div>`, ""},
	} {
		doc, err := parseHTML(c.page)
		if err != nil {
			t.Fatal(err)
		}
		if got := chooseByline(readClues(doc), ""); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

func TestAuthorWord(t *testing.T) {
	t.Parallel()
	for tok, want := range map[string]bool{
		"author": true, "post-author": true, "authorname": true, "authors": true, "author_bio": true,
		"authorization": false, "authoring": false, "authority": false, "authorizationheader-author": true,
		"byline": false, "": false,
	} {
		if got := authorWord(tok); got != want {
			t.Errorf("authorWord(%q) = %v, want %v", tok, got, want)
		}
	}
}

func TestMetadataTextDates(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		{"Updated: August 19, 2025", "2025-08-19"},
		{"19 Aug 2025", "2025-08-19"},
		{"Posted 2025-08-19 by Jane", "2025-08-19"},
		{"12/25/2024", "2024-12-25"},
		{"25.12.2024", "2024-12-25"},
		{"April 31, 2025", ""},
		{"Call 555 1234", ""},
	} {
		got, _, _ := findTextDate(c.in)
		if got != c.want {
			t.Errorf("findTextDate(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	doc, _ := parseHTML(`<body><p>Dec 1, 2020</p><h1>Europa</h1><p class="date">Updated <time datetime="2025-08-19T10:00:00Z">Aug 19</time></p><p>text</p>`)
	head, first := readClues(doc).textDates()
	if head != "2025-08-19" || first != "2020-12-01" {
		t.Errorf("textDates = %q, %q; want 2025-08-19, 2020-12-01", head, first)
	}
}

func TestContainsFold(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"", "post-updated", "POST-UPDATED", "Date Modified", "up", "updat", "xUpDaTe",
		"modif\u0130", "\u0130modif", "Ümodify", "\u212Aupdat", "ModIF", "post-modified", "modi", "a-b_updat"} {
		for _, w := range []string{"updat", "modif"} {
			if got, want := containsFold(s, w), strings.Contains(strings.ToLower(s), w); got != want {
				t.Errorf("containsFold(%q, %q) = %v, want %v", s, w, got, want)
			}
		}
	}
}
