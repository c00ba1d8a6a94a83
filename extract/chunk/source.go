package chunk

import (
	"bytes"
	"unicode"
	"unicode/utf8"

	"github.com/webinfra/webinfra/internal/htmltag"
	xhtml "golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// srcWord is a word of the page's visible text.
type srcWord struct {
	text       string // decoded; a substring of one string holding all words
	start, end int    // [start, end) in the page bytes
	heading    int32  // 1 + index into source.headings of the h1–h6 it is in; 0 when none
	adj        bool   // only markup (no text) separates it from the previous word
}

// srcHeading is an h1–h6 element of the page.
type srcHeading struct{ level int }

// source is the page's text as words with byte offsets.
type source struct {
	words    []srcWord
	headings []srcHeading
}

// inlineTags are the elements that do not break a word: "<b>Hel</b>lo"
// is the one word "Hello", as a browser's textContent and the extractors
// see it. Every other tag (p, div, li, td, br, ...) ends the word before
// it, and so does every element whose text is skipped.
var inlineTags = map[atom.Atom]bool{
	atom.A: true, atom.Abbr: true, atom.Acronym: true, atom.B: true, atom.Bdi: true,
	atom.Bdo: true, atom.Big: true, atom.Blink: true, atom.Cite: true, atom.Code: true,
	atom.Data: true, atom.Del: true, atom.Dfn: true, atom.Em: true, atom.Font: true,
	atom.I: true, atom.Img: true, atom.Ins: true, atom.Kbd: true, atom.Label: true,
	atom.Mark: true, atom.Nobr: true, atom.Q: true, atom.Rb: true, atom.Rp: true,
	atom.Rt: true, atom.Rtc: true, atom.Ruby: true, atom.S: true, atom.Samp: true,
	atom.Small: true, atom.Span: true, atom.Strike: true, atom.Strong: true,
	atom.Sub: true, atom.Sup: true, atom.Time: true, atom.Tt: true, atom.U: true,
	atom.Var: true, atom.Wbr: true, atom.Picture: true, atom.Output: true,
}

// skipTags are the elements whose content is not page text. The tokenizer
// reads the raw-text ones (script, style, textarea, title, noscript, ...)
// as one text token; the others (template, svg, math) nest and are
// skipped by depth, up to </body> or </html> at most when left open.
var skipTags = map[atom.Atom]bool{
	atom.Script: true, atom.Style: true, atom.Template: true, atom.Noscript: true,
	atom.Title: true, atom.Textarea: true, atom.Iframe: true, atom.Noembed: true,
	atom.Noframes: true, atom.Xmp: true, atom.Plaintext: true, atom.Svg: true,
	atom.Math: true,
}

// parseSource splits the page into words with their byte offsets. It
// reads the page with x/net/html's tokenizer, which never fails, and
// decodes character references itself so that every decoded character
// keeps the span of the bytes it came from.
func parseSource(page []byte) *source {
	src := &source{words: make([]srcWord, 0, len(page)/32)}
	z := xhtml.NewTokenizer(bytes.NewReader(page))
	z.SetMaxBuf(0)
	var (
		pos      int       // offset of the current token
		skip     atom.Atom // element being skipped, 0 when none
		depth    int       // nesting of skip inside itself
		heading  int32     // current heading, as in srcWord.heading
		buf      []byte    // the text of all words read
		wStart   int       // its start
		wEnd     int       // its end
		wAdj     bool      // its adj
		inWord   bool      // a word is being read
		base     rune      // the word's last character that is not a mark
		afterTag = false   // only markup since the last word ended
	)
	// The words' text goes to buf, one after the other; ends[k] is where
	// word k's text ends in it.
	var ends []int
	flush := func() {
		if inWord {
			src.words = append(src.words, srcWord{start: wStart, end: wEnd, heading: heading, adj: wAdj})
			ends = append(ends, len(buf))
			inWord = false
		}
	}
	// brk ends the current word at a tag that separates words.
	brk := func() {
		if inWord {
			flush()
			afterTag = true
		}
	}
	addRune := func(r rune, s, e int) {
		if isWordRune(r) {
			if inWord && breaksWord(base, r) {
				flush()
				afterTag = true
			}
			if !inWord {
				inWord, wStart, wAdj = true, s, afterTag
			}
			buf = utf8.AppendRune(buf, r)
			wEnd = e
			if r < 0x300 || !unicode.Is(unicode.Mn, r) {
				base = r
			}
			return
		}
		flush()
		afterTag = false
	}
	for {
		tt := z.Next()
		raw := z.Raw()
		start := pos
		pos += len(raw)
		switch tt {
		case xhtml.ErrorToken:
			flush()
			all := string(buf)
			from := 0
			for k, to := range ends {
				src.words[k].text = all[from:to]
				from = to
			}
			return src
		case xhtml.TextToken:
			if skip != 0 {
				continue
			}
			decodeText(raw, start, addRune)
		case xhtml.StartTagToken, xhtml.EndTagToken, xhtml.SelfClosingTagToken:
			name, _ := z.TagName()
			a := atom.Lookup(name)
			if skip != 0 {
				if tt == xhtml.EndTagToken && (a == atom.Body || a == atom.Html) {
					skip = 0 // an element left open
				}
				if a == skip {
					switch tt {
					case xhtml.StartTagToken:
						depth++
					case xhtml.EndTagToken:
						depth--
						if depth == 0 {
							skip = 0
						}
					}
				}
				continue
			}
			if inlineTags[a] {
				continue
			}
			brk()
			if skipTags[a] && tt == xhtml.StartTagToken {
				skip, depth = a, 1
				afterTag = false
				continue
			}
			if lvl := htmltag.HeadingLevel(a); lvl > 0 {
				switch tt {
				case xhtml.StartTagToken:
					src.headings = append(src.headings, srcHeading{level: lvl})
					heading = int32(len(src.headings))
				case xhtml.EndTagToken:
					heading = 0
				}
			}
		case xhtml.CommentToken:
			// invisible: does not break a word
		default:
			brk()
			afterTag = false
		}
	}
}

// decodeText passes each character of a raw text token to add with the
// span of bytes it came from, character references decoded as the
// tokenizer's Text would decode them. off is raw's offset in the page.
func decodeText(raw []byte, off int, add func(r rune, s, e int)) {
	for i := 0; i < len(raw); {
		c := raw[i]
		if c == '&' {
			if dec, n := charRef(raw[i:]); n > 0 {
				for _, r := range dec {
					add(r, off+i, off+i+n)
				}
				i += n
				continue
			}
		}
		if c < utf8.RuneSelf {
			add(rune(c), off+i, off+i+1)
			i++
			continue
		}
		r, size := utf8.DecodeRune(raw[i:])
		add(r, off+i, off+i+size)
		i += size
	}
}

// charRef decodes the character reference at the start of s (s[0] is
// '&') the way x/net/html does in text: numeric references with or
// without ';', named ones by longest match, legacy names without ';'. It
// returns the decoded text and the bytes consumed, or 0 when there is no
// reference.
func charRef(s []byte) (string, int) {
	if len(s) < 2 {
		return "", 0
	}
	i := 1
	if s[1] == '#' {
		i = 2
		hex := i < len(s) && (s[i] == 'x' || s[i] == 'X')
		if hex {
			i++
		}
		i0 := i
		for i < len(s) && (s[i] >= '0' && s[i] <= '9' || hex && (s[i]|0x20 >= 'a' && s[i]|0x20 <= 'f')) {
			i++
		}
		if i == i0 {
			return "", 0
		}
		if i < len(s) && s[i] == ';' {
			i++
		}
		return xhtml.UnescapeString(string(s[:i])), i
	}
	for i < len(s) && i < 64 && (s[i]|0x20 >= 'a' && s[i]|0x20 <= 'z' || s[i] >= '0' && s[i] <= '9') {
		i++
	}
	if i == 1 {
		return "", 0
	}
	if i < len(s) && s[i] == ';' {
		i++
	}
	cand := string(s[:i])
	dec := xhtml.UnescapeString(cand)
	if dec == cand {
		return "", 0
	}
	// A legacy reference without ';' may match a prefix of the name
	// ("&copyright" is "©right"): the undecoded rest is then dec's tail.
	_, size := utf8.DecodeRuneInString(dec)
	if tail := dec[size:]; tail != "" && len(tail) < i-1 && cand[i-len(tail):] == tail {
		return dec[:size], i - len(tail)
	}
	return dec, i
}
