package structured

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// JSONLD is the page's JSON-LD.
type JSONLD struct {
	Items  []map[string]any `json:"items,omitempty" doc:"Every JSON-LD object, in page order: top-level arrays and @graph are flattened, and an item taken out of a @graph or array keeps the enclosing @context. Numbers keep their text."`
	Types  []string         `json:"types,omitempty" doc:"Every @type value found, in items and the objects nested in them, in page order without repeats."`
	Errors []JSONLDError    `json:"errors,omitempty" doc:"Blocks, or parts of blocks, that could not be read even after repairs."`
}

// JSONLDError reports a block that could not be read (the items read
// before the fault are kept).
type JSONLDError struct {
	Block   int    `json:"block" doc:"The block's index among the page's JSON-LD blocks, from 0."`
	Message string `json:"message"`
}

// isJSONLD reports whether a <script> type attribute names JSON-LD.
func isJSONLD(typ string) bool {
	mediaType, _, _ := strings.Cut(typ, ";")
	return strings.EqualFold(strings.TrimSpace(mediaType), "application/ld+json")
}

func (b *builder) jsonld(blocks []string) *JSONLD {
	j := &JSONLD{}
	fail := func(block int, format string, args ...any) {
		if b.room(len(j.Errors), "json_ld") {
			j.Errors = append(j.Errors, JSONLDError{Block: block, Message: fmt.Sprintf(format, args...)})
		}
	}
	for i, block := range blocks {
		if len(block) > b.opts.MaxJSONLDBytes {
			fail(i, "%d bytes, over the limit of %d", len(block), b.opts.MaxJSONLDBytes)
			continue
		}
		values, err := parseJSONLD(block)
		for _, v := range values {
			if !b.flatten(j, v, nil, 0) {
				fail(i, "holds a JSON value that is not an object")
			}
		}
		if err != nil {
			fail(i, "%v", err)
		}
	}
	for _, item := range j.Items {
		b.collectTypes(&j.Types, item, 0)
	}
	return nilIfZero(j)
}

// flatten adds the objects in v to j.Items: an object is an item, an
// array's elements and a @graph's members are items; an item without
// @context gets context, the enclosing one. It reports false when v holds
// a value that is neither an object nor an array.
func (b *builder) flatten(j *JSONLD, v, context any, depth int) bool {
	if depth > b.opts.MaxDepth {
		b.cut("json_ld")
		return true
	}
	switch v := v.(type) {
	case []any:
		ok := true
		for _, e := range v {
			ok = b.flatten(j, e, context, depth+1) && ok
		}
		return ok
	case map[string]any:
		if c, ok := v["@context"]; ok {
			context = c
		} else if context != nil {
			v["@context"] = context
		}
		graph, ok := v["@graph"]
		if !ok {
			b.addItem(j, v)
			return true
		}
		delete(v, "@graph")
		if hasData(v) {
			b.addItem(j, v)
		}
		return b.flatten(j, graph, context, depth+1)
	}
	return false
}

// hasData reports whether an object holds more than @context and @id.
func hasData(v map[string]any) bool {
	for k := range v {
		if k != "@context" && k != "@id" {
			return true
		}
	}
	return false
}

func (b *builder) addItem(j *JSONLD, item map[string]any) {
	if b.room(len(j.Items), "json_ld") {
		j.Items = append(j.Items, item)
	}
}

// collectTypes appends the @type values in v and the objects nested in it
// to types, skipping repeats.
func (b *builder) collectTypes(types *[]string, v any, depth int) {
	if depth > b.opts.MaxDepth {
		return
	}
	switch v := v.(type) {
	case []any:
		for _, e := range v {
			b.collectTypes(types, e, depth+1)
		}
	case map[string]any:
		switch t := v["@type"].(type) {
		case string:
			b.addType(types, t)
		case []any:
			for _, e := range t {
				if s, ok := e.(string); ok {
					b.addType(types, s)
				}
			}
		}
		for k, e := range v {
			if k != "@type" && k != "@context" {
				b.collectTypes(types, e, depth+1)
			}
		}
	}
}

func (b *builder) addType(types *[]string, t string) {
	t = strings.TrimSpace(t)
	if t != "" && !slices.Contains(*types, t) && b.room(len(*types), "json_ld") {
		*types = append(*types, t)
	}
}

// parseJSONLD reads the JSON values of one block. A block that is not
// valid JSON is read again after repair; the values read before a fault
// are returned with the error.
func parseJSONLD(block string) ([]any, error) {
	s := unwrap(block)
	values, err := decodeAll(s)
	if err == nil {
		return values, nil
	}
	repaired, rerr := decodeAll(repair(s))
	if rerr == nil {
		return repaired, nil
	}
	if len(repaired) > len(values) {
		values = repaired
	}
	return values, err
}

// wrappers are the markers that hide a script's content from old browsers,
// longest first so that "//]]>" is not mistaken for "]]>".
var wrappers = [][2]string{
	{"/*<![CDATA[*/", "/*]]>*/"},
	{"//<![CDATA[", "//]]>"},
	{"<![CDATA[", "]]>"},
	{"<!--", "-->"},
}

