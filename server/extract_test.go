package server_test

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// articlePage is a loopback page with an article, structured data, a
// table and contacts.
const articlePage = `<!doctype html><html lang="en"><head><title>Herons of the marsh</title>
<meta name="description" content="Field notes on grey herons.">
<meta property="og:title" content="Herons of the marsh"><meta property="og:image" content="/heron.jpg">
<link rel="canonical" href="/notes/herons">
<script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"Article","headline":"Herons of the marsh","author":{"@type":"Person","name":"Ada Marsh"}},{"@type":"Organization","name":"Marsh Notes"}]}</script>
</head><body><nav><a href="/">Home</a> <a href="/about">About</a></nav>
<article><h1>Herons of the marsh</h1><p class="byline">By Ada Marsh</p>
<p>The grey heron stands motionless at the edge of the reeds for long minutes, waiting for a fish to come within reach of its beak. Observers who are patient enough will see it strike with astonishing speed.</p>
<h2>Where they nest</h2>
<p>Herons nest in colonies called heronries, usually high in tall trees close to water. A single heronry can hold dozens of nests, reused and enlarged year after year by the same birds.</p>
<table><thead><tr><th>Month</th><th>Sightings</th></tr></thead><tbody><tr><td>March</td><td rowspan="2">12</td></tr><tr><td>April</td></tr></tbody></table>
<p>Write to ada [at] marsh-notes [dot] org or call +44 20 7946 0958 with your own sightings.</p>
</article><footer>© Marsh Notes · <a href="https://github.com/marshnotes">GitHub</a></footer></body></html>`

func articleSite(t *testing.T) string {
	return newHTTPServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, articlePage)
	})
}

func TestExtractTables(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	key := e.signup("tables@example.com")
	var out struct {
		Tables []struct {
			Headers []string   `json:"headers"`
			Rows    [][]string `json:"rows"`
		} `json:"tables"`
	}
	r := e.want(e.call("POST", "/v1/extract/tables", key, map[string]any{"html": articlePage}), 200)
	r.json(t, &out)
	if len(out.Tables) != 1 || strings.Join(out.Tables[0].Headers, ",") != "Month,Sightings" ||
		len(out.Tables[0].Rows) != 2 || out.Tables[0].Rows[1][1] != "12" {
		t.Fatalf("tables = %+v", out)
	}
	if r.header.Get("X-Credits-Charged") != "1" {
		t.Fatalf("charged %q", r.header.Get("X-Credits-Charged"))
	}
	if d := e.want(e.call("POST", "/v1/extract/tables", key, map[string]any{"html": ""}), 422).detail(t); !strings.Contains(d, "html") {
		t.Fatalf("empty html: %q", d)
	}
	if b := e.balance(key); b != 999 {
		t.Fatalf("balance %d after one good and one bad call, want 999", b)
	}
}

// A page bigger than the body limit of other calls is accepted by the
// extraction endpoints, up to their own limit (Options.MaxPageBytes).
func TestExtractTakesLargePages(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withMaxBody(16<<10))
	key := e.signup("large@example.com")
	big := "<table><tr><th>a</th></tr>" + strings.Repeat("<tr><td>"+strings.Repeat("x", 100)+"</td></tr>", 500) + "</table>"
	e.want(e.call("POST", "/v1/extract/tables", key, map[string]any{"html": big}), 200)
	e.want(e.call("POST", "/v1/scrape", key, map[string]any{"url": "https://example.com/", "headers": map[string]string{"x": big}}), 413)
}

func TestExtractStructured(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	key := e.signup("structured@example.com")
	site := articleSite(t)
	type result struct {
		JSONLD struct {
			Types []string `json:"types"`
		} `json:"json_ld"`
		OpenGraph map[string]any `json:"open_graph"`
		Links     struct {
			Canonical string `json:"canonical"`
		} `json:"links"`
		Source *struct {
			FinalURL string `json:"final_url"`
			TierUsed string `json:"tier_used"`
		} `json:"source"`
	}
	// Fetched through the engine.
	var fetched result
	r := e.want(e.call("POST", "/v1/extract/structured", key, map[string]any{"url": site + "/notes/herons"}), 200)
	r.json(t, &fetched)
	if strings.Join(fetched.JSONLD.Types, ",") != "Article,Person,Organization" || fetched.OpenGraph["og:title"] != "Herons of the marsh" ||
		fetched.Source == nil || fetched.Source.TierUsed != "direct" || r.header.Get("X-Tier-Used") != "direct" {
		t.Fatalf("fetched = %+v (headers %v)", fetched, r.header)
	}
	if fetched.Links.Canonical != site+"/notes/herons" {
		t.Fatalf("canonical = %+v", fetched.Links)
	}
	// Supplied HTML with its address: nothing fetched, links resolved.
	var supplied result
	e.want(e.call("POST", "/v1/extract/structured", key, map[string]any{"html": articlePage, "url": "https://marsh.example/notes/herons"}), 200).json(t, &supplied)
	if supplied.Source != nil || supplied.Links.Canonical != "https://marsh.example/notes/herons" {
		t.Fatalf("supplied = %+v", supplied)
	}
	// Neither: 422 naming html, no charge.
	before := e.balance(key)
	if d := e.want(e.call("POST", "/v1/extract/structured", key, map[string]any{}), 422).detail(t); !strings.Contains(d, "html") {
		t.Fatalf("empty: %q", d)
	}
	if d := e.want(e.call("POST", "/v1/extract/structured", key, map[string]any{"html": "<p>x</p>", "url": "not a url"}), 422).detail(t); !strings.Contains(d, "url") {
		t.Fatalf("bad url: %q", d)
	}
	// A base URL of another scheme is named as body.url, the field sent.
	if d := e.want(e.call("POST", "/v1/extract/structured", key, map[string]any{"html": "<p>x</p>", "url": "ftp://marsh.example/"}), 422).detail(t); !strings.Contains(d, "body.url") {
		t.Fatalf("ftp base url: %q", d)
	}
	if e.balance(key) != before {
		t.Fatal("a refused call was charged")
	}
}

