package htmlaudit

import (
	"fmt"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/text/language"

	"github.com/webinfra/webinfra/internal/htmltag"
	"github.com/webinfra/webinfra/seo/htmlaudit/auditkit"
)

// hreflangField grades the page's <link rel=alternate hreflang> set; see
// Meta for the deductions.
func (p *page) hreflangField() MetaField {
	type alternate struct {
		code, href string
		node       *html.Node
	}
	var alts []alternate
	for _, l := range p.linksWithRel("alternate") {
		if code, ok := htmltag.LookupAttr(l.Attr, "hreflang"); ok {
			alts = append(alts, alternate{strings.TrimSpace(code), strings.TrimSpace(htmltag.Attr(l, "href")), l})
		}
	}
	if len(alts) == 0 {
		f := newField("link", "hreflang", false, "", 0, "no hreflang annotations: only needed when the page has language or regional versions")
		f.Applicable = false
		return f
	}
	codes := make([]string, len(alts))
	for i, a := range alts {
		codes[i] = a.code
	}
	f := newField("link", "hreflang", true, strings.Join(codes, ", "), 100,
		fmt.Sprintf("%d hreflang annotations, consistent", len(alts)))
	var invalid []string
	var firstInvalid, relative, duplicate *html.Node // the first offending link of each kind
	self, xDefault := false, false
	urlOf := map[string]string{} // lower-case code → resolved URL
	for _, a := range alts {
		u := p.resolve(a.href)
		abs := ""
		if u != nil {
			abs = u.String()
		}
		if len(f.Values) < 50 {
			f.Values = append(f.Values, a.code+"="+abs)
		}
		if raw := parseRef(a.href); (raw == nil || !raw.IsAbs()) && relative == nil {
			relative = a.node
		}
		if u != nil && p.url != nil && u.IsAbs() && sameURL(u, p.url) {
			self = true
		}
		code := strings.ToLower(a.code)
		if code == "x-default" {
			xDefault = true
		} else if !validHreflang(a.code) {
			invalid = append(invalid, a.code)
			if firstInvalid == nil {
				firstInvalid = a.node
			}
		}
		if prev, ok := urlOf[code]; ok && prev != abs && duplicate == nil {
			duplicate = a.node
		}
		urlOf[code] = abs
	}
	if len(invalid) > 0 {
		f.issueAt(firstInvalid, "invalid_hreflang", auditkit.Error, "invalid hreflang codes: "+strings.Join(clipAll(invalid), ", ")+
			" (use language[-Script][-REGION] with ISO 639-1 and ISO 3166-1 codes, hyphenated, or x-default)", min(25*len(invalid), 50))
	}
	if relative != nil {
		f.issueAt(relative, "relative_hreflang", auditkit.Warning, "hreflang URLs must be absolute", 15)
	}
	if p.url != nil && !self {
		f.issue("missing_self_hreflang", auditkit.Warning, "no hreflang annotation for this page's own URL", 20)
	}
	if !xDefault {
		f.issue("missing_x_default", auditkit.Notice, "no x-default annotation for visitors whose language is not listed", 10)
	}
	if duplicate != nil {
		f.issueAt(duplicate, "duplicate_hreflang", auditkit.Warning,
			"hreflang "+htmltag.Attr(duplicate, "hreflang")+" points at different URLs", 15)
	}
	if len(f.Issues) > 0 {
		f.Reason = fmt.Sprintf("%d hreflang annotations", len(alts))
	}
	return f
}

// validHreflang reports whether code is a language tag Google accepts in
// hreflang: well-formed with hyphens, a known language, and a region (if
// any) that is an assigned ISO 3166-1 code as written (en-UK is not; en-GB
// is).
func validHreflang(code string) bool {
	if strings.Contains(code, "_") {
		return false
	}
	tag, err := language.Parse(code)
	if err != nil {
		return false
	}
	parts := strings.Split(code, "-")
	for _, part := range parts[1:] {
		if len(part) != 2 {
			continue
		}
		region, conf := tag.Region()
		if conf != language.Exact || !strings.EqualFold(region.String(), part) || region.IsPrivateUse() {
			return false
		}
	}
	return true
}
