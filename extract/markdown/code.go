package markdown

import (
	"strings"

	"golang.org/x/net/html/atom"
)

func (c *converter) closeCode() {
	code := c.sinks[len(c.sinks)-1]
	c.sinks = c.sinks[:len(c.sinks)-1]
	c.codeSpan(strings.TrimSpace(string(code.buf)))
}

// codeSpan writes text as inline code, fenced by one backtick more than
// its longest run of them.
func (c *converter) codeSpan(text string) {
	if text == "" {
		return
	}
	s := c.top()
	if s.mode == cellMode {
		text = strings.ReplaceAll(text, "|", `\|`)
	}
	fence := strings.Repeat("`", longestRun(text, '`')+1)
	pad := ""
	if text[0] == '`' || text[len(text)-1] == '`' {
		pad = " "
	}
	s.writeInline(c, fence+pad+text+pad+fence)
}

func (c *converter) openPre() {
	c.block(2)
	c.frames = append(c.frames, frame{tag: atom.Pre})
	s := newSink(preMode)
	s.lang = language(c.attr("class"))
	c.sinks = append(c.sinks, s)
}

// codeLanguage notes the language of a <code> opening a code block.
func (c *converter) codeLanguage() {
	if s := c.top(); s.mode == preMode && s.lang == "" && len(s.buf) == 0 {
		s.lang = language(c.attr("class"))
	}
}

func (c *converter) closePre() {
	pre := c.sinks[len(c.sinks)-1]
	c.sinks = c.sinks[:len(c.sinks)-1]
	text := strings.TrimRight(string(pre.buf), " \t\r\n")
	text = strings.TrimPrefix(text, "\n") // HTML drops a newline right after <pre>
	s := c.top()
	if s.mode != flowMode || c.links > 0 {
		c.codeSpan(strings.Join(strings.Fields(text), " "))
		return
	}
	if strings.TrimSpace(text) == "" {
		return
	}
	fence := strings.Repeat("`", max(3, longestRun(text, '`')+1))
	c.block(2)
	s.writeBlock(c, fence+pre.lang+"\n"+text+"\n"+fence)
	c.block(2)
}

// language reads a code block's language from a class attribute such as
// "language-go" or "lang-go".
func language(class string) string {
	for _, f := range strings.Fields(class) {
		for _, p := range []string{"language-", "lang-"} {
			if l, ok := strings.CutPrefix(f, p); ok && l != "" && !strings.ContainsAny(l, "`~") {
				return l
			}
		}
	}
	return ""
}

func longestRun(s string, b byte) int {
	best, n := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == b {
			n++
			best = max(best, n)
		} else {
			n = 0
		}
	}
	return best
}