func TestExtractContacts(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	key := e.signup("contacts@example.com")
	var out struct {
		Emails []struct {
			Address string `json:"address"`
		} `json:"emails"`
		Phones []struct {
			E164 string `json:"e164"`
		} `json:"phones"`
		Social []struct {
			Network string `json:"network"`
			Handle  string `json:"handle"`
		} `json:"social"`
	}
	e.want(e.call("POST", "/v1/extract/contacts", key, map[string]any{"html": articlePage}), 200).json(t, &out)
	if len(out.Emails) != 1 || out.Emails[0].Address != "ada@marsh-notes.org" || len(out.Phones) != 1 || out.Phones[0].E164 != "+442079460958" ||
		len(out.Social) != 1 || out.Social[0].Network != "github" || out.Social[0].Handle != "marshnotes" {
		t.Fatalf("contacts = %+v", out)
	}
	if d := e.want(e.call("POST", "/v1/extract/contacts", key, map[string]any{"text": "x", "default_region": "ZZ"}), 422).detail(t); !strings.Contains(d, "default_region") {
		t.Fatalf("bad region: %q", d)
	}
}

func TestExtractClean(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	key := e.signup("clean@example.com")
	site := articleSite(t)
	// A fresh answer per call, so that no field is left over from the
	// one before.
	type answer struct {
		Text      string `json:"text"`
		Markdown  string `json:"markdown"`
		Title     string `json:"title"`
		Language  string `json:"language"`
		Mode      string `json:"mode"`
		NoContent bool   `json:"no_content"`
		Source    *struct {
			TierUsed string `json:"tier_used"`
		} `json:"source"`
	}
	for _, mode := range []string{"accurate", "fast"} {
		var out answer
		e.want(e.call("POST", "/v1/extract/clean", key, map[string]any{"url": site + "/notes/herons", "mode": mode}), 200).json(t, &out)
		if !strings.Contains(out.Text, "motionless at the edge of the reeds") || !strings.Contains(out.Markdown, "## Where they nest") ||
			strings.Contains(out.Text, "Home") || out.Title != "Herons of the marsh" || out.Language != "en" || out.Mode != mode || out.Source == nil {
			t.Fatalf("%s: %+v", mode, out)
		}
	}
	var out answer
	e.want(e.call("POST", "/v1/extract/clean", key, map[string]any{"html": articlePage}), 200).json(t, &out)
	if !strings.Contains(out.Text, "heronries") || out.Source != nil {
		t.Fatalf("supplied html: %+v", out)
	}
	if d := e.want(e.call("POST", "/v1/extract/clean", key, map[string]any{"html": articlePage, "mode": "sloppy"}), 422).detail(t); !strings.Contains(d, "mode") {
		t.Fatalf("bad mode: %q", d)
	}
}

// A page nested deeper than the HTML parser allows is refused by name by
// the endpoints that need a tree, and chunked whole by llm-ready.
func TestExtractDeeplyNestedPage(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	key := e.signup("deep@example.com")
	deep := strings.Repeat("<div>", 700) + "<p>Deep inside the page there is still some text.</p>" + strings.Repeat("</div>", 700)
	for _, path := range []string{"/v1/extract/clean", "/v1/extract/structured", "/v1/extract/tables"} {
		d := e.want(e.call("POST", path, key, map[string]any{"html": deep}), 413).detail(t)
		if !strings.HasPrefix(d, "body.html: ") || !strings.Contains(d, "512 deep") {
			t.Errorf("%s: detail %q", path, d)
		}
	}
	site := newHTTPServer(t, func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, deep) })
	var out struct {
		ContentSource string `json:"content_source"`
		Chunks        []struct {
			Text string `json:"text"`
		} `json:"chunks"`
	}
	e.want(e.call("POST", "/v1/scrape/llm-ready", key, map[string]any{"url": site}), 200).json(t, &out)
	if out.ContentSource != "page" || len(out.Chunks) != 1 || !strings.Contains(out.Chunks[0].Text, "still some text") {
		t.Fatalf("llm-ready on a deep page: %+v", out)
	}
}

// Two letters are no evidence of a language: none is reported.
func TestExtractCleanNoLanguageGuess(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	key := e.signup("no-language@example.com")
	body := string(e.want(e.call("POST", "/v1/extract/clean", key, map[string]any{"html": "<p>hi</p>"}), 200).body)
	if strings.Contains(body, `"language"`) {
		t.Fatalf("a language was guessed from two letters: %s", body)
	}
}
