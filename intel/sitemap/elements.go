package sitemap

import (
	"encoding/xml"
	"strings"
)

// The XML shapes of the entries Decode reads. Names match whatever their
// namespace (image:image, news:news and video:video included), as
// encoding/xml does for tags without one.
type (
	urlElement struct {
		Loc        string  `xml:"loc"`
		Lastmod    string  `xml:"lastmod"`
		Changefreq string  `xml:"changefreq"`
		Priority   string  `xml:"priority"`
		Images     counter `xml:"image"`
		News       counter `xml:"news"`
		Videos     counter `xml:"video"`
	}
	sitemapElement struct {
		Loc     string `xml:"loc"`
		Lastmod string `xml:"lastmod"`
	}
	rssItem struct {
		Links   []feedLink `xml:"link"` // <link>URL</link>, and <atom:link href> too
		PubDate string     `xml:"pubDate"`
	}
	atomEntry struct {
		Links     []feedLink `xml:"link"`
		Updated   string     `xml:"updated"`
		Published string     `xml:"published"`
	}
	feedLink struct {
		Href string `xml:"href,attr"`
		Rel  string `xml:"rel,attr"`
		Text string `xml:",chardata"`
	}
)

// counter counts the elements decoded into it, keeping none of them.
type counter int

func (c *counter) UnmarshalXML(d *xml.Decoder, _ xml.StartElement) error {
	*c++
	return d.Skip()
}

// element reads one element after the root: an entry is decoded and
// visited, a feed's <channel> entered, anything else skipped. It returns
// false when reading must stop.
func (d *decoder) element(dec *xml.Decoder, start xml.StartElement) (bool, error) {
	name := start.Name.Local
	var it Item
	switch {
	case d.out.Kind == KindURLSet && strings.EqualFold(name, "url"):
		var u urlElement
		if err := dec.DecodeElement(&u, &start); err != nil {
			return false, wrapXML(err)
		}
		it = Item{Loc: u.Loc, Lastmod: u.Lastmod, Changefreq: u.Changefreq, Priority: u.Priority,
			Images: int(u.Images), News: int(u.News), Videos: int(u.Videos)}
	case d.out.Kind == KindIndex && strings.EqualFold(name, "sitemap"):
		var s sitemapElement
		if err := dec.DecodeElement(&s, &start); err != nil {
			return false, wrapXML(err)
		}
		it = Item{Sitemap: true, Loc: s.Loc, Lastmod: s.Lastmod}
	case d.out.Kind == KindRSS && strings.EqualFold(name, "channel"):
		return true, nil // its items follow
	case d.out.Kind == KindRSS && strings.EqualFold(name, "item"):
		var r rssItem
		if err := dec.DecodeElement(&r, &start); err != nil {
			return false, wrapXML(err)
		}
		it = Item{Feed: true, Loc: rssLink(r.Links), Lastmod: r.PubDate}
	case d.out.Kind == KindAtom && strings.EqualFold(name, "entry"):
		var a atomEntry
		if err := dec.DecodeElement(&a, &start); err != nil {
			return false, wrapXML(err)
		}
		it = Item{Feed: true, Loc: atomLink(a.Links), Lastmod: firstOf(a.Updated, a.Published)}
	default:
		return true, wrapSkip(dec.Skip())
	}
	it = trimItem(it)
	return d.emit(it), nil
}

func wrapSkip(err error) error {
	if err != nil {
		return wrapXML(err)
	}
	return nil
}

// rssLink is an item's <link> text, else an <atom:link href>.
func rssLink(links []feedLink) string {
	for _, l := range links {
		if t := strings.TrimSpace(l.Text); t != "" {
			return t
		}
	}
	for _, l := range links {
		if l.Href != "" {
			return l.Href
		}
	}
	return ""
}

// atomLink is an entry's rel=alternate link (no rel means alternate).
func atomLink(links []feedLink) string {
	for _, l := range links {
		if rel := strings.TrimSpace(l.Rel); rel == "" || rel == "alternate" {
			return l.Href
		}
	}
	return ""
}

func firstOf(values ...string) string {
	for _, v := range values {
		if strings.TrimSpace(v) != "" {
			return v
		}
	}
	return ""
}

func trimItem(it Item) Item {
	it.Loc = strings.TrimSpace(it.Loc)
	it.Lastmod = strings.TrimSpace(it.Lastmod)
	it.Changefreq = strings.TrimSpace(it.Changefreq)
	it.Priority = strings.TrimSpace(it.Priority)
	return it
}
