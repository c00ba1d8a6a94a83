package content

import (
	"strings"

	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/css"
)

// visuallyHiddenClasses returns the classes that the page's own
// stylesheets (its <style> elements' texts: pageClues.sheets) hide
// visually, for screen readers only, as the frameworks' sr-only does
// (see screenReaderOnly) under a name of the site's own: a rule
// outside any at-rule (not for one medium or screen size) whose
// selector ends in one class, and whose declarations take the element
// out of the flow (position absolute or fixed) and shrink it to a
// pixel, clip it away or move it a thousand pixels or more off-screen
// (see offScreen). An auction site names such a class by a hash and
// fills its cards' "Sponsored" label with hidden runs of random
// letters that way, which came out as lines of UUIDs. A rule a later
// one overrides is taken all the same: the cascade is not worked out
// (a class hidden and then shown again, for the same elements, is not
// how the pattern is written).
func visuallyHiddenClasses(sheets []string) map[string]bool {
	var out map[string]bool
	for _, sheet := range sheets {
		for _, class := range hiddenRuleClasses(sheet) {
			if out == nil {
				out = map[string]bool{}
			}
			out[class] = true
		}
	}
	return out
}

// hiddenRuleClasses returns the classes that the top-level rules of
// sheet that hide their element visually (see offScreen) end their
// selectors in.
//
// A page's stylesheets run to hundreds of kilobytes (32 KB a WCXB page
// on average), and parsing them whole took 1.2% of accurate mode's
// time. So the rules are found first by their "position" declaration
// and a hint of the rest (clip, a pixel, a long negative offset), and
// only those are parsed, with tdewolff/parse's CSS parser, each from
// the end of the rule before it to its closing brace. A rule inside an
// at-rule is told by the braces before it: more opened than closed.
// Every search starts where the last one ended (and the braces are
// counted on from where they were last counted), so the work is linear
// in the sheet whatever it holds.
func hiddenRuleClasses(sheet string) []string {
	var classes []string
	depth, counted := 0, 0 // braces opened and not closed in sheet[:counted]
	for i := 0; ; {
		k := strings.Index(sheet[i:], "position")
		if k < 0 {
			return classes
		}
		at := i + k
		end := strings.IndexByte(sheet[at:], '}')
		if end < 0 {
			return classes
		}
		end += at
		open := strings.LastIndexByte(sheet[i:at], '{')
		if open < 0 || !hintsOffScreen(sheet[i+open+1:end]) {
			i = end + 1
			continue
		}
		open += i
		start := i + strings.LastIndexAny(sheet[i:open], "{};") + 1
		depth += strings.Count(sheet[counted:start], "{") - strings.Count(sheet[counted:start], "}")
		counted = start
		if depth == 0 { // not inside @media or another at-rule
			classes = append(classes, ruleClasses(sheet[start:end+1])...)
		}
		i = end + 1
	}
}

// hintsOffScreen reports whether a rule's declarations may hide its
// element off-screen (see offScreen), a quick look before parsing.
func hintsOffScreen(decls string) bool {
	if !strings.Contains(decls, "absolute") && !strings.Contains(decls, "fixed") {
		return false
	}
	return strings.Contains(decls, "clip") || strings.Contains(decls, "1px") || strings.Contains(decls, "-9") ||
		strings.Contains(decls, ":-") || strings.Contains(decls, ": -")
}

// ruleClasses parses one rule and returns the classes its selectors end
// in when it hides its element off-screen, else nil.
func ruleClasses(rule string) []string {
	p := css.NewParser(parse.NewInputString(rule), false)
	var selectors []string
	decls := map[string]string{}
	for {
		gt, _, data := p.Next()
		switch gt {
		case css.ErrorGrammar, css.EndRulesetGrammar:
			if offScreen(decls) {
				return selectors
			}
			return nil
		case css.BeginAtRuleGrammar, css.AtRuleGrammar:
			return nil
		case css.QualifiedRuleGrammar, css.BeginRulesetGrammar:
			for sel := range splitSelectors(p.Values()) {
				if class := lastClass(sel); class != "" {
					selectors = append(selectors, class)
				}
			}
		case css.DeclarationGrammar:
			var v strings.Builder
			for _, t := range p.Values() {
				if t.TokenType != css.WhitespaceToken {
					v.Write(t.Data)
				}
			}
			decls[strings.ToLower(string(data))] = strings.ToLower(v.String())
		}
	}
}

// splitSelectors yields the selectors of a list, split at its commas.
func splitSelectors(list []css.Token) func(yield func([]css.Token) bool) {
	return func(yield func([]css.Token) bool) {
		start := 0
		for i, t := range list {
			if t.TokenType == css.CommaToken {
				if !yield(list[start:i]) {
					return
				}
				start = i + 1
			}
		}
		yield(list[start:])
	}
}

// lastClass returns the class a selector's last compound is, when that
// is one class, alone or with :not() conditions (".sr-only",
// ".erTx .uKy2 .zXCP", ".visually-hidden:not(:focus)"), else "".
func lastClass(sel []css.Token) string {
	for len(sel) > 0 && sel[len(sel)-1].TokenType == css.WhitespaceToken {
		sel = sel[:len(sel)-1]
	}
	start := 0
	for i, t := range sel {
		if t.TokenType == css.WhitespaceToken || t.TokenType == css.DelimToken && strings.ContainsAny(string(t.Data), ">+~") {
			start = i + 1
		}
	}
	compound := sel[start:]
	if len(compound) < 2 || compound[0].TokenType != css.DelimToken || string(compound[0].Data) != "." ||
		compound[1].TokenType != css.IdentToken {
		return ""
	}
	class := string(compound[1].Data)
	rest := compound[2:]
	for len(rest) > 0 {
		// :not( … ) with no nesting of its own
		if len(rest) < 3 || rest[0].TokenType != css.ColonToken || rest[1].TokenType != css.FunctionToken ||
			!strings.EqualFold(string(rest[1].Data), "not(") {
			return ""
		}
		end := 2
		for end < len(rest) && !(rest[end].TokenType == css.RightParenthesisToken) {
			end++
		}
		if end == len(rest) {
			return ""
		}
		rest = rest[end+1:]
	}
	return class
}

// offScreen reports whether a rule's declarations (property to value,
// lower case, no spaces) hide its element from sight but not from
// screen readers: out of the flow, and one pixel big with its overflow
// hidden, clipped to nothing, or moved a thousand pixels or more off the
// page.
func offScreen(decls map[string]string) bool {
	switch strings.TrimSuffix(decls["position"], "!important") {
	case "absolute", "fixed":
	default:
		return false
	}
	tiny := pixel(decls["width"]) && pixel(decls["height"]) && strings.HasPrefix(decls["overflow"], "hidden")
	clipped := strings.HasPrefix(decls["clip"], "rect(0") || strings.HasPrefix(decls["clip"], "rect(1px") ||
		strings.HasPrefix(decls["clip-path"], "inset(50%")
	return tiny || clipped || farOff(decls["left"]) || farOff(decls["top"])
}

// pixel reports whether a length is 1px or 0.
func pixel(v string) bool {
	v = strings.TrimSuffix(v, "!important")
	return v == "1px" || v == "0" || v == "0px"
}

// farOff reports whether a length is minus 999 pixels or more.
func farOff(v string) bool {
	v = strings.TrimSuffix(strings.TrimSuffix(v, "!important"), "px")
	digits := strings.TrimPrefix(v, "-")
	if len(digits) == len(v) || len(digits) < 3 || strings.Trim(digits, "0123456789") != "" {
		return false
	}
	return len(digits) > 3 || digits >= "999"
}
