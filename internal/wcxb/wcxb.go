package wcxb

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/net/html/charset"

	"github.com/webinfra/webinfra/internal/articlebench"
)

// Types are the seven page types, in the README's order.
var Types = []string{"article", "service", "product", "collection", "forum", "listing", "documentation"}

// Page is one development page.
type Page struct {
	ID   string // the file name without its extension
	URL  string
	Type string // one of Types
	HTML []byte // the page, converted to UTF-8 as the fetcher would
	Truth
}

// Truth is a page's ground truth.
type Truth struct {
	MainContent string   `json:"main_content"`
	With        []string `json:"with"`
	Without     []string `json:"without"`
	Title       *string  `json:"title"`
	Author      *string  `json:"author"`
	PublishDate *string  `json:"publish_date"`
}

// Dir is the development split: $WEBINFRA_WCXB_DEV when set, else
// ../shared/testdata/wcxb-dev beside the repository checkout.
func Dir() string {
	if d := os.Getenv("WEBINFRA_WCXB_DEV"); d != "" {
		return d
	}
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "shared", "testdata", "wcxb-dev")
}

// Load reads every page, sorted by id. It skips the test with a message
// when the directory is missing and fails it when the data is damaged.
func Load(tb testing.TB) []Page {
	tb.Helper()
	pages, err := Read(Dir())
	if os.IsNotExist(err) {
		tb.Skipf("WCXB development set not found at %s (set WEBINFRA_WCXB_DEV): %v", Dir(), err)
	}
	if err != nil {
		tb.Fatal(err)
	}
	return pages
}

// LoadPage reads the page of one id, skipping the test as Load does.
func LoadPage(tb testing.TB, id string) Page {
	tb.Helper()
	p, err := readPage(Dir(), filepath.Join(Dir(), "ground-truth", id+".json"))
	if os.IsNotExist(err) {
		tb.Skipf("WCXB development set not found at %s (set WEBINFRA_WCXB_DEV): %v", Dir(), err)
	}
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

// Read reads every page of the split in dir, sorted by id.
func Read(dir string) ([]Page, error) {
	files, err := filepath.Glob(filepath.Join(dir, "ground-truth", "*.json"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, &os.PathError{Op: "read", Path: filepath.Join(dir, "ground-truth"), Err: os.ErrNotExist}
	}
	pages := make([]Page, 0, len(files))
	for _, f := range files {
		p, err := readPage(dir, f)
		if err != nil {
			return nil, err
		}
		pages = append(pages, p)
	}
	sort.Slice(pages, func(i, j int) bool { return pages[i].ID < pages[j].ID })
	return pages, nil
}

func readPage(dir, truthFile string) (Page, error) {
	raw, err := os.ReadFile(truthFile)
	if err != nil {
		return Page{}, err
	}
	var doc struct {
		URL      string `json:"url"`
		Internal struct {
			PageType struct {
				Primary string `json:"primary"`
			} `json:"page_type"`
		} `json:"_internal"`
		GroundTruth Truth `json:"ground_truth"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return Page{}, fmt.Errorf("%s: %w", truthFile, err)
	}
	id := strings.TrimSuffix(filepath.Base(truthFile), ".json") // one file lacks file_id
	html, err := readHTML(filepath.Join(dir, "html", id+".html.gz"))
	if err != nil {
		return Page{}, err
	}
	return Page{ID: id, URL: doc.URL, Type: doc.Internal.PageType.Primary, HTML: html, Truth: doc.GroundTruth}, nil
}

// readHTML gunzips a page and converts it to UTF-8 from the charset its
// bytes declare (a byte-order mark or <meta charset>), as fetch does:
// bytes that are valid UTF-8 are UTF-8 whatever a <meta> says.
func readHTML(path string) ([]byte, error) {
	raw, err := articlebench.ReadGzip(path)
	if err != nil {
		return nil, err
	}
	enc, name, certain := charset.DetermineEncoding(raw, "text/html")
	if name == "utf-8" || (!certain && utf8.Valid(raw)) {
		return raw, nil
	}
	out, err := enc.NewDecoder().Bytes(raw)
	if err != nil {
		return nil, fmt.Errorf("%s: decode %s: %w", path, name, err)
	}
	return out, nil
}
