package citation

import (
	"net/url"
	"regexp"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
	"golang.org/x/net/publicsuffix"

	"github.com/webinfra/webinfra/internal/htmltag"
	"github.com/webinfra/webinfra/seo/htmlaudit/auditkit"
)

// AuthoritativeDomains are the sites whose links count as authoritative
// sources, beside every host under a government, military, education or
// international-organisation suffix (see isAuthoritative): research
// publishers and indexes, standards bodies, reference works, statistics
// offices and wire services. A link to one of them or to a subdomain
// counts. The list is data: it says what the score means.
var AuthoritativeDomains = []string{
	// identifiers, indexes and preprint servers
	"doi.org", "arxiv.org", "biorxiv.org", "medrxiv.org", "ssrn.com", "jstor.org", "scholar.google.com",
	"semanticscholar.org", "orcid.org", "pubmed.ncbi.nlm.nih.gov",
	// publishers and journals
	"nature.com", "science.org", "sciencedirect.com", "springer.com", "wiley.com", "tandfonline.com",
	"sagepub.com", "oup.com", "academic.oup.com", "cambridge.org", "thelancet.com", "nejm.org", "bmj.com",
	"jamanetwork.com", "cell.com", "pnas.org", "plos.org", "frontiersin.org", "mdpi.com", "acs.org", "aps.org",
	"iop.org", "royalsocietypublishing.org", "cochranelibrary.com",
	// standards and technical bodies
	"ieee.org", "acm.org", "w3.org", "ietf.org", "rfc-editor.org", "iso.org", "whatwg.org", "unicode.org",
	// international organisations and statistics
	"un.org", "who.int", "worldbank.org", "imf.org", "oecd.org", "europa.eu", "wto.org", "ourworldindata.org",
	"pewresearch.org",
	// reference works
	"wikipedia.org", "wikidata.org", "britannica.com", "merriam-webster.com",
	// medicine
	"mayoclinic.org", "clevelandclinic.org",
	// wire services
	"reuters.com", "apnews.com",
}

// authoritativeTLDs and authoritativeSLDs are the suffixes of public
// institutions: .gov, .mil, .edu, .int, and, under a country code, gov,
// gob, gouv, govt, go, ac, edu, mil (gov.uk, ac.jp, gob.mx, edu.au).
var (
	authoritativeTLDs = map[string]bool{"gov": true, "mil": true, "edu": true, "int": true}
	authoritativeSLDs = map[string]bool{"gov": true, "gob": true, "gouv": true, "govt": true, "go": true,
		"ac": true, "edu": true, "mil": true}
)

// isAuthoritative says why a host is authoritative, or "".
func isAuthoritative(host string) string {
	labels := strings.Split(host, ".")
	n := len(labels)
	if n >= 2 && authoritativeTLDs[labels[n-1]] {
		return "." + labels[n-1] + " domain"
	}
	if n >= 2 && len(labels[n-1]) == 2 && authoritativeSLDs[labels[n-2]] {
		return "." + labels[n-2] + "." + labels[n-1] + " domain"
	}
	for _, d := range AuthoritativeDomains {
		if host == d || strings.HasSuffix(host, "."+d) {
			return d
		}
	}
	return ""
}

// linkScan is what one walk over the article finds.
type linkScan struct {
	outbound      int
	authoritative int
	citations     int // outbound links marked as citations (rel=cite, in <cite>, blockquote/q cite)
	cited         []CitedLink
	blockquotes   int
	inlineQuotes  int
	cites         int
	footnotes     int
	truncated     bool
}

// footnoteRx recognises in-page links to notes and references.
var footnoteRx = regexp.MustCompile(`(?i)^#(?:fn|footnote|note|ref|cite|citation|endnote|cite_note)`)

// scanLinks walks root (the article, or the body) for outbound links,
// quotations, <cite> elements and footnote references. self is the page's
// registrable domain ("" when unknown: every absolute link is outbound).
func scanLinks(root *html.Node, base *url.URL, self string) *linkScan {
	s := &linkScan{}
	seen := map[string]bool{}
	addLink := func(href string, citation bool) {
		u := resolve(base, href)
		if u == nil {
			return
		}
		host := strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.")
		if self != "" && domainOf(host) == self {
			return
		}
		key := u.String()
		if seen[key] {
			return
		}
		seen[key] = true
		s.outbound++
		reason := isAuthoritative(host)
		if citation {
			s.citations++
			if reason == "" {
				reason = "marked as a citation"
			}
		}
		if reason == "" {
			return
		}
		s.authoritative++
		if len(s.cited) < maxLinks {
			s.cited = append(s.cited, CitedLink{URL: auditkit.Clip(key, 300), Host: host, Reason: reason})
		} else {
			s.truncated = true
		}
	}
	inCite := 0
	var walk func(n *html.Node, depth int)
	walk = func(n *html.Node, depth int) {
		if n.Type != html.ElementNode && n.Type != html.DocumentNode {
			return
		}
		if depth > htmltag.MaxDepth {
			return
		}
		switch n.DataAtom {
		case atom.Script, atom.Style, atom.Template, atom.Noscript, atom.Nav, atom.Head:
			return
		case atom.A:
			href := strings.TrimSpace(htmltag.Attr(n, "href"))
			switch {
			case footnoteRx.MatchString(href):
				s.footnotes++
			case href != "" && !strings.HasPrefix(href, "#"):
				addLink(href, inCite > 0 || hasToken(htmltag.Attr(n, "rel"), "cite"))
			}
		case atom.Blockquote, atom.Q:
			if auditkit.Words(auditkit.Text(n, 2000)) >= 3 || htmltag.HasAttr(n, "cite") {
				if n.DataAtom == atom.Blockquote {
					s.blockquotes++
				} else {
					s.inlineQuotes++
				}
			}
			if c := htmltag.Attr(n, "cite"); c != "" {
				addLink(c, true)
			}
		case atom.Cite:
			s.cites++
			inCite++
			defer func() { inCite-- }()
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, depth+1)
		}
	}
	walk(root, 0)
	return s
}

func hasToken(list, token string) bool {
	for _, t := range strings.Fields(strings.ToLower(list)) {
		if t == token {
			return true
		}
	}
	return false
}

// resolve makes href an absolute http(s) URL, or nil.
func resolve(base *url.URL, href string) *url.URL {
	u, err := url.Parse(href)
	if err != nil {
		return nil
	}
	if base != nil {
		u = base.ResolveReference(u)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil
	}
	u.Fragment = ""
	return u
}

// domainOf is a host's registrable domain (example.co.uk for
// news.example.co.uk), or the host itself when it has none.
func domainOf(host string) string {
	if d, err := publicsuffix.EffectiveTLDPlusOne(host); err == nil {
		return d
	}
	return host
}
