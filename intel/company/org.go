package company

import (
	"cmp"
	"slices"
	"strings"

	"github.com/webinfra/webinfra/extract/structured"
)

// candidate is one organization found in the structured data.
type candidate struct {
	node   map[string]any
	source string // json-ld, microdata, rdfa
	key    string // the property it sits under ("publisher"), "" at the top
	order  int    // page order, to break ties
	score  int
}

// Where an organization sits says whose it is: under these properties it
// is another company than the site's (a product's brand or maker, an
// author, a member).
var foreignKeys = map[string]bool{
	"brand": true, "manufacturer": true, "author": true, "creator": true, "sponsor": true, "funder": true,
	"alumniOf": true, "worksFor": true, "memberOf": true, "affiliation": true, "parentOrganization": true,
	"subOrganization": true, "department": true, "member": true, "members": true, "competitor": true,
	"seller": true, "offeredBy": true, "provider": true, "itemReviewed": true, "about": true, "mentions": true,
}

// maxCandidates and maxNodeDepth bound the search.
const (
	maxCandidates = 50
	maxNodeDepth  = 8
)

// orgFound is what the organization search gave, for the confidence.
type orgFound struct {
	found      bool
	onSite     bool // its url is on the page's site
	elsewhere  bool // its url is on another site
	candidates int  // distinct organizations seen
}

// fromOrganization fills the profile from the best organization in the
// JSON-LD, microdata and RDFa.
func (p *Report) fromOrganization(sd *structured.Result, page *pageView) orgFound {
	if sd == nil {
		return orgFound{}
	}
	var cands []candidate
	if sd.JSONLD != nil {
		for _, item := range sd.JSONLD.Items {
			collect(item, "", 0, "json-ld", &cands)
		}
	}
	for _, section := range []struct {
		items  []*structured.Item
		source string
	}{{sd.Microdata, "microdata"}, {sd.RDFa, "rdfa"}} {
		for _, it := range section.items {
			collect(itemNode(it, 0), "", 0, section.source, &cands)
		}
	}
	cands = slices.DeleteFunc(mergeByID(cands), func(c candidate) bool {
		// a product's brand, an article's author: another company than the site's
		return foreignKeys[c.key] && !page.onSite(page.abs(text(c.node["url"])))
	})
	if len(cands) == 0 {
		return orgFound{}
	}
	refs := map[string]bool{}
	if sd.JSONLD != nil {
		for _, item := range sd.JSONLD.Items {
			siteRefs(item, 0, refs)
		}
	}
	perType := map[string]int{}
	for _, c := range cands {
		perType[strings.Join(types(c.node), " ")]++
	}
	for i := range cands {
		cands[i].score = scoreOf(&cands[i], page, perType[strings.Join(types(cands[i].node), " ")], refs)
	}
	best := slices.MaxFunc(cands, func(a, b candidate) int { return cmp.Or(a.score-b.score, b.order-a.order) })
	p.readOrganization(best.node, best.source, page)
	found := orgFound{found: true, candidates: len(cands)}
	if u := p.URL; u != "" {
		found.onSite, found.elsewhere = page.onSite(u), !page.onSite(u) && page.site != ""
	}
	if len(cands) > 1 {
		p.note("the structured data describes %d organizations; the one most likely the site's was used (%s)", len(cands), describe(best))
	}
	return found
}

func describe(c candidate) string {
	name := text(c.node["name"])
	if c.key != "" {
		return name + ", the " + c.key + " of an item"
	}
	return name
}

// collect appends the organizations in v (a JSON-LD value), nested ones
// included, in page order.
func collect(v any, key string, depth int, source string, out *[]candidate) {
	if depth > maxNodeDepth || len(*out) >= maxCandidates {
		return
	}
	switch v := v.(type) {
	case []any:
		for _, e := range v {
			collect(e, key, depth+1, source, out)
		}
	case map[string]any:
		if isOrganization(types(v)) {
			*out = append(*out, candidate{node: v, source: source, key: key, order: len(*out)})
		}
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if !strings.HasPrefix(k, "@") {
				collect(v[k], k, depth+1, source, out)
			}
		}
	}
}

