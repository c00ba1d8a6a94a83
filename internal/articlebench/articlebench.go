package articlebench

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"testing"
)

// Page is one benchmark page.
type Page struct {
	ID   string // the file name without .html.gz
	URL  string // where the page was captured from
	HTML []byte // the page, UTF-8
	Body string // the ground-truth article body
}

// Dir is the benchmark directory: $WEBINFRA_ARTICLE_BENCHMARK when set,
// else ../shared/testdata/article-extraction-benchmark beside the
// repository checkout.
func Dir() string {
	if d := os.Getenv("WEBINFRA_ARTICLE_BENCHMARK"); d != "" {
		return d
	}
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..")
	return filepath.Join(root, "..", "shared", "testdata", "article-extraction-benchmark")
}

// Load reads every page, sorted by id. It skips the test with a message
// when the benchmark directory is missing, and fails it when the data is
// damaged.
func Load(tb testing.TB) []Page {
	tb.Helper()
	pages, err := Read(Dir())
	if os.IsNotExist(err) {
		tb.Skipf("article benchmark not found at %s (set WEBINFRA_ARTICLE_BENCHMARK): %v", Dir(), err)
	}
	if err != nil {
		tb.Fatal(err)
	}
	return pages
}

// Read reads every page of the benchmark in dir, sorted by id.
func Read(dir string) ([]Page, error) {
	raw, err := os.ReadFile(filepath.Join(dir, "ground-truth.json"))
	if err != nil {
		return nil, err
	}
	var truth map[string]struct {
		ArticleBody string `json:"articleBody"`
		URL         string `json:"url"`
	}
	if err := json.Unmarshal(raw, &truth); err != nil {
		return nil, fmt.Errorf("ground-truth.json: %w", err)
	}
	pages := make([]Page, 0, len(truth))
	for id, t := range truth {
		body, err := ReadGzip(filepath.Join(dir, "html", id+".html.gz"))
		if err != nil {
			return nil, err
		}
		pages = append(pages, Page{ID: id, URL: t.URL, HTML: body, Body: t.ArticleBody})
	}
	sort.Slice(pages, func(i, j int) bool { return pages[i].ID < pages[j].ID })
	return pages, nil
}

// ReadGzip reads a gzipped file whole.
func ReadGzip(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var buf bytes.Buffer
	if _, err := io.Copy(&buf, zr); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return buf.Bytes(), nil
}
