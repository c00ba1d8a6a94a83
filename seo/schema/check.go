package schema

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/webinfra/webinfra/extract/structured"
	"github.com/webinfra/webinfra/seo/htmlaudit/auditkit"
)

// rule is one row of the table in rules.go.
type rule struct {
	id           string          // the rule's name: a schema.org type, or a variant for nested objects (FAQQuestion)
	types        []string        // the types it checks
	subtypes     bool            // and their subtypes (Is)
	richResult   string          // Google's name; "" for a rule that only checks nested objects
	doc          string          // the page the lists come from
	required     []string        // property specs (see rules.go)
	rootRequired []string        // required only when not nested
	recommended  []string        // missing: a warning
	values       map[string]kind // what present values must look like
	nested       map[string]string
	findNested   bool     // validated as a rich result when found inside other items
	rating       bool     // ratingValue within worstRating..bestRating
	breadcrumb   bool     // every ListItem but the last needs item
	only         []string // a candidate only with one of these properties
	note         string
}

var ruleByID = map[string]*rule{}

func init() {
	for i := range rules {
		ruleByID[rules[i].id] = &rules[i]
	}
	for i := range rules {
		for _, n := range rules[i].nested {
			if ruleByID[strings.TrimSuffix(n, "?")] == nil {
				panic("schema: rule " + rules[i].id + " nests unknown rule " + n)
			}
		}
	}
}

// matches reports whether the rule checks an object of type t: exactly,
// or as a subtype when the rule says so.
func (r *rule) matches(t string, exact bool) bool {
	for _, rt := range r.types {
		if t == rt || !exact && r.subtypes && Is(t, rt) {
			return true
		}
	}
	return false
}

// matchRules returns the rich-result rules for an object's types, the
// most specific only: LocalBusiness, not also Organization, for a
// Restaurant.
func matchRules(types []string) []*rule {
	var out []*rule
	for i := range rules {
		r := &rules[i]
		if r.richResult == "" {
			continue
		}
		if slices.ContainsFunc(types, func(t string) bool { return r.matches(t, false) }) {
			out = append(out, r)
		}
	}
	return slices.DeleteFunc(out, func(r *rule) bool {
		return slices.ContainsFunc(out, func(o *rule) bool { return o != r && Is(o.types[0], r.types[0]) })
	})
}

// specialize returns the rule a nested object is checked with: the
// nested rule, or a rule for one of the object's own types that is a
// subtype of it (an AggregateOffer where an Offer is expected).
func specialize(r *rule, types []string) *rule {
	for i := range rules {
		o := &rules[i]
		if o != r && o.richResult != "" && Is(o.types[0], r.types[0]) &&
			slices.ContainsFunc(types, func(t string) bool { return o.matches(t, true) }) {
			return o
		}
	}
	return r
}

// checker validates one page's items.
type checker struct {
	opts     Options
	rep      Report
	ids      map[string]map[string]any // @id → the object that describes it
	visited  map[uintptr]bool          // objects already validated
	seen     map[string]bool           // paths with a problem
	entity   *Entity                   // the entity problems are counted to
	entOrder []int                     // item index per entity, to sort them
	probOrd  []int                     // item index per problem
	item     int                       // the top-level item being read
	steps    int
	types    map[string]bool // unchecked types already listed
}

func newChecker(o Options) *checker {
	return &checker{opts: o, ids: map[string]map[string]any{}, visited: map[uintptr]bool{},
		seen: map[string]bool{}, types: map[string]bool{},
		rep: Report{Eligible: []string{}, Entities: []Entity{}, Problems: []Problem{}, UncheckedTypes: []string{}}}
}

func ptr(m map[string]any) uintptr { return reflect.ValueOf(m).Pointer() }

func (c *checker) blockErrors(list []structured.JSONLDError) {
	c.item = -1
	for _, e := range list {
		c.rep.BlocksInvalid++
		block := e.Block
		c.add(Problem{Path: "$", Code: "invalid_json_ld", Severity: Error, Block: &block,
			Message: fmt.Sprintf("JSON-LD block %d cannot be read: %s; items after the fault are lost", e.Block, e.Message)})
	}
}

// run validates the items: first those no other item refers to by @id,
// then the others (a Product's Offer kept apart in a @graph is checked
// as part of the Product when the Product comes first).
func (c *checker) run(items []map[string]any) {
	c.rep.Items = len(items)
	referenced := map[string]bool{}
	for _, it := range items {
		if id, ok := it["@id"].(string); ok && id != "" && (c.ids[id] == nil || len(it) > len(c.ids[id])) {
			c.ids[id] = it
		}
		c.collectRefs(it, referenced, 0)
	}
	for pass := range 2 {
		for i, it := range items {
			id, _ := it["@id"].(string)
			if referenced[id] == (pass == 0) {
				continue
			}
			c.item = i
			c.validate(it, "$["+strconv.Itoa(i)+"]", true, 0)
		}
	}
	c.sort()
}

// collectRefs adds to refs every @id that v refers to (an object holding
// only @id, or @id and @type).
func (c *checker) collectRefs(v any, refs map[string]bool, depth int) {
	if depth > maxNesting {
		return
	}
	switch v := v.(type) {
	case map[string]any:
		if id, ok := isRef(v); ok && depth > 0 {
			refs[id] = true
			return
		}
		for k, e := range v {
			if k != "@context" {
				c.collectRefs(e, refs, depth+1)
			}
		}
	case []any:
		for _, e := range v {
			c.collectRefs(e, refs, depth+1)
		}
	}
}

// isRef reports whether v only points at another object by its @id.
func isRef(v map[string]any) (string, bool) {
	id, ok := v["@id"].(string)
	if !ok || id == "" {
		return "", false
	}
	for k := range v {
		if k != "@id" && k != "@type" && k != "@context" {
			return "", false
		}
	}
	return id, true
}

