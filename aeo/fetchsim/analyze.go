package fetchsim

import (
	"hash/fnv"
	"math"
	"strings"
	"unicode"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/webinfra/webinfra/fetch"
	"github.com/webinfra/webinfra/internal/htmltag"
	"github.com/webinfra/webinfra/seo/htmlaudit/auditkit"
)

// Bounds of the page analysis.
const (
	// MaxTextBytes is the most visible text read from one answer.
	MaxTextBytes = 512 << 10
	// maxElements is the most elements scanned for scripts and app roots.
	maxElements = 200_000
	// ShingleWords is the length of the word shingles compared.
	ShingleWords = 3
)

// page is what one answer shows a reader that runs no JavaScript.
type page struct {
	html    bool
	text    string   // visible text of <body> (or the whole text of a text/* answer), at most MaxTextBytes
	words   []string // text's words, lower case, for the similarity
	scripts int      // executable <script> elements
	appRoot string   // the id of a client-side framework's mount point, if any
}

// appRootIDs are the ids client-side frameworks render into.
var appRootIDs = map[string]bool{"root": true, "app": true, "__next": true, "__nuxt": true, "___gatsby": true, "svelte": true, "main-app": true}

// analyze reads an answer's visible text, scripts and mount point.
func analyze(res *fetch.Response) page {
	var p page
	switch {
	case res.ContentType == "text/html" || res.ContentType == "application/xhtml+xml":
		p.html = true
		doc, err := htmltag.Parse(string(res.Body), "url")
		if err != nil {
			return p
		}
		body := doc
		auditkit.Walk(doc, maxElements, func(n *html.Node) bool {
			if n.Namespace != "" {
				return false
			}
			switch n.DataAtom {
			case atom.Body:
				body = n
			case atom.Script:
				if isExecutable(n) {
					p.scripts++
				}
				return false
			}
			if id := htmltag.Attr(n, "id"); p.appRoot == "" && appRootIDs[id] {
				p.appRoot = id
			}
			return true
		})
		p.text = auditkit.Text(body, MaxTextBytes)
	case strings.HasPrefix(res.ContentType, "text/"):
		p.text = auditkit.CollapseSpace(string(res.Body[:min(len(res.Body), MaxTextBytes)]))
	}
	p.words = strings.FieldsFunc(strings.ToLower(p.text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) })
	return p
}

// isExecutable is true for a <script> that runs: code or a src, and no
// data type (JSON, templates).
func isExecutable(n *html.Node) bool {
	switch t := strings.ToLower(strings.TrimSpace(htmltag.Attr(n, "type"))); t {
	case "", "module", "text/javascript", "application/javascript", "text/ecmascript", "application/ecmascript":
	default:
		return false
	}
	return htmltag.Attr(n, "src") != "" || strings.TrimSpace(auditkit.RawText(n)) != ""
}

// similarity is the Jaccard index of the two texts' sets of word
// ShingleWords-shingles (lower case, split at anything but letters and
// digits), or of their sets of words when either has fewer words than a
// shingle; 1 when both are empty. It is rounded to three decimals.
func similarity(a, b []string) float64 {
	k := ShingleWords
	if len(a) < k || len(b) < k {
		k = 1
	}
	sa, sb := shingles(a, k), shingles(b, k)
	if len(sa) == 0 && len(sb) == 0 {
		return 1
	}
	inter := 0
	for h := range sa {
		if _, ok := sb[h]; ok {
			inter++
		}
	}
	j := float64(inter) / float64(len(sa)+len(sb)-inter)
	return math.Round(j*1000) / 1000
}

// shingles hashes each run of k words (FNV-1a, 64 bits).
func shingles(words []string, k int) map[uint64]struct{} {
	set := make(map[uint64]struct{}, len(words))
	h := fnv.New64a()
	for i := 0; i+k <= len(words); i++ {
		h.Reset()
		for _, w := range words[i : i+k] {
			_, _ = h.Write([]byte(w))
			_, _ = h.Write([]byte{0})
		}
		set[h.Sum64()] = struct{}{}
	}
	return set
}
