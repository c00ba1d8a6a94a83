package pageinfo

import (
	"net/http"
	"slices"
	"strings"
)

// Technology is a piece of software a page runs on or loads.
type Technology struct {
	Name     string   `json:"name" example:"WordPress"`
	Category string   `json:"category" enum:"cms,ecommerce,framework,library,analytics,marketing,cdn,hosting,server,language" example:"cms"`
	Version  string   `json:"version,omitempty" example:"6.4.2" doc:"The version, when a signal shows it."`
	Evidence []string `json:"evidence" doc:"What gave it away, one entry per signal: the header, cookie, meta tag, script or stylesheet URL, inline code or markup; or the technology that implies it."`
}

// facts are what the rules are tested against.
type facts struct {
	header http.Header
	scan   *scan // nil when the page could not be parsed
}

// ruleRef names one rule of the table: technologies[tech].rules[rule].
type ruleRef struct{ tech, rule int }

// hit is a rule that matched: what it saw and the version it read.
type hit struct{ evidence, version string }

// Evidence strings quote at most this much of what they saw.
const maxQuote = 160

// domRules are the rules tested while walking the document.
var domRules = func() []ruleRef {
	var out []ruleRef
	for t, tech := range technologies {
		for r, ru := range tech.rules {
			switch ru.where {
			case inAttr, inAttrName, inTag, inID, inClass:
				out = append(out, ruleRef{t, r})
			}
		}
	}
	return out
}()

// detect tests every rule and returns the technologies found, implied
// ones added, sorted by category then name.
func detect(f *facts) []Technology {
	found := map[string]*Technology{}
	var order []string
	for t, tech := range technologies {
		for r, ru := range tech.rules {
			h, ok := f.test(ruleRef{t, r}, ru)
			if !ok {
				continue
			}
			tc := found[tech.name]
			if tc == nil {
				tc = &Technology{Name: tech.name, Category: tech.category}
				found[tech.name] = tc
				order = append(order, tech.name)
			}
			tc.Evidence = append(tc.Evidence, h.evidence)
			if tc.Version == "" {
				tc.Version = h.version
			}
		}
	}
	for i := 0; i < len(order); i++ { // order grows as implied technologies are added
		for _, name := range byName(order[i]).implies {
			if found[name] == nil {
				found[name] = &Technology{Name: name, Category: byName(name).category}
				order = append(order, name)
			}
			found[name].Evidence = append(found[name].Evidence, "implied by "+order[i])
		}
	}
	out := make([]Technology, 0, len(found))
	for _, name := range order {
		out = append(out, *found[name])
	}
	slices.SortStableFunc(out, func(a, b Technology) int {
		if c := slices.Index(categoryOrder, a.Category) - slices.Index(categoryOrder, b.Category); c != 0 {
			return c
		}
		return strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name))
	})
	return out
}

// byName is the table's entry for a technology an implies list names.
func byName(name string) *techRule {
	for i := range technologies {
		if technologies[i].name == name {
			return &technologies[i]
		}
	}
	panic("pageinfo: technology " + name + " is implied but not in the table")
}

// test tests one rule against the facts.
func (f *facts) test(ref ruleRef, ru rule) (hit, bool) {
	s := f.scan
	switch ru.where {
	case inHeader:
		for _, v := range f.header.Values(ru.key) {
			if v = strings.TrimSpace(v); matches(ru, v) {
				return hit{"header " + http.CanonicalHeaderKey(ru.key) + ": " + quote(v), version(ru, v)}, true
			}
		}
	case inCookie:
		for _, name := range cookieNames(f.header) {
			if ru.pattern.MatchString(name) {
				return hit{evidence: "cookie " + quote(name)}, true
			}
		}
	case inMeta:
		if s != nil {
			for _, v := range s.metas[ru.key] {
				if matches(ru, v) {
					return hit{"meta " + ru.key + ": " + quote(v), version(ru, v)}, true
				}
			}
		}
	case inScript:
		return firstMatch(ru, s.list(func(s *scan) []string { return s.scriptSrcs }), "script ")
	case inStylesheet:
		return firstMatch(ru, s.list(func(s *scan) []string { return s.stylesheetHrefs }), "stylesheet ")
	case inIframe:
		return firstMatch(ru, s.list(func(s *scan) []string { return s.iframeSrcs }), "iframe ")
	case inInline:
		for _, text := range s.list(func(s *scan) []string { return s.inline }) {
			if m := ru.pattern.FindStringSubmatch(text); m != nil {
				return hit{"inline code: " + quote(m[0]), firstGroup(m)}, true
			}
		}
	default: // markup, matched during the walk
		if s != nil {
			h, ok := s.dom[ref]
			return h, ok
		}
	}
	return hit{}, false
}

// list is one of the scan's lists, nil without a scan.
func (s *scan) list(of func(*scan) []string) []string {
	if s == nil {
		return nil
	}
	return of(s)
}

func firstMatch(ru rule, values []string, label string) (hit, bool) {
	for _, v := range values {
		if m := ru.pattern.FindStringSubmatch(v); m != nil {
			return hit{label + quote(v), firstGroup(m)}, true
		}
	}
	return hit{}, false
}

// matches tests a value against a rule whose nil pattern means "present".
func matches(ru rule, v string) bool { return ru.pattern == nil || ru.pattern.MatchString(v) }

// version is the first group the rule's pattern captured in v.
func version(ru rule, v string) string {
	if ru.pattern == nil {
		return ""
	}
	return firstGroup(ru.pattern.FindStringSubmatch(v))
}

func firstGroup(m []string) string {
	for _, g := range m[min(1, len(m)):] {
		if g != "" {
			return g
		}
	}
	return ""
}

// cookieNames are the names of the response's Set-Cookie headers.
func cookieNames(h http.Header) []string {
	var out []string
	for _, c := range h.Values("Set-Cookie") {
		name, _, _ := strings.Cut(c, "=")
		if name = strings.TrimSpace(name); name != "" {
			out = append(out, name)
		}
	}
	return out
}

// quote is s cut to maxQuote bytes (not through a character).
func quote(s string) string {
	if len(s) <= maxQuote {
		return s
	}
	return string(cutUTF8([]byte(s), maxQuote)) + "…"
}
