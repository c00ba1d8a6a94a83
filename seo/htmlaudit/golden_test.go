package htmlaudit_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"golang.org/x/net/html"

	"github.com/webinfra/webinfra/internal/htmltag"
	"github.com/webinfra/webinfra/seo/htmlaudit"
)

var update = flag.Bool("update", false, "rewrite the golden .json files under testdata")

// goldenCase is one small page under testdata/<dir>/<page>.html, whose
// report must equal testdata/<dir>/<page>.json and hold exactly codes.
type goldenCase struct {
	page  string
	url   string // "" means pageURL
	codes []string
}

const pageURL = "https://example.com/page"

// runGolden runs an audit over each case's page.
func runGolden(t *testing.T, dir string, run func(*html.Node, *url.URL) any, cases []goldenCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.page, func(t *testing.T) {
			t.Parallel()
			base := filepath.Join("testdata", dir, c.page)
			raw, err := os.ReadFile(base + ".html")
			if err != nil {
				t.Fatal(err)
			}
			doc, err := htmltag.Parse(string(raw), "html")
			if err != nil {
				t.Fatal(err)
			}
			u, err := url.Parse(cmp(c.url, pageURL))
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
			enc.SetIndent("", "  ")
			if err := enc.Encode(run(doc, u)); err != nil {
				t.Fatal(err)
			}
			got := buf.Bytes()
			codes := findingCodes(got)
			slices.Sort(codes)
			want := slices.Clone(c.codes)
			slices.Sort(want)
			if !slices.Equal(codes, want) {
				t.Errorf("codes %q, want %q", codes, want)
			}
			if *update {
				if err := os.WriteFile(base+".json", got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			golden, err := os.ReadFile(base + ".json")
			if err != nil {
				t.Fatalf("%v (run with -update to write it)", err)
			}
			if !bytes.Equal(got, golden) {
				t.Errorf("report differs from %s.json (run with -update and review the diff):\n%s", base, got)
			}
		})
	}
}

func cmp(s, fallback string) string {
	if s == "" {
		return fallback
	}
	return s
}

func TestMixedContentGolden(t *testing.T) {
	t.Parallel()
	run := func(d *html.Node, u *url.URL) any { return htmlaudit.MixedContent(d, u) }
	runGolden(t, "mixed", run, []goldenCase{
		{page: "http_page", url: "http://example.com/page"},
		{page: "script", codes: []string{"mixed_script"}},
		{page: "stylesheet", codes: []string{"mixed_stylesheet"}},
		{page: "image", codes: []string{"mixed_image"}},
		{page: "iframe", codes: []string{"mixed_frame"}},
		{page: "frame", codes: []string{"mixed_frame"}},
		{page: "media", codes: []string{"mixed_media"}},
		{page: "object", codes: []string{"mixed_object"}},
		{page: "font", codes: []string{"mixed_font"}},
		{page: "form", codes: []string{"mixed_form"}},
		{page: "link", codes: []string{"mixed_link"}},
		{page: "upgrade_insecure_requests", codes: []string{"mixed_script", "mixed_image"}},
		{page: "base_href", codes: []string{"mixed_script", "mixed_image"}},
		{page: "not_mixed"},
	})
}

func TestAnchorTextGolden(t *testing.T) {
	t.Parallel()
	run := func(d *html.Node, u *url.URL) any { return htmlaudit.AnchorText(d, u) }
	runGolden(t, "anchors", run, []goldenCase{
		{page: "generic", codes: []string{"generic_anchor"}},
		{page: "empty", codes: []string{"empty_anchor"}},
		{page: "title_only", codes: []string{"title_only_anchor"}},
		{page: "repeated", codes: []string{"repeated_anchor"}},
		{page: "varied", codes: []string{"varied_anchors"}},
		{page: "rel_and_counts", codes: []string{"nofollow_internal"}},
	})
}

