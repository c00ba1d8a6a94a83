package company

import (
	"context"
	"html"
	"strings"

	"github.com/webinfra/webinfra/extract/contacts"
	"github.com/webinfra/webinfra/extract/structured"
)

// Social profiles are recognised and normalized by extract/contacts (its
// rules know which URLs are profiles, not posts or share buttons); the
// URLs that come from tags rather than links are handed to it as links.

// addURLProfiles adds the profiles among URLs found in one source.
func (p *Report) addURLProfiles(urls []string, source string) {
	var b strings.Builder
	for _, u := range urls {
		b.WriteString(`<a href="` + html.EscapeString(u) + `"></a>`)
	}
	if b.Len() == 0 {
		return
	}
	res, err := contacts.Extract(context.Background(), contacts.Input{HTML: b.String()}, nil)
	if err != nil {
		return
	}
	p.addProfiles(res.Social, source, "")
}

// addAnchorProfiles adds the profiles extract/contacts found in the page:
// its links, and its twitter:site and twitter:creator tags, of which the
// creator (a page's author) is left out.
func (p *Report) addAnchorProfiles(found []contacts.Profile) {
	p.addProfiles(found, "anchor", p.twitterCreator)
}

// addProfiles adds profiles not yet listed (by network and handle), at
// most maxProfiles; skipHandle is an X handle to leave out.
func (p *Report) addProfiles(found []contacts.Profile, source, skipHandle string) {
	for _, f := range found {
		key := f.Network + "/" + strings.ToLower(cmpOr(f.Handle, f.URL))
		switch {
		case len(p.SocialProfiles) >= maxProfiles, p.seenProfile(key):
		case f.Network == "x" && skipHandle != "" && strings.EqualFold(f.Handle, skipHandle):
		default:
			p.SocialProfiles = append(p.SocialProfiles, SocialProfile{Network: f.Network, URL: f.URL, Handle: f.Handle, Source: source})
		}
	}
}

func (p *Report) seenProfile(key string) bool {
	for _, s := range p.SocialProfiles {
		if s.Network+"/"+strings.ToLower(cmpOr(s.Handle, s.URL)) == key {
			return true
		}
	}
	return false
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// fromTags adds the profiles the page's tags name: twitter:site (the
// site's X account) and OpenGraph's article:publisher (a Facebook page).
func (p *Report) fromTags(sd *structured.Result, page *pageView) {
	if sd == nil {
		return
	}
	site := strings.TrimPrefix(strings.TrimSpace(sd.Twitter["twitter:site"]), "@")
	creator := strings.TrimPrefix(strings.TrimSpace(sd.Twitter["twitter:creator"]), "@")
	if !strings.EqualFold(site, creator) {
		p.twitterCreator = creator
	}
	if site != "" && !strings.ContainsAny(site, "/:") {
		p.addURLProfiles([]string{"https://x.com/" + site}, "twitter:site")
	} else if site != "" {
		p.addURLProfiles([]string{site}, "twitter:site")
	}
	var og []string
	for _, key := range []string{"article:publisher", "og:see_also"} {
		for _, v := range ogValues(sd.OpenGraph[key]) {
			if u := page.abs(v); u != "" {
				og = append(og, u)
			}
		}
	}
	p.addURLProfiles(og, "og")
}

// ogValues are an OpenGraph property's string values.
func ogValues(v any) []string {
	switch v := v.(type) {
	case string:
		return []string{v}
	case []string:
		return v
	}
	return nil
}
