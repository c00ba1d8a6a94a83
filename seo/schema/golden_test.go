package schema_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/webinfra/webinfra/seo/schema"
)

var update = flag.Bool("update", false, "rewrite the golden .json files under testdata")

// goldenCase is one page under testdata/<page>.html: its report must equal
// testdata/<page>.json, list exactly problems ("code path", in order) and
// be eligible for exactly eligible.
type goldenCase struct {
	page     string
	problems []string
	eligible []string
}

var goldenCases = []goldenCase{
	{"product_errors", []string{
		"missing_recommended $[0].image", "missing_recommended $[0].description", "missing_recommended $[0].brand",
		"missing_recommended $[0].sku", "missing_recommended $[0].aggregateRating.bestRating",
		"missing_recommended $[0].aggregateRating.worstRating", "rating_out_of_range $[0].aggregateRating.ratingValue",
		"invalid_value $[0].offers.price", "invalid_value $[0].offers.priceCurrency",
	}, []string{}},
	{"product_graph", nil, []string{"Product"}},
	{"product_missing", []string{
		"missing_required $[0].name", "missing_recommended $[0].description",
		"missing_recommended $[0].brand", "missing_recommended $[0].sku", "invalid_value $[0].image[1]",
		"missing_one_of $[0].offers[0]", "missing_recommended $[0].offers[0].availability",
		"missing_recommended $[0].offers[0].priceValidUntil", "missing_recommended $[0].offers[1].highPrice",
		"missing_recommended $[0].offers[1].offerCount", "invalid_value $[0].offers[1].lowPrice",
		"missing_one_of $[1]", "missing_recommended $[1].image", "missing_recommended $[1].description",
		"missing_recommended $[1].brand", "missing_recommended $[1].sku",
	}, []string{}},
	{"article", []string{
		"invalid_value $[1].datePublished", "invalid_value $[1].image", "missing_one_of $[1].speakable",
	}, []string{"BreadcrumbList", "Article"}},
	{"breadcrumb", []string{
		"missing_required $[0].itemListElement[0].item", "invalid_value $[0].itemListElement[1].position", "missing_one_of $[0].itemListElement[2]",
		"invalid_value $[0].itemListElement[2].item",
	}, []string{}},
	{"faq_qa", []string{
		"missing_required $[0].mainEntity[1].acceptedAnswer",
		"missing_recommended $[1].mainEntity.author", "missing_recommended $[1].mainEntity.datePublished",
		"missing_recommended $[1].mainEntity.text", "missing_recommended $[1].mainEntity.upvoteCount",
		"invalid_value $[1].mainEntity.answerCount",
		"missing_recommended $[1].mainEntity.suggestedAnswer[0].author",
		"missing_recommended $[1].mainEntity.suggestedAnswer[0].datePublished",
	}, []string{}},
	{"recipe_event", []string{
		"missing_required $[0].image", "missing_recommended $[0].aggregateRating", "missing_recommended $[0].author",
		"missing_recommended $[0].datePublished", "missing_recommended $[0].description",
		"missing_recommended $[0].keywords", "missing_recommended $[0].nutrition.calories",
		"missing_recommended $[0].recipeCategory", "missing_recommended $[0].recipeCuisine",
		"missing_recommended $[0].recipeInstructions", "missing_recommended $[0].recipeYield",
		"invalid_value $[0].cookTime", "missing_required $[0].video.thumbnailUrl",
		"missing_required $[0].video.uploadDate", "missing_recommended $[0].video",
		"missing_recommended $[0].video.description", "missing_recommended $[0].video.duration",
		"missing_recommended $[0].video.interactionStatistic",
		"missing_required $[1].location", "missing_recommended $[1].description",
		"missing_recommended $[1].endDate", "missing_recommended $[1].eventAttendanceMode",
		"missing_recommended $[1].eventStatus", "missing_recommended $[1].image",
		"missing_recommended $[1].organizer", "missing_recommended $[1].performer",
		"invalid_value $[1].startDate", "missing_one_of $[1].offers",
		"missing_recommended $[1].offers", "missing_recommended $[1].offers.availability",
		"missing_recommended $[1].offers.priceValidUntil",
	}, []string{}},
	{"job_video", []string{
		"missing_required $[0].hiringOrganization", "missing_one_of $[0]",
		"missing_recommended $[0].baseSalary", "missing_recommended $[0].directApply",
		"missing_recommended $[0].employmentType", "missing_recommended $[0].identifier",
		"missing_required $[1].uploadDate", "missing_recommended $[1].description",
		"missing_recommended $[1].interactionStatistic", "invalid_value $[1].thumbnailUrl",
	}, []string{}},
	{"business_rating", []string{
		"missing_recommended $[0].geo", "missing_recommended $[0].openingHoursSpecification",
		"missing_recommended $[0].priceRange", "missing_recommended $[0].review",
		"missing_recommended $[0].aggregateRating.worstRating",
		"missing_required $[1].itemReviewed", "missing_recommended $[1].datePublished",
		"missing_recommended $[1].reviewRating.bestRating", "missing_recommended $[1].reviewRating.worstRating",
		"rating_out_of_range $[1].reviewRating.ratingValue",
	}, []string{"LocalBusiness"}},
	{"broken", []string{"invalid_json_ld $", "missing_context $[0].@context"}, []string{}},
	{"none", nil, []string{}},
}

func TestGolden(t *testing.T) {
	t.Parallel()
	for _, c := range goldenCases {
		t.Run(c.page, func(t *testing.T) {
			t.Parallel()
			base := filepath.Join("testdata", c.page)
			raw, err := os.ReadFile(base + ".html")
			if err != nil {
				t.Fatal(err)
			}
			r, err := schema.Validate(context.Background(), schema.Input{HTML: string(raw), URL: "https://example.com/page"}, nil)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range r.Problems {
				got = append(got, p.Code+" "+p.Path)
			}
			if !slices.Equal(got, c.problems) {
				t.Errorf("problems\n%q\nwant\n%q", got, c.problems)
			}
			if !slices.Equal(r.Eligible, c.eligible) {
				t.Errorf("eligible %q, want %q", r.Eligible, c.eligible)
			}
			compareGolden(t, base+".json", r)
		})
	}
}

// compareGolden compares v, as indented JSON, with the file at path (or
// writes it with -update).
func compareGolden(t *testing.T, path string, v any) {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to write it)", err)
	}
	if !bytes.Equal(buf.Bytes(), want) {
		t.Errorf("report differs from %s (run with -update and review the diff):\n%s", path, buf.Bytes())
	}
}
