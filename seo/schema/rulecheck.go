package schema

import (
	"fmt"
	"strconv"
	"strings"
)

// specs holds every property spec of the table split into its
// alternatives and their path segments ("a|b.c" → [[a] [b c]]), built
// once at init and only read afterwards.
var specs = map[string][][]string{}

func init() {
	for i := range rules {
		r := &rules[i]
		for _, list := range [][]string{r.required, r.rootRequired, r.recommended, sortedKeys(r.values)} {
			for _, s := range list {
				var alts [][]string
				for alt := range strings.SplitSeq(s, "|") {
					alts = append(alts, strings.Split(alt, "."))
				}
				specs[s] = alts
			}
		}
	}
}

// leaf is what a property path reaches in one object: a value, or the
// point where the path broke (v nil). short marks a plain value found
// where the path wanted an object (author: "Ann" for author.name): a name
// counts as present, though its value is not checked; a URL does not (a
// breadcrumb's item "https://..." has no name).
type leaf struct {
	path  string
	v     any
	short bool
	rest  []string // when missing: the segments after the one missing
}

// follow walks the path segs from obj (at path base), through lists and
// @id references, and appends what it reaches to out.
func (c *checker) follow(obj map[string]any, base string, segs []string, out []leaf) []leaf {
	p := base + "." + segs[0]
	v, ok := obj[segs[0]]
	if !ok || !present(v) || !c.step() {
		return append(out, leaf{path: p, rest: segs[1:]})
	}
	if len(segs) == 1 {
		return append(out, leaf{path: p, v: v})
	}
	switch v := v.(type) {
	case map[string]any:
		return c.follow(c.resolve(v), p, segs[1:], out)
	case []any:
		for i, e := range v {
			ep := p + "[" + strconv.Itoa(i) + "]"
			if m, ok := e.(map[string]any); ok {
				out = c.follow(c.resolve(m), ep, segs[1:], out)
			} else if present(e) {
				out = append(out, shortLeaf(ep, e, segs[1:]))
			}
		}
		return out
	}
	return append(out, shortLeaf(p, v, segs[1:]))
}

// shortLeaf is what a plain value stands for where an object was
// expected: a name is taken as present, a URL (or anything with a slash)
// leaves the rest of the path missing.
func shortLeaf(path string, v any, rest []string) leaf {
	if s, ok := v.(string); ok && strings.Contains(s, "/") {
		return leaf{path: path + "." + rest[0], rest: rest[1:]}
	}
	return leaf{path: path, v: v, short: true}
}

// missingPath is where a missing property should be.
func (l leaf) missingPath() string {
	if len(l.rest) == 0 {
		return l.path
	}
	return l.path + "." + strings.Join(l.rest, ".")
}

// present reports whether a JSON-LD value holds something: not null, not
// blank, not an empty list or object.
func present(v any) bool {
	switch v := v.(type) {
	case nil:
		return false
	case string:
		return strings.TrimSpace(v) != ""
	case []any:
		for _, e := range v {
			if present(e) {
				return true
			}
		}
		return false
	case map[string]any:
		for k := range v {
			if k != "@type" && k != "@context" {
				return true
			}
		}
		return false
	}
	return true
}

// check validates obj (at path) against rule r: its required,
// root-required and recommended properties, its values, rating range and
// breadcrumb items, then its nested objects with their rules. lenient
// turns errors into warnings (objects under a recommended property).
func (c *checker) check(obj map[string]any, path string, r *rule, root, lenient bool, depth int) {
	if depth > maxNesting {
		c.rep.Truncated = true
		return
	}
	severity := Error
	if lenient {
		severity = Warning
	}
	required := r.required
	if root {
		required = append(required[:len(required):len(required)], r.rootRequired...)
	}
	for _, s := range required {
		c.require(obj, path, r, s, severity, "missing_required")
	}
	for _, s := range r.recommended {
		c.require(obj, path, r, s, Warning, "missing_recommended")
	}
	for _, p := range sortedKeys(r.values) {
		c.checkValues(obj, path, r, p, r.values[p], c.valueSeverity(r, p, required, lenient))
	}
	if r.rating {
		c.checkRating(obj, path, r, severity)
	}
	if r.breadcrumb {
		c.checkBreadcrumb(obj, path, r, severity)
	}
	for _, prop := range sortedKeys(r.nested) {
		name := r.nested[prop]
		nr, optional := ruleByID[strings.TrimSuffix(name, "?")], strings.HasSuffix(name, "?")
		c.eachObject(obj[prop], path+"."+prop, func(child map[string]any, p string) {
			child = c.resolve(child)
			c.visited[ptr(child)] = true
			c.check(child, p, specialize(nr, ItemTypes(child)), false, lenient || optional, depth+1)
		})
	}
}

