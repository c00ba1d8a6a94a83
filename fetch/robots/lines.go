package robots

import (
	"bytes"
	"strings"
)

// capBody returns the part of body Parse reads: all of it up to MaxBytes;
// past that, the first MaxBytes without the line the limit cuts through
// (a half rule could mean something else). cut reports a longer body.
func capBody(body []byte) (kept []byte, cut bool) {
	if len(body) <= MaxBytes {
		return body, false
	}
	kept = body[:MaxBytes]
	if c := body[MaxBytes]; c != '\n' && c != '\r' {
		kept = kept[:bytes.LastIndexAny(kept, "\r\n")+1]
	}
	return kept, true
}

// utf8BOM is skipped at the start of a body, as is any prefix of it.
const utf8BOM = "\xEF\xBB\xBF"

// scanLines calls emit with each line of body and its number (from 1),
// without its line end: LF, CR or CRLF. Each line is at most maxLineBytes
// long; cut says that emit got only the start of a longer one. A body
// ending with a line end has a last, empty line. It returns the number of
// lines.
func scanLines(body string, emit func(num int, line string, cut bool)) int {
	for i := 0; i < len(utf8BOM) && len(body) > 0 && body[0] == utf8BOM[i]; i++ {
		body = body[1:]
	}
	num := 0
	for {
		end := strings.IndexAny(body, "\r\n")
		line := body
		if end >= 0 {
			line = body[:end]
		}
		num++
		if len(line) > maxLineBytes {
			emit(num, line[:maxLineBytes], true)
		} else {
			emit(num, line, false)
		}
		if end < 0 {
			return num
		}
		if body[end] == '\r' && end+1 < len(body) && body[end+1] == '\n' {
			end++
		}
		body = body[end+1:]
	}
}

// isSpace reports ASCII whitespace, as C's isspace does.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

// trimSpace removes leading and trailing ASCII whitespace (never the
// Unicode spaces strings.TrimSpace also removes).
func trimSpace(s string) string {
	for len(s) > 0 && isSpace(s[0]) {
		s = s[1:]
	}
	for len(s) > 0 && isSpace(s[len(s)-1]) {
		s = s[:len(s)-1]
	}
	return s
}

// splitKeyValue splits a line (comment removed, trimmed, not empty) into
// its key and value at the first colon. A line without a colon still has
// a key and a value when it is exactly two words separated by spaces or
// tabs ("disallow /x"), as Google reads it; colon is then false.
func splitKeyValue(s string) (key, value string, colon, ok bool) {
	if i := strings.IndexByte(s, ':'); i >= 0 {
		key, value, colon = trimSpace(s[:i]), trimSpace(s[i+1:]), true
	} else if i := strings.IndexAny(s, " \t"); i >= 0 {
		key, value = s[:i], strings.TrimLeft(s[i:], " \t")
		if strings.ContainsAny(value, " \t") {
			return "", "", false, false
		}
	}
	return key, value, colon, key != ""
}

// keyKind is what a line's key names.
type keyKind int

const (
	keyUnknown keyKind = iota
	keyUserAgent
	keyAllow
	keyDisallow
	keySitemap
	keyCrawlDelay
)

// keySpellings are the keys a line may start with, in the order they are
// tried, each with its canonical name and the misspellings accepted for it
// (Google's list, plus two for crawl-delay). A key is recognised by a
// case-insensitive prefix, as Google's parser does: "Disallowed" is a
// disallow line, "Sitemaps" a sitemap line. "allow" takes no misspelling.
var keySpellings = []struct {
	kind      keyKind
	spellings []string // the canonical name first
}{
	{keyUserAgent, []string{"user-agent", "useragent", "user agent"}},
	{keyAllow, []string{"allow"}},
	{keyDisallow, []string{"disallow", "dissallow", "dissalow", "disalow", "diasllow", "disallaw"}},
	{keySitemap, []string{"sitemap", "site-map"}},
	{keyCrawlDelay, []string{"crawl-delay", "crawldelay", "crawl delay"}},
}

// classifyKey returns what key names and that key's canonical name.
func classifyKey(key string) (keyKind, string) {
	for _, k := range keySpellings {
		for _, spelling := range k.spellings {
			if len(key) >= len(spelling) && strings.EqualFold(key[:len(spelling)], spelling) {
				return k.kind, k.spellings[0]
			}
		}
	}
	return keyUnknown, ""
}

// isTokenChar reports the characters of a product token: [A-Za-z_-].
func isTokenChar(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '-' || c == '_'
}

// tokenPrefix is s up to its first character that is not [A-Za-z_-].
func tokenPrefix(s string) string {
	end := 0
	for end < len(s) && isTokenChar(s[end]) {
		end++
	}
	return s[:end]
}

const upperHex = "0123456789ABCDEF"

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func upper(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}

// normalise is a pattern or path as rules are compared (RFC 9309 §2.2.2):
// each percent-escape with upper-case hex digits ("%2f" is "%2F", never
// "/"), and each octet outside ASCII percent-encoded ("é" is "%C3%A9").
// Nothing is decoded: "%62" stays "%62", as Google compares it. It
// allocates only when something changes.
func normalise(s string) string {
	change := false
	for i := 0; i < len(s) && !change; i++ {
		switch {
		case s[i] == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			change = upper(s[i+1]) != s[i+1] || upper(s[i+2]) != s[i+2]
			i += 2
		case s[i] >= 0x80:
			change = true
		}
	}
	if !change {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			b.WriteByte('%')
			b.WriteByte(upper(s[i+1]))
			b.WriteByte(upper(s[i+2]))
			i += 2
		case c >= 0x80:
			b.WriteByte('%')
			b.WriteByte(upperHex[c>>4])
			b.WriteByte(upperHex[c&0xF])
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
