package readability

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"testing"
)

// articleBodies reads the article bodies of the shared article-extraction
// benchmark (../shared/testdata beside the checkout, or
// $WEBINFRA_ARTICLE_BENCHMARK), skipping the test when it is absent.
func articleBodies(t *testing.T) map[string]string {
	t.Helper()
	dir := os.Getenv("WEBINFRA_ARTICLE_BENCHMARK")
	if dir == "" {
		_, file, _, _ := runtime.Caller(0)
		dir = filepath.Join(filepath.Dir(file), "..", "..", "..", "shared", "testdata", "article-extraction-benchmark")
	}
	raw, err := os.ReadFile(filepath.Join(dir, "ground-truth.json"))
	if os.IsNotExist(err) {
		t.Skipf("article benchmark not found at %s: %v", dir, err)
	}
	if err != nil {
		t.Fatal(err)
	}
	var truth map[string]struct {
		ArticleBody string `json:"articleBody"`
	}
	if err := json.Unmarshal(raw, &truth); err != nil {
		t.Fatal(err)
	}
	out := make(map[string]string, len(truth))
	for id, page := range truth {
		out[id] = page.ArticleBody
	}
	return out
}

// TestMatchesTextstatOnArticles compares every field with textstat 0.7.4
// on the 181 real article bodies of the shared benchmark
// (testdata/textstat-0.7.4-articles.json, written by
// testdata/gen_textstat_reference.py) and logs the largest deviation of
// each field. The bar is ±0.5 on every formula; the port is
// exact, so any difference fails.
func TestMatchesTextstatOnArticles(t *testing.T) {
	t.Parallel()
	bodies := articleBodies(t)
	raw, err := os.ReadFile(filepath.Join("testdata", "textstat-0.7.4-articles.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ref reference
	if err := json.Unmarshal(raw, &ref); err != nil {
		t.Fatal(err)
	}
	if len(ref.Texts) < 150 {
		t.Fatalf("only %d reference articles", len(ref.Texts))
	}
	worst := map[string]float64{}
	for id, want := range ref.Texts {
		body, ok := bodies[id]
		if !ok {
			t.Fatalf("reference article %s is not in the benchmark", id)
		}
		res, err := Text(context.Background(), body, nil)
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		got := asMap(t, res)
		for field, w := range want {
			d := math.Abs(got[field] - w)
			worst[field] = max(worst[field], d)
			if d > 1e-9 {
				t.Errorf("%s: %s = %v, textstat %v", id, field, got[field], w)
			}
		}
	}
	fields := make([]string, 0, len(worst))
	for f := range worst {
		fields = append(fields, f)
	}
	sort.Strings(fields)
	for _, f := range fields {
		t.Logf("max |ours - textstat| over %d articles: %-30s %g", len(ref.Texts), f, worst[f])
	}
}