func TestMetaGolden(t *testing.T) {
	t.Parallel()
	run := func(d *html.Node, u *url.URL) any { return htmlaudit.Meta(d, u) }
	missingSocial := []string{"missing_open_graph", "missing_twitter_card", "missing_favicon"}
	missingAll := append([]string{"missing_title", "missing_description", "missing_canonical", "missing_viewport",
		"missing_charset"}, missingSocial...)
	with := func(codes ...string) []string { return append(slices.Clone(missingAll), codes...) }
	runGolden(t, "meta", run, []goldenCase{
		{page: "good"},
		{page: "bare", codes: with("missing_lang")},
		{page: "short", codes: []string{"title_too_short", "multiple_titles", "description_too_short", "multiple_descriptions",
			"missing_canonical", "missing_viewport", "missing_open_graph", "missing_twitter_card", "missing_favicon"}},
		{page: "long", codes: []string{"title_too_long", "description_too_long",
			"missing_canonical", "missing_viewport", "missing_open_graph", "missing_twitter_card", "missing_favicon"}},
		{page: "wide", codes: []string{"title_too_wide", "missing_description",
			"missing_canonical", "missing_viewport", "missing_open_graph", "missing_twitter_card", "missing_favicon"}},
		{page: "empty_title", codes: []string{"empty_title", "missing_description", "missing_canonical", "missing_viewport",
			"missing_charset", "missing_open_graph", "missing_twitter_card", "missing_favicon"}},
		{page: "canonical_elsewhere", codes: replace(missingAll, "missing_canonical", "canonical_elsewhere", "relative_canonical")},
		{page: "canonical_conflict", codes: replace(missingAll, "missing_canonical", "conflicting_canonicals")},
		{page: "canonical_http", codes: replace(missingAll, "missing_canonical", "canonical_http")},
		{page: "canonical_trailing_slash", codes: replace(missingAll, "missing_canonical", "canonical_trailing_slash")},
		{page: "canonical_invalid", codes: replace(missingAll, "missing_canonical", "invalid_canonical")},
		{page: "noindex", codes: []string{"noindex", "nofollow"}},
		{page: "robots_restrictive", codes: with("nosnippet", "restrictive_robots")},
		{page: "viewport_zoom", codes: replace(missingAll, "missing_viewport", "viewport_not_device_width", "viewport_blocks_zoom")},
		{page: "viewport_max_scale", codes: replace(missingAll, "missing_viewport", "viewport_blocks_zoom")},
		{page: "lang_charset", codes: replace(with("invalid_lang"), "missing_charset", "non_utf8_charset", "conflicting_charsets")},
		{page: "social_partial", codes: replace(replace(missingAll, "missing_open_graph", "incomplete_open_graph",
			"og_image_relative", "og_url_relative"), "missing_twitter_card", "invalid_twitter_card")},
		{page: "social_fallback", codes: replace(missingAll, "missing_open_graph", "incomplete_open_graph", "og_image_insecure")},
		{page: "twitter_incomplete", codes: replace(missingAll, "missing_twitter_card")},
		{page: "hreflang_broken", codes: with("invalid_hreflang", "relative_hreflang", "missing_self_hreflang",
			"missing_x_default", "duplicate_hreflang")},
		{page: "favicon_insecure", codes: replace(missingAll, "missing_favicon", "insecure_favicon")},
	})
}

// replace returns codes with old swapped for news (old dropped when news
// is empty).
func replace(codes []string, old string, news ...string) []string {
	var out []string
	for _, c := range codes {
		if c == old {
			out = append(out, news...)
		} else {
			out = append(out, c)
		}
	}
	return out
}

func TestSnippetCandidatesGolden(t *testing.T) {
	t.Parallel()
	run := func(d *html.Node, u *url.URL) any { return htmlaudit.SnippetCandidates(d, u) }
	runGolden(t, "snippets", run, []goldenCase{
		{page: "paragraphs", codes: []string{"ideal_length", "definition_style", "under_heading", "question_heading",
			"follows_heading", "length_poor"}},
		{page: "lists", codes: []string{"ideal_item_count", "concise_items", "mostly_links", "ordered", "under_heading",
			"question_heading", "follows_heading", "too_many_items"}},
		{page: "tables", codes: []string{"has_headers", "ideal_rows", "compact_columns", "under_heading", "question_heading",
			"follows_heading", "single_row", "wide_table", "length_off", "definition_style"}},
		{page: "boilerplate"},
	})
}