// mergeByID merges the candidates that share an @id (one organization
// described in several places), keeping the first one's values.
func mergeByID(cands []candidate) []candidate {
	var out []candidate
	byID := map[string]int{}
	for _, c := range cands {
		id := text(c.node["@id"])
		i, seen := byID[id]
		if id == "" || !seen {
			if id != "" {
				byID[id] = len(out)
			}
			out = append(out, c)
			continue
		}
		merged := map[string]any{}
		for k, v := range c.node {
			merged[k] = v
		}
		for k, v := range out[i].node {
			merged[k] = v
		}
		out[i].node = merged
		if out[i].key != "" && c.key == "" {
			out[i].key = ""
		}
	}
	return out
}

// Under these properties an organization is the site's own: a page's
// publisher, its copyright holder.
var siteKeys = map[string]bool{"publisher": true, "copyrightHolder": true, "sourceOrganization": true}

// scoreOf rates how likely a candidate is the site's own organization
// and how much it says. sameType is how many candidates share its type:
// a page listing several companies (reviews, a directory) is about them.
func scoreOf(c *candidate, page *pageView, sameType int, refs map[string]bool) int {
	score := 0
	for _, k := range []string{"name", "logo", "url", "sameAs", "address", "telephone", "email", "description", "legalName", "foundingDate"} {
		if c.node[k] != nil {
			score++
		}
	}
	switch u := page.abs(text(c.node["url"])); {
	case u == "":
	case page.isHome(u):
		score += 6
	case page.onSite(u):
		score += 2
	case page.site != "":
		score -= 3
	}
	if id := strings.ToLower(text(c.node["@id"])); strings.Contains(id, "#organization") || strings.HasSuffix(id, "#org") {
		score += 2
	}
	if siteKeys[c.key] || refs[text(c.node["@id"])] {
		score += 3
	}
	if c.key == "" {
		score++
	}
	if c.source == "json-ld" {
		score++
	}
	if sameType >= 3 {
		score -= 3
	}
	return score
}

// siteRefs gathers the @ids that publisher, copyrightHolder and
// sourceOrganization properties point to ({"@id": ...}).
func siteRefs(v any, depth int, refs map[string]bool) {
	if depth > maxNodeDepth {
		return
	}
	switch v := v.(type) {
	case []any:
		for _, e := range v {
			siteRefs(e, depth+1, refs)
		}
	case map[string]any:
		for k, e := range v {
			if m, ok := first(e).(map[string]any); ok && siteKeys[k] && text(m["@id"]) != "" {
				refs[text(m["@id"])] = true
			}
			siteRefs(e, depth+1, refs)
		}
	}
}

// itemNode turns a microdata or RDFa item into a JSON-LD-like node: its
// types, one value per property (a list when there are several), nested
// items as nodes.
func itemNode(it *structured.Item, depth int) map[string]any {
	node := map[string]any{}
	if it == nil || depth > maxNodeDepth {
		return node
	}
	var typeList []any
	for _, t := range it.Type {
		typeList = append(typeList, t)
	}
	node["@type"] = typeList
	if it.ID != "" {
		node["@id"] = it.ID
	}
	for name, values := range it.Properties {
		var list []any
		for _, v := range values {
			if nested, ok := v.(*structured.Item); ok {
				list = append(list, itemNode(nested, depth+1))
			} else {
				list = append(list, v)
			}
		}
		key := shortName(name)
		if len(list) == 1 {
			node[key] = list[0]
		} else {
			node[key] = list
		}
	}
	return node
}

