package company

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"golang.org/x/net/html"

	"github.com/webinfra/webinfra/extract/contacts"
	"github.com/webinfra/webinfra/extract/structured"
	"github.com/webinfra/webinfra/intel/pageinfo"
	"github.com/webinfra/webinfra/internal/htmltag"
)

// Input names the page to profile. The same struct is the JSON body of
// POST /v1/enrich/company: the server fetches the URL with its
// SSRF-guarded fetcher and hands the answer to Profile as a
// pageinfo.Page.
type Input struct {
	URL string `json:"url" minLength:"1" maxLength:"8192" example:"https://example.com/" doc:"The company's home page or about page (http or https)."`
}

// Lists are capped: a hostile page cannot grow the profile without bound.
const (
	maxListed   = 20 // e-mails, phones, founders, contact points, alternate names
	maxSameAs   = 50
	maxProfiles = 30
)

// Report is a company profile: the company as one of its pages describes it.
type Report struct {
	PageURL        string            `json:"page_url" doc:"The page read."`
	Name           string            `json:"name,omitempty" example:"Example Ltd"`
	LegalName      string            `json:"legal_name,omitempty"`
	AlternateNames []string          `json:"alternate_names,omitempty"`
	Type           string            `json:"type,omitempty" example:"Corporation" doc:"The schema.org @type of the organization data (Organization, Corporation, LocalBusiness, Restaurant, ...)."`
	Description    string            `json:"description,omitempty"`
	URL            string            `json:"url,omitempty" doc:"The company's web site: the organization data's url, else the page's origin."`
	Logo           string            `json:"logo,omitempty" doc:"Absolute URL: the organization data's logo, else the apple-touch-icon, else the page's icon, else og:image."`
	FoundingDate   string            `json:"founding_date,omitempty" example:"2009-04-01"`
	Founders       []string          `json:"founders,omitempty"`
	Employees      string            `json:"employees,omitempty" example:"51-200" doc:"numberOfEmployees: a number, or a range min-max."`
	Address        *Address          `json:"address,omitempty"`
	Telephone      string            `json:"telephone,omitempty" doc:"The organization data's telephone; on a home, contact or about page, else the first tel: link (else valid number) in the page."`
	Email          string            `json:"email,omitempty" doc:"The organization data's email; on a home, contact or about page, else the first address in the page, one on the site's domain first."`
	ContactPoints  []ContactPoint    `json:"contact_points,omitempty"`
	SameAs         []string          `json:"same_as,omitempty" doc:"The organization data's sameAs URLs."`
	SocialProfiles []SocialProfile   `json:"social_profiles" doc:"Social-network profiles, one per network and handle, best source first: JSON-LD sameAs, twitter:site, OpenGraph, then links in the page."`
	Emails         []contacts.Email  `json:"emails" doc:"E-mail addresses in the page (extract/contacts), those on the site's domain first."`
	Phones         []contacts.Phone  `json:"phones" doc:"Phone numbers in the page (extract/contacts)."`
	ContactPages   []ContactPage     `json:"contact_pages" doc:"Links to the site's contact, about, imprint and careers pages."`
	Sources        map[string]string `json:"sources" doc:"For each field filled, the signal it came from: json-ld, microdata, rdfa, og:site_name, title, meta description, og:description, apple-touch-icon, icon, og:image, page, tel: link, mailto: link, text."`
	Confidence     string            `json:"confidence" enum:"high,medium,low" doc:"high: organization data about this site; medium: organization data of uncertain scope, or OpenGraph site data with contacts; low: guessed from the title."`
	Notes          []string          `json:"notes,omitempty" doc:"What lowers the confidence, and what limited the reading."`

	twitterCreator string // the page author's X handle, left out of the profiles
}

// Address is a postal address.
type Address struct {
	Street     string `json:"street,omitempty"`
	Locality   string `json:"locality,omitempty" example:"London"`
	Region     string `json:"region,omitempty"`
	PostalCode string `json:"postal_code,omitempty"`
	Country    string `json:"country,omitempty" example:"GB"`
	Text       string `json:"text,omitempty" doc:"The address as one string, when the data gives no parts."`
}

// ContactPoint is one schema.org contactPoint.
type ContactPoint struct {
	Type      string   `json:"type,omitempty" example:"customer service"`
	Telephone string   `json:"telephone,omitempty"`
	Email     string   `json:"email,omitempty"`
	Areas     []string `json:"areas,omitempty"`
	Languages []string `json:"languages,omitempty"`
}

// SocialProfile is one social-network profile of the company.
type SocialProfile struct {
	Network string `json:"network" example:"linkedin"`
	URL     string `json:"url" example:"https://www.linkedin.com/company/example"`
	Handle  string `json:"handle,omitempty" example:"example"`
	Source  string `json:"source" enum:"json-ld,twitter:site,og,anchor" doc:"Where it was found: the organization data's sameAs, the twitter:site tag, an OpenGraph tag (article:publisher), or a link in the page."`
}

// ContactPage is a link to one of the site's company pages.
type ContactPage struct {
	Kind string `json:"kind" enum:"contact,about,imprint,careers"`
	URL  string `json:"url"`
	Text string `json:"text,omitempty" doc:"The link's text."`
}

