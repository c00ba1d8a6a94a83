package structured

import (
	"mime"
	"slices"
	"strings"

	"github.com/webinfra/webinfra/internal/htmltag"
	"golang.org/x/net/html"
)

// Links are the <link> elements that describe the page, URLs absolute
// against base_url and <base href>.
type Links struct {
	Canonical  string `json:"canonical,omitempty"`
	AMPHTML    string `json:"amphtml,omitempty"`
	Prev       string `json:"prev,omitempty"`
	Next       string `json:"next,omitempty"`
	Manifest   string `json:"manifest,omitempty"`
	Alternates []Link `json:"alternates,omitempty" doc:"rel=alternate versions other than feeds and oEmbed: languages (hreflang), media or types."`
	Feeds      []Link `json:"feeds,omitempty" doc:"RSS, Atom and JSON feeds (rel=alternate with type application/rss+xml, application/atom+xml or application/feed+json)."`
	Icons      []Link `json:"icons,omitempty" doc:"rel=icon, apple-touch-icon, mask-icon and their variants."`
	OEmbed     []Link `json:"oembed,omitempty" doc:"oEmbed endpoints (type application/json+oembed or text/xml+oembed)."`
}

// Link is one <link> element.
type Link struct {
	Href     string `json:"href"`
	Rel      string `json:"rel,omitempty" doc:"For icons: the rel attribute, lower case."`
	Type     string `json:"type,omitempty"`
	Title    string `json:"title,omitempty"`
	Hreflang string `json:"hreflang,omitempty"`
	Media    string `json:"media,omitempty"`
	Sizes    string `json:"sizes,omitempty"`
}

// iconRels are the rel tokens that name an icon.
var iconRels = []string{"icon", "apple-touch-icon", "apple-touch-icon-precomposed", "mask-icon", "fluid-icon"}

func (b *builder) links(nodes []*html.Node) *Links {
	l := &Links{}
	for _, n := range nodes {
		href := strings.TrimSpace(htmltag.Attr(n, "href"))
		if href == "" {
			continue
		}
		href = b.abs(href)
		rels := tokens(strings.ToLower(htmltag.Attr(n, "rel")))
		for _, rel := range rels {
			switch rel {
			case "canonical":
				setFirst(&l.Canonical, href)
			case "amphtml":
				setFirst(&l.AMPHTML, href)
			case "prev":
				setFirst(&l.Prev, href)
			case "next":
				setFirst(&l.Next, href)
			case "manifest":
				setFirst(&l.Manifest, href)
			case "alternate":
				b.alternate(l, n, href)
			}
		}
		if slices.ContainsFunc(rels, func(r string) bool { return slices.Contains(iconRels, r) }) {
			b.add(&l.Icons, Link{
				Href:  href,
				Rel:   strings.Join(rels, " "),
				Type:  strings.TrimSpace(htmltag.Attr(n, "type")),
				Sizes: strings.TrimSpace(htmltag.Attr(n, "sizes")),
			})
		}
	}
	return nilIfZero(l)
}

// alternate files a rel=alternate link as a feed, an oEmbed endpoint or
// an alternate version.
func (b *builder) alternate(l *Links, n *html.Node, href string) {
	link := Link{
		Href:     href,
		Type:     strings.TrimSpace(htmltag.Attr(n, "type")),
		Title:    collapse(htmltag.Attr(n, "title")),
		Hreflang: strings.TrimSpace(htmltag.Attr(n, "hreflang")),
		Media:    strings.TrimSpace(htmltag.Attr(n, "media")),
	}
	mediaType, _, _ := mime.ParseMediaType(link.Type)
	switch mediaType {
	case "application/rss+xml", "application/atom+xml", "application/feed+json":
		b.add(&l.Feeds, link)
	case "application/json+oembed", "text/xml+oembed":
		b.add(&l.OEmbed, link)
	default:
		b.add(&l.Alternates, link)
	}
}

// add appends link to list unless the list has it or is full.
func (b *builder) add(list *[]Link, link Link) {
	if !slices.Contains(*list, link) && b.room(len(*list), "links") {
		*list = append(*list, link)
	}
}

func setFirst(field *string, value string) {
	if *field == "" {
		*field = value
	}
}