// resolve returns the object a reference points at, or v itself.
func (c *checker) resolve(v map[string]any) map[string]any {
	if id, ok := isRef(v); ok {
		if o := c.ids[id]; o != nil {
			return o
		}
	}
	return v
}

// validate checks obj as a rich result for each rule its types match
// (an entity per rule), then looks inside it for nested rich results.
func (c *checker) validate(obj map[string]any, path string, root bool, depth int) {
	if c.visited[ptr(obj)] || depth > maxNesting {
		return
	}
	c.visited[ptr(obj)] = true
	types := ItemTypes(obj)
	matched := matchRules(types)
	for _, r := range matched {
		if !root && !r.findNested || r.only != nil && !slices.ContainsFunc(r.only, func(p string) bool { return present(obj[p]) }) {
			continue
		}
		if len(c.rep.Entities) >= c.opts.MaxEntities {
			c.rep.Truncated = true
			return
		}
		c.rep.Entities = append(c.rep.Entities, Entity{Path: path, Type: matchedType(r, types),
			RichResult: r.richResult, Rule: r.id, Source: r.doc, Note: r.note})
		c.entOrder = append(c.entOrder, c.item)
		c.entity = &c.rep.Entities[len(c.rep.Entities)-1]
		if root && !schemaContext(obj["@context"]) {
			c.add(Problem{Path: path + ".@context", Property: "@context", Type: r.id, Code: "missing_context", Severity: Error,
				Message: "the item has no schema.org @context, so its types and properties are not schema.org's"})
		}
		c.check(obj, path, r, root, false, depth)
		c.entity = nil
	}
	if root && len(matched) == 0 && len(c.rep.UncheckedTypes) < 50 {
		for _, t := range types {
			if !c.types[t] {
				c.types[t] = true
				c.rep.UncheckedTypes = append(c.rep.UncheckedTypes, t)
			}
		}
	}
	c.descend(obj, path, depth)
}

func matchedType(r *rule, types []string) string {
	for _, t := range types {
		if r.matches(t, false) {
			return t
		}
	}
	return r.id
}

// schemaContext reports whether a @context names schema.org.
func schemaContext(ctx any) bool {
	switch v := ctx.(type) {
	case string:
		return strings.Contains(strings.ToLower(v), "schema.org")
	case map[string]any:
		return schemaContext(v["@vocab"])
	case []any:
		return slices.ContainsFunc(v, schemaContext)
	}
	return false
}

// descend looks for rich results nested in obj's properties.
func (c *checker) descend(obj map[string]any, path string, depth int) {
	for _, k := range sortedKeys(obj) {
		if strings.HasPrefix(k, "@") || notRichResult[k] {
			continue
		}
		c.eachObject(obj[k], path+"."+k, func(child map[string]any, p string) {
			if _, ref := isRef(child); !ref {
				c.validate(child, p, false, depth+1)
			}
		})
	}
}

// eachObject calls f for v when it is an object, or for each object in
// it when it is a list, with its path.
func (c *checker) eachObject(v any, path string, f func(map[string]any, string)) {
	switch v := v.(type) {
	case map[string]any:
		if c.step() {
			f(v, path)
		}
	case []any:
		for i, e := range v {
			if m, ok := e.(map[string]any); ok && c.step() {
				f(m, path+"["+strconv.Itoa(i)+"]")
			}
		}
	}
}

// step counts one visited value; false once the budget is spent.
func (c *checker) step() bool {
	c.steps++
	if c.steps > maxSteps {
		c.rep.Truncated = true
		return false
	}
	return true
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// add records a problem against the current entity, once per path.
func (c *checker) add(p Problem) {
	if c.seen[p.Path+" "+p.Code] {
		return
	}
	c.seen[p.Path+" "+p.Code] = true
	if p.Severity == Error {
		c.rep.Errors++
	} else {
		c.rep.Warnings++
	}
	if c.entity != nil {
		if p.Severity == Error {
			c.entity.Errors++
		} else {
			c.entity.Warnings++
		}
	}
	if len(c.rep.Problems) >= c.opts.MaxProblems {
		c.rep.Truncated = true
		return
	}
	c.rep.Problems = append(c.rep.Problems, p)
	c.probOrd = append(c.probOrd, c.item)
}

// sort puts entities and problems in item order (the second pass read
// referenced items late).
func (c *checker) sort() {
	sortByOrder(c.rep.Entities, c.entOrder)
	sortByOrder(c.rep.Problems, c.probOrd)
}

func sortByOrder[T any](list []T, order []int) {
	idx := make([]int, len(list))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return order[a] - order[b] })
	sorted := make([]T, len(list))
	for i, j := range idx {
		sorted[i] = list[j]
	}
	copy(list, sorted)
}

// report finishes the report: entity eligibility and the eligible types.
func (c *checker) report() *Report {
	for i := range c.rep.Entities {
		e := &c.rep.Entities[i]
		e.Eligible = e.Errors == 0
		if e.Eligible && !slices.Contains(c.rep.Eligible, e.Rule) {
			c.rep.Eligible = append(c.rep.Eligible, e.Rule)
		}
	}
	return &c.rep
}

// quote renders a value for a problem, clipped.
func quote(v any) string {
	var s string
	switch v := v.(type) {
	case string:
		s = v
	case map[string]any, []any:
		s = "(object)"
		if _, ok := v.([]any); ok {
			s = "(list)"
		}
	default:
		s = fmt.Sprint(v)
	}
	return auditkit.Clip(auditkit.CollapseSpace(s), valueRunes)
}