// Profile reads a company profile from one fetched page, best a home page
// or about page: the organization's JSON-LD (else microdata or RDFa),
// OpenGraph and Twitter tags, icons, the page's e-mail addresses, phone
// numbers and social links (extract/contacts) and links to its contact,
// about, imprint and careers pages. It fetches nothing and never fails:
// what the page lacks is left out, and Notes and Confidence say how much
// to trust the rest.
func Profile(in pageinfo.Page) *Report {
	p := &Report{PageURL: in.URL, SocialProfiles: []SocialProfile{}, Emails: []contacts.Email{}, Phones: []contacts.Phone{},
		ContactPages: []ContactPage{}, Sources: map[string]string{}}
	page := newPageView(in)
	if in.Status >= 400 {
		p.note("the page answered HTTP %d: it may not describe the company", in.Status)
	}
	if page.cut {
		p.note("the page is larger than %d MiB; only its start was read", pageinfo.DefaultMaxHTMLBytes>>20)
	}
	var sd *structured.Result
	var doc *html.Node
	if page.html != "" {
		var err error
		if doc, err = htmltag.Parse(page.html, "html"); err != nil {
			p.note("the HTML parser refused the page (elements nested more than 512 deep)")
			doc = nil
		} else {
			sd = structured.FromNode(doc, page.base, nil)
		}
	}
	org := p.fromOrganization(sd, page)
	p.fromTags(sd, page)
	p.fromContacts(page)
	if doc != nil {
		p.ContactPages = contactPages(doc, page)
	}
	p.fallbacks(sd, page)
	p.judge(org, page)
	return p
}

// pageView is the page as the profile reads it.
type pageView struct {
	html string
	base *url.URL // the page's URL (nil when it is not an absolute http(s) URL)
	site string   // the page's host without "www."
	cut  bool     // the HTML was over the cap
}

func newPageView(in pageinfo.Page) *pageView {
	v := &pageView{html: string(in.HTML)}
	if len(v.html) > pageinfo.DefaultMaxHTMLBytes {
		v.html, v.cut = strings.ToValidUTF8(v.html[:pageinfo.DefaultMaxHTMLBytes], ""), true
	}
	if u, err := url.Parse(strings.TrimSpace(in.URL)); err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" {
		v.base = u
		v.site = strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.")
	}
	return v
}

// home reports whether the page is its site's home page (or its URL is
// unknown).
func (v *pageView) home() bool { return v.base == nil || strings.Trim(v.base.Path, "/") == "" }

// isHome reports whether a URL is the home page of the page's site: its
// root, or a language root such as /en/ or /en-gb/.
func (v *pageView) isHome(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil || !v.onSite(raw) {
		return false
	}
	p := strings.Trim(u.Path, "/")
	return p == "" || len(p) == 2 || (len(p) == 5 && p[2] == '-')
}

// abs makes a URL from the page absolute; "" when it is not http(s).
func (v *pageView) abs(raw string) string {
	u, err := url.Parse(htmltag.ResolveURL(v.base, raw))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return ""
	}
	return u.String()
}

// onSite reports whether a URL is on the page's site (www. ignored).
func (v *pageView) onSite(raw string) bool {
	u, err := url.Parse(raw)
	return err == nil && v.site != "" && strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.") == v.site
}

// set fills a field from a source when it is still empty.
func (p *Report) set(field *string, name, value, source string) {
	if *field == "" && strings.TrimSpace(value) != "" {
		*field = strings.TrimSpace(value)
		p.Sources[name] = source
	}
}

func (p *Report) note(format string, args ...any) {
	p.Notes = append(p.Notes, fmt.Sprintf(format, args...))
}

// fromContacts reads the page's e-mail addresses, phone numbers and
// social links with extract/contacts.
func (p *Report) fromContacts(page *pageView) {
	src := page.html
	if len(src) > contacts.DefaultMaxInputBytes {
		// Contact details sit in headers and footers: keep both ends.
		half := contacts.DefaultMaxInputBytes / 2
		src = strings.ToValidUTF8(src[:half]+src[len(src)-half:], "")
	}
	if strings.TrimSpace(src) == "" {
		return
	}
	in := contacts.Input{HTML: src}
	if page.base != nil {
		in.BaseURL = page.base.String()
	}
	res, err := contacts.Extract(context.Background(), in, &contacts.Options{MaxItems: maxListed * 5})
	if err != nil {
		return // a base URL over contacts' length cap: keep what the other signals gave
	}
	emails := slices.Clone(res.Emails)
	slices.SortStableFunc(emails, func(a, b contacts.Email) int { return boolOrder(page.ownsEmail(a.Address), page.ownsEmail(b.Address)) })
	p.Emails = capped(emails, maxListed)
	p.Phones = capped(res.Phones, maxListed)
	p.addAnchorProfiles(res.Social)
}

// ownsEmail reports whether an address is on the page's site (its domain
// or a subdomain).
func (v *pageView) ownsEmail(address string) bool {
	_, domain, _ := strings.Cut(address, "@")
	domain = strings.TrimPrefix(domain, "www.")
	return v.site != "" && (domain == v.site || strings.HasSuffix(v.site, "."+domain) || strings.HasSuffix(domain, "."+v.site))
}

// boolOrder sorts true first.
func boolOrder(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return -1
	}
	return 1
}

func capped[T any](list []T, n int) []T {
	if len(list) > n {
		return list[:n]
	}
	if list == nil {
		return []T{}
	}
	return list
}
