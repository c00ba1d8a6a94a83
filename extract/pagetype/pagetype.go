package pagetype

import (
	_ "embed"
	"encoding/json"
	"net/url"
	"sync"

	"golang.org/x/net/html"
)

// Type is a kind of page.
type Type string

// The page types, as the WCXB benchmark defines them.
const (
	Article       Type = "article"       // blog posts, news, guides, reviews
	Forum         Type = "forum"         // discussion threads, Q&A
	Product       Type = "product"       // one product: description, specs, price
	Collection    Type = "collection"    // a shop's category page, a product grid
	Listing       Type = "listing"       // an index of articles, courses, links
	Documentation Type = "documentation" // API docs, tutorials, wikis
	Service       Type = "service"       // SaaS and marketing pages, features, pricing
)

// Types are the seven types.
var Types = []Type{Article, Forum, Product, Collection, Listing, Documentation, Service}

// Guess is a page's most probable type and the model's probability of it.
type Guess struct {
	Type       Type    `json:"type"`
	Confidence float64 `json:"confidence"`
}

//go:embed model.json
var modelJSON []byte

var shipped = sync.OnceValue(func() *Model {
	var m Model
	if err := json.Unmarshal(modelJSON, &m); err != nil {
		panic("pagetype: model.json: " + err.Error())
	}
	if err := m.Check(); err != nil {
		panic(err.Error() + ": retrain model.json (go test ./extract/pagetype -run TestTrain -update)")
	}
	return &m
})

// Detect guesses the type of the page doc (parsed with
// golang.org/x/net/html) found at pageURL, which may be nil. doc is not
// modified. It reads the page's markup, schema.org types, text and URL
// with the shipped model, trained on the WCXB development set.
func Detect(doc *html.Node, pageURL *url.URL) Guess {
	return shipped().Detect(doc, pageURL)
}

// Detect is the package's Detect with model m.
func (m *Model) Detect(doc *html.Node, pageURL *url.URL) Guess {
	p := m.Probabilities(Features(doc, pageURL))
	best := argmax(p)
	return Guess{Type: m.Types[best], Confidence: p[best]}
}
