package company

import (
	"regexp"
	"strconv"
	"strings"

	"golang.org/x/net/publicsuffix"

	"github.com/webinfra/webinfra/extract/structured"
)

// fallbacks fill what the organization data left empty from weaker
// signals: OpenGraph, the title, meta tags, icons, the page's contacts.
func (p *Report) fallbacks(sd *structured.Result, page *pageView) {
	if sd != nil {
		p.set(&p.Name, "name", ogText(sd.OpenGraph, "og:site_name"), "og:site_name")
		if m := sd.Meta; m != nil {
			p.set(&p.Name, "name", m.Other["application-name"], "application-name")
			p.set(&p.Name, "name", cleanTitle(m.Title, page.site, page.home()), "title")
			p.set(&p.Description, "description", m.Description, "meta description")
		}
		p.set(&p.Description, "description", ogText(sd.OpenGraph, "og:description"), "og:description")
		if sd.Links != nil {
			src, icon := iconLogo(sd.Links.Icons, page)
			p.set(&p.Logo, "logo", icon, src)
		}
		p.set(&p.Logo, "logo", page.abs(ogImage(sd.OpenGraph)), "og:image")
	}
	if page.base != nil {
		p.set(&p.URL, "url", page.base.Scheme+"://"+page.base.Host+"/", "page")
	}
	if !page.home() && !page.companyPage() {
		return // a listing or an article quotes others' numbers and addresses
	}
	for _, ph := range p.Phones {
		if ph.Source == "tel_link" {
			p.set(&p.Telephone, "telephone", cmpOr(ph.E164, ph.Raw), "tel: link")
		}
	}
	for _, ph := range p.Phones {
		if ph.Valid {
			p.set(&p.Telephone, "telephone", cmpOr(ph.E164, ph.Raw), "text")
		}
	}
	for _, e := range p.Emails { // those on the site's domain come first
		source := "text"
		if e.Source == "mailto" {
			source = "mailto: link"
		}
		p.set(&p.Email, "email", e.Address, source)
	}
}

func ogText(og map[string]any, key string) string {
	s, _ := og[key].(string)
	return strings.TrimSpace(s)
}

// ogImage is the first og:image URL.
func ogImage(og map[string]any) string {
	if list, ok := og["og:image"].([]map[string]string); ok && len(list) > 0 {
		return list[0]["url"]
	}
	if list, ok := og["og:image"].([]any); ok && len(list) > 0 {
		if m, ok := list[0].(map[string]any); ok {
			s, _ := m["url"].(string)
			return s
		}
	}
	return ""
}

// iconLogo picks the largest apple-touch-icon, else the largest icon
// (an SVG counting as the largest).
func iconLogo(icons []structured.Link, page *pageView) (source, href string) {
	best, bestSize := "", -1
	for _, want := range []string{"apple-touch-icon", "icon"} {
		for _, ic := range icons {
			rel := strings.ToLower(ic.Rel)
			if !strings.Contains(rel, want) || (want == "icon" && rel != "icon" && rel != "shortcut icon") {
				continue
			}
			if size := iconSize(ic); size > bestSize && page.abs(ic.Href) != "" {
				best, bestSize = page.abs(ic.Href), size
			}
		}
		if best != "" {
			return want, best
		}
	}
	return "", ""
}

// iconSize is an icon's largest declared width; an SVG or "any" counts as
// 10,000, an icon without sizes as 0.
func iconSize(ic structured.Link) int {
	if strings.Contains(strings.ToLower(ic.Type), "svg") || strings.HasSuffix(strings.ToLower(ic.Href), ".svg") {
		return 10_000
	}
	best := 0
	for s := range strings.FieldsSeq(strings.ToLower(ic.Sizes)) {
		if s == "any" {
			return 10_000
		}
		w, _, _ := strings.Cut(s, "x")
		if n, err := strconv.Atoi(w); err == nil && n > best {
			best = n
		}
	}
	return best
}

var (
	// titleSeparators split a title into its parts: "About | Acme".
	titleSeparators = regexp.MustCompile(`\s+(?:[|·•»«:/–—-]|::)\s+|:\s+`)
	// genericTitles are title parts that name no one.
	genericTitles = map[string]bool{"home": true, "homepage": true, "home page": true, "welcome": true, "official site": true,
		"official website": true, "startseite": true, "accueil": true, "inicio": true, "about": true, "about us": true,
		"contact": true, "contact us": true, "index": true}
)

// cleanTitle guesses the company's name from a page title: the words
// that spell the site's domain, else, generic parts ("Home", "About us")
// dropped, the shorter of the first and last parts on a home page and
// the last part on another page ("News | Example Ltd").
func cleanTitle(title, site string, home bool) string {
	if len(title) > 300 {
		title = strings.ToValidUTF8(title[:300], "")
	}
	var parts []string
	for _, part := range titleSeparators.Split(strings.TrimSpace(title), -1) {
		part = strings.TrimSpace(strings.TrimPrefix(part, "Welcome to "))
		if part != "" && !genericTitles[strings.ToLower(part)] {
			parts = append(parts, part)
		}
	}
	if len(parts) == 0 {
		return ""
	}
	if name := domainName(parts, siteLabel(site)); name != "" {
		return name
	}
	first, last := parts[0], parts[len(parts)-1]
	if !home || len(last) < len(first) {
		return last
	}
	return first
}

// domainName is the run of words in the title parts that spells the
// site's name ("Postman" in "Postman API Platform" for postman.com).
func domainName(parts []string, label string) string {
	if label == "" {
		return ""
	}
	for _, part := range parts {
		words := strings.Fields(part)
		for i := range words {
			for j := i + 1; j <= len(words) && j-i <= 6; j++ {
				if letters(strings.Join(words[i:j], "")) == label {
					return strings.Trim(strings.Join(words[i:j], " "), ".,;:!?")
				}
			}
		}
	}
	return ""
}

// siteLabel is the letters and digits of a host's registrable name:
// "acmewidgets" for www.acme-widgets.co.uk.
func siteLabel(host string) string {
	if host == "" {
		return ""
	}
	domain, err := publicsuffix.EffectiveTLDPlusOne(host)
	if err != nil {
		return ""
	}
	suffix, _ := publicsuffix.PublicSuffix(domain)
	return letters(strings.TrimSuffix(domain, "."+suffix))
}

// letters is s in lower case with only its letters and digits.
func letters(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127 {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// judge sets the confidence and the notes that explain it.
func (p *Report) judge(org orgFound, page *pageView) {
	switch {
	case org.found && !org.elsewhere && p.Sources["name"] != "title":
		p.Confidence = "high"
	case org.found:
		p.Confidence = "medium"
	case p.Name != "" && (p.Sources["name"] != "title" || letters(p.Name) == siteLabel(page.site)) &&
		(len(p.SocialProfiles) > 0 || len(p.Emails) > 0 || len(p.Phones) > 0):
		p.Confidence = "medium"
	default:
		p.Confidence = "low"
	}
	if org.elsewhere {
		p.note("the organization data's url (%s) is on another site than the page: it may describe another company", p.URL)
	}
	if !org.found {
		p.note("the page has no organization data (JSON-LD, microdata or RDFa): the name comes from %s", cmpOr(p.Sources["name"], "nowhere"))
	}
	if !page.home() && p.Confidence != "high" {
		p.note("the page is not the site's home page: a home page or about page usually says more about the company")
	}
}