// unwrap trims white space, a byte-order mark, and CDATA and comment
// markers around a block.
func unwrap(s string) string {
	s = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(s), "\ufeff"))
	for trimmed := true; trimmed; {
		trimmed = false
		for _, w := range wrappers {
			if t, ok := strings.CutPrefix(s, w[0]); ok {
				s, trimmed = strings.TrimSpace(t), true
			}
			if t, ok := strings.CutSuffix(s, w[1]); ok {
				s, trimmed = strings.TrimSpace(t), true
			}
		}
	}
	return s
}

// decodeAll decodes the JSON objects and arrays in s, one after another,
// allowing commas and semicolons between them.
func decodeAll(s string) ([]any, error) {
	var out []any
	offset := 0
	for {
		rest := strings.TrimLeft(s[offset:], " \t\r\n,;")
		offset = len(s) - len(rest)
		if rest == "" {
			return out, nil
		}
		if rest[0] != '{' && rest[0] != '[' {
			return out, fmt.Errorf("at byte %d: want an object or an array, found %q", offset, firstRune(rest))
		}
		dec := json.NewDecoder(strings.NewReader(rest))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			if se, ok := errors.AsType[*json.SyntaxError](err); ok {
				return out, fmt.Errorf("at byte %d: %w", offset+int(se.Offset), err)
			}
			return out, err
		}
		out = append(out, v)
		offset += int(dec.InputOffset())
	}
}

func firstRune(s string) rune {
	r, _ := utf8.DecodeRuneInString(s)
	return r
}

// repair fixes the faults common in hand-written JSON-LD: raw control
// characters in strings are escaped, invalid escapes such as \' lose their
// backslash, single-quoted strings are double-quoted, a double quote that
// cannot end its string (one not followed by :, a comma and the next
// member or element, or a closing bracket) is escaped, missing commas
// between members are added, and trailing commas and /* */ or // comments
// are dropped.
func repair(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 16)
	var (
		open  []byte // the enclosing '{' and '['
		quote byte   // the quote of the string being read, or 0
		last  byte   // the last byte written outside strings, spaces aside
	)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if quote != 0 {
			switch {
			case c == '\\' && i+1 < len(s) && s[i+1] == '\'':
				b.WriteByte('\'')
				i++
			case c == '\\':
				if i+1 < len(s) && strings.IndexByte(`"\\/bfnrtu`, s[i+1]) >= 0 {
					b.WriteString(s[i : i+2])
					i++
				}
			case c == quote && endsString(s[i+1:], open):
				quote, last = 0, '"'
				b.WriteByte('"')
			case c == '"':
				b.WriteString(`\"`)
			case c < 0x20:
				fmt.Fprintf(&b, `\u%04x`, c)
			default:
				b.WriteByte(c)
			}
			continue
		}
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			b.WriteByte(c)
			continue
		case strings.HasPrefix(s[i:], "//") || strings.HasPrefix(s[i:], "/*"):
			i = len(s) - len(skipSpace(s[i:])) - 1
			continue
		case c == ',' && closesNext(s[i+1:]):
			continue
		}
		if len(open) > 0 && endsValue(last) && (c == '"' || c == '\'' || c == '{' || c == '[') {
			b.WriteByte(',')
		}
		switch c {
		case '"', '\'':
			quote = c
			c = '"'
		case '{', '[':
			open = append(open, c)
		case '}', ']':
			if len(open) > 0 {
				open = open[:len(open)-1]
			}
		}
		b.WriteByte(c)
		last = c
	}
	return b.String()
}

// endsValue reports whether c, the last byte written outside strings, ends
// a value: another value after it needs a comma first.
func endsValue(c byte) bool {
	return c == '"' || c == '}' || c == ']' || c == 'e' || c == 'l' || c >= '0' && c <= '9'
}

// endsString reports whether a quote followed by rest can end a string
// inside the containers open.
func endsString(rest string, open []byte) bool {
	rest = skipSpace(rest)
	if rest == "" || len(open) == 0 {
		return true
	}
	switch rest[0] {
	case ':', '}', ']', '"':
		return true
	case ',':
	default:
		return false
	}
	next := skipSpace(rest[1:])
	if next == "" || strings.IndexByte(`"'}]`, next[0]) >= 0 {
		return true
	}
	if open[len(open)-1] == '{' {
		return false
	}
	for _, p := range []string{"{", "[", "-", "true", "false", "null"} {
		if strings.HasPrefix(next, p) {
			return true
		}
	}
	return next[0] >= '0' && next[0] <= '9'
}

// closesNext reports whether the next character after white space closes
// an object or array.
func closesNext(s string) bool {
	s = skipSpace(s)
	return s != "" && (s[0] == '}' || s[0] == ']')
}

// skipSpace skips white space and comments.
func skipSpace(s string) string {
	for {
		s = strings.TrimLeft(s, " \t\r\n")
		switch {
		case strings.HasPrefix(s, "//"):
			_, s, _ = strings.Cut(s, "\n")
		case strings.HasPrefix(s, "/*"):
			_, s, _ = strings.Cut(s[2:], "*/")
		default:
			return s
		}
	}
}