// readOrganization fills the profile from an organization node.
func (p *Report) readOrganization(n map[string]any, source string, page *pageView) {
	p.set(&p.Type, "type", mostSpecific(types(n)), source)
	p.set(&p.Name, "name", text(n["name"]), source)
	p.set(&p.LegalName, "legal_name", text(n["legalName"]), source)
	p.AlternateNames = capped(texts(n["alternateName"]), maxListed)
	p.set(&p.Description, "description", text(n["description"]), source)
	p.set(&p.URL, "url", page.abs(text(n["url"])), source)
	p.set(&p.Logo, "logo", page.abs(imageURL(n["logo"])), source)
	p.set(&p.Logo, "logo", page.abs(imageURL(n["image"])), source)
	p.set(&p.FoundingDate, "founding_date", text(n["foundingDate"]), source)
	for _, key := range []string{"founder", "founders"} {
		for _, name := range names(n[key]) {
			if len(p.Founders) < maxListed && !slices.Contains(p.Founders, name) {
				p.Founders = append(p.Founders, name)
			}
		}
	}
	p.set(&p.Employees, "employees", employees(n["numberOfEmployees"]), source)
	for field, list := range map[string]int{"alternate_names": len(p.AlternateNames), "founders": len(p.Founders)} {
		if list > 0 {
			p.Sources[field] = source
		}
	}
	if a := address(n["address"]); a != nil {
		p.Address, p.Sources["address"] = a, source
	}
	p.set(&p.Telephone, "telephone", text(n["telephone"]), source)
	p.set(&p.Email, "email", strings.TrimPrefix(text(n["email"]), "mailto:"), source)
	if p.ContactPoints = contactPoints(n["contactPoint"]); len(p.ContactPoints) > 0 {
		p.Sources["contact_points"] = source
	}
	for _, s := range texts(n["sameAs"]) {
		if u := page.abs(s); u != "" && len(p.SameAs) < maxSameAs && !slices.Contains(p.SameAs, u) {
			p.SameAs = append(p.SameAs, u)
		}
	}
	if len(p.SameAs) > 0 {
		p.Sources["same_as"] = source
		p.addURLProfiles(p.SameAs, "json-ld")
	}
}

// mostSpecific is the first type other than plain Organization
// (["Organization", "Bakery"] is a Bakery), else the first.
func mostSpecific(ts []string) string {
	for _, t := range ts {
		if t != "Organization" && isOrganization([]string{t}) {
			return t
		}
	}
	if len(ts) > 0 {
		return ts[0]
	}
	return ""
}

func address(v any) *Address {
	switch v := first(v).(type) {
	case string:
		if s := strings.TrimSpace(v); s != "" {
			return &Address{Text: s}
		}
	case map[string]any:
		a := &Address{Street: text(v["streetAddress"]), Locality: text(v["addressLocality"]), Region: text(v["addressRegion"]),
			PostalCode: text(v["postalCode"]), Country: strings.Join(capped(names(v["addressCountry"]), 1), "")}
		if *a != (Address{}) {
			return a
		}
	}
	return nil
}

func employees(v any) string {
	if m, ok := first(v).(map[string]any); ok {
		if s := text(m["value"]); s != "" {
			return s
		}
		lo, hi := text(m["minValue"]), text(m["maxValue"])
		switch {
		case lo != "" && hi != "":
			return lo + "-" + hi
		case lo != "":
			return lo + "+"
		}
		return hi
	}
	return text(v)
}

func contactPoints(v any) []ContactPoint {
	var out []ContactPoint
	list, ok := v.([]any)
	if !ok {
		list = []any{v}
	}
	for _, e := range list {
		m, ok := e.(map[string]any)
		if !ok || len(out) >= maxListed {
			continue
		}
		cp := ContactPoint{Type: text(m["contactType"]), Telephone: text(m["telephone"]),
			Email: strings.TrimPrefix(text(m["email"]), "mailto:"), Areas: capped(names(m["areaServed"]), maxListed),
			Languages: capped(names(m["availableLanguage"]), maxListed)}
		if cp.Telephone != "" || cp.Email != "" {
			out = append(out, cp)
		}
	}
	return out
}