// valueSeverity: an invalid value of a required property is an error (a
// warning in lenient mode), of any other property a warning.
func (c *checker) valueSeverity(r *rule, prop string, required []string, lenient bool) string {
	if lenient {
		return Warning
	}
	for _, s := range required {
		for alt := range strings.SplitSeq(s, "|") {
			if alt == prop {
				return Error
			}
		}
	}
	return Warning
}

// require checks one property spec: every path of a single-path spec, or
// at least one alternative of a choice.
func (c *checker) require(obj map[string]any, path string, r *rule, spec, severity, code string) {
	alts := specs[spec]
	if len(alts) == 1 {
		for _, l := range c.follow(obj, path, alts[0], nil) {
			if l.v == nil {
				c.addMissing(Problem{Path: l.missingPath(), Property: spec, Type: r.id, Code: code, Severity: severity,
					Message: missingMessage(code, spec, r)})
			}
		}
		return
	}
	for _, alt := range alts {
		complete := true
		for _, l := range c.follow(obj, path, alt, nil) {
			complete = complete && l.v != nil
		}
		if complete {
			return
		}
	}
	if code == "missing_required" {
		code = "missing_one_of"
	}
	c.addMissing(Problem{Path: path, Property: spec, Type: r.id, Code: code, Severity: severity,
		Message: missingMessage(code, spec, r)})
}

func missingMessage(code, spec string, r *rule) string {
	what := "required"
	if code == "missing_recommended" {
		what = "recommended"
	}
	if strings.Contains(spec, "|") {
		return fmt.Sprintf("%s has none of the %s properties %s: give at least one", r.id, what, strings.ReplaceAll(spec, "|", ", "))
	}
	return fmt.Sprintf("%s is missing the %s property %s", r.id, what, spec)
}

// addMissing adds a missing-property problem unless the path, or an
// object above it, was already reported missing (no "author.name missing"
// after "author missing"). A choice is reported at the object, keyed by
// its spec.
func (c *checker) addMissing(p Problem) {
	key := "missing " + p.Path
	if strings.Contains(p.Property, "|") {
		key += " " + p.Property
	}
	for i := len(p.Path) - 1; i > 0; i-- {
		if (p.Path[i] == '.' || p.Path[i] == '[') && c.seen["missing "+p.Path[:i]] {
			return
		}
	}
	if c.seen[key] {
		return
	}
	c.seen[key] = true
	c.add(p)
}

// checkValues checks the values found at a property path against a kind.
func (c *checker) checkValues(obj map[string]any, path string, r *rule, prop string, k kind, severity string) {
	for _, l := range c.follow(obj, path, specs[prop][0], nil) {
		if l.v == nil || l.short {
			continue
		}
		list, isList := l.v.([]any)
		if !isList {
			list = []any{l.v}
		}
		for i, e := range list {
			if !present(e) || k.valid(e) {
				continue
			}
			p := l.path
			if isList {
				p += "[" + strconv.Itoa(i) + "]"
			}
			c.add(Problem{Path: p, Property: prop, Type: r.id, Code: "invalid_value", Severity: severity,
				Value: quote(e), Message: fmt.Sprintf("%s.%s must be %s", r.id, prop, k)})
		}
	}
}

// checkRating checks ratingValue against worstRating and bestRating (1
// and 5 when not given, as Google assumes).
func (c *checker) checkRating(obj map[string]any, path string, r *rule, severity string) {
	v, ok := number(obj["ratingValue"])
	if !ok {
		return
	}
	best, worst := 5.0, 1.0
	if b, ok := number(obj["bestRating"]); ok {
		best = b
	}
	if w, ok := number(obj["worstRating"]); ok {
		worst = w
	}
	if v < worst || v > best {
		c.add(Problem{Path: path + ".ratingValue", Property: "ratingValue", Type: r.id, Code: "rating_out_of_range",
			Severity: severity, Value: quote(obj["ratingValue"]),
			Message: fmt.Sprintf("ratingValue %g is outside worstRating %g to bestRating %g", v, worst, best)})
	}
}

// checkBreadcrumb requires item on every ListItem but the last (the one
// with the highest position, else the last listed).
func (c *checker) checkBreadcrumb(obj map[string]any, path string, r *rule, severity string) {
	list, ok := obj["itemListElement"].([]any)
	if !ok || len(list) < 2 {
		return
	}
	last, lastPos := len(list)-1, -1.0
	for i, e := range list {
		if m, ok := e.(map[string]any); ok {
			if pos, ok := number(c.resolve(m)["position"]); ok && pos > lastPos {
				last, lastPos = i, pos
			}
		}
	}
	for i, e := range list {
		m, ok := e.(map[string]any)
		if !ok || i == last {
			continue
		}
		if !present(c.resolve(m)["item"]) {
			c.addMissing(Problem{Path: fmt.Sprintf("%s.itemListElement[%d].item", path, i), Property: "item", Type: "ListItem",
				Code: "missing_required", Severity: severity,
				Message: "every breadcrumb but the last needs item, the URL of its page"})
		}
	}
}
