package contacts

import (
	"encoding/hex"
	"net/url"
	"regexp"
	"strings"
)

// Email is one e-mail address.
type Email struct {
	Address string `json:"address" doc:"The address, its domain lower-cased." example:"info@example.com"`
	Source  string `json:"source" enum:"mailto,text,obfuscated" doc:"How it was first found: a mailto: link (Cloudflare-protected addresses included), plain text, or text obfuscated as name [at] domain [dot] com and the like." example:"mailto"`
	Count   int    `json:"count" doc:"How many times it occurs." example:"2"`
}

// Pieces of the e-mail patterns. Separators never span lines, so an
// address cannot be stitched together from two blocks of a page.
const (
	blank   = `[ \t\x{a0}]`
	label   = `[a-z0-9](?:[a-z0-9-]*[a-z0-9])?`
	opening = `[\[({<]`
	closing = `[\])}>]`
	// dotSep is ".", "[.]", "(dot)", " dot " and the like.
	dotSep = blank + `*` + opening + blank + `*(?:dot|\.)` + blank + `*` + closing + blank + `*|` + blank + `+dot` + blank + `+|\.`
)

var (
	// atSepRe finds "@", "[at]", "(@)", " at " and the like; the local
	// part is read backwards from there and the domain forwards.
	atSepRe = regexp.MustCompile(`(?i)` + blank + `*` + opening + blank + `*(?:at|@)` + blank + `*` + closing + blank + `*|` + blank + `+at` + blank + `+|@`)
	// domainRe is a domain with any separators, anchored after the @.
	domainRe = regexp.MustCompile(`^(?i)` + label + `(?:(?:` + dotSep + `)` + label + `)+`)
	dotSepRe = regexp.MustCompile(`(?i)` + dotSep)
)

// fileExtensions are "TLDs" of names that look like addresses but are
// files: logo@2x.png, icon@3x.jpg, bundle@1.2.min.js.
var fileExtensions = map[string]bool{
	"asp": true, "aspx": true, "avif": true, "bmp": true, "css": true,
	"eot": true, "gif": true, "gz": true, "heic": true, "htm": true,
	"html": true, "ico": true, "jpeg": true, "jpg": true, "js": true,
	"json": true, "map": true, "mjs": true, "mov": true, "mp3": true,
	"mp4": true, "otf": true, "pdf": true, "php": true, "png": true,
	"svg": true, "tif": true, "tiff": true, "ts": true, "ttf": true,
	"txt": true, "webm": true, "webp": true, "woff": true, "woff2": true,
	"xml": true, "zip": true,
}

func findEmails(d *document) []Email {
	var found []hit[Email]
	for _, l := range d.links {
		rest, ok := cutPrefixFold(l.href, "mailto:")
		if !ok {
			continue
		}
		for _, field := range mailtoFields(rest) {
			for _, e := range scanEmails(field) {
				found = append(found, hit[Email]{l.pos, Email{Address: e.item.Address, Source: SourceMailto}})
			}
		}
	}
	found = append(found, scanEmails(d.text)...)
	return tally(found, func(e Email) string { return strings.ToLower(e.Address) }, func(e *Email) *int { return &e.Count })
}

// mailtoFields returns the address lists of a mailto: URL without its
// scheme: the path and the to, cc and bcc parameters, percent-decoded.
func mailtoFields(rest string) []string {
	path, query, _ := strings.Cut(rest, "?")
	if p, err := url.PathUnescape(path); err == nil {
		path = p
	}
	fields := []string{path}
	if q, err := url.ParseQuery(query); err == nil {
		fields = append(fields, q["to"]...)
		fields = append(fields, q["cc"]...)
		fields = append(fields, q["bcc"]...)
	}
	return fields
}

// scanEmails returns the addresses in text, plain or obfuscated, at their
// offsets.
func scanEmails(text string) []hit[Email] {
	var found []hit[Email]
	for offset, line := range lines(text, hasAt) {
		for _, sep := range atSepRe.FindAllStringIndex(line, -1) {
			if e, ok := matchEmail(text, offset+sep[0], offset+sep[1]); ok {
				found = append(found, e)
			}
		}
	}
	return found
}

// hasAt reports whether line has an "@" or the word "at".
func hasAt(line string) bool {
	if strings.IndexByte(line, '@') >= 0 {
		return true
	}
	for i := 0; i+1 < len(line); i++ {
		if line[i]|0x20 == 'a' && line[i+1]|0x20 == 't' &&
			(i == 0 || !isLocalByte(line[i-1])) && (i+2 == len(line) || !isLocalByte(line[i+2])) {
			return true
		}
	}
	return false
}

// matchEmail reads the address around the separator text[at:end].
func matchEmail(text string, at, end int) (hit[Email], bool) {
	start := localStart(text, at)
	dom := domainRe.FindString(text[end:])
	if start == at || dom == "" {
		return hit[Email]{}, false
	}
	local := text[start:at]
	if len(local) > 64 || strings.Contains(local, "..") || strings.HasSuffix(local, ".") || !urlFree(text, start) {
		return hit[Email]{}, false
	}
	atKind := separatorKind(text[at:end])
	var labels []string
	allObscured, shouted, plain := true, true, atKind == sepPlain
	prev := 0
	for _, dot := range dotSepRe.FindAllStringIndex(dom, -1) {
		labels = append(labels, dom[prev:dot[0]])
		prev = dot[1]
		kind := separatorKind(dom[dot[0]:dot[1]])
		allObscured = allObscured && kind != sepPlain
		shouted = shouted && (kind == sepShout || kind == sepBracket)
		plain = plain && kind == sepPlain
	}
	labels = append(labels, dom[prev:])
	switch {
	case atKind == sepShout && !shouted: // john AT example DOT com
		return hit[Email]{}, false
	case atKind == sepWord && (!allObscured || !emailLabelBefore(text, start)): // E-mail: john at example dot com
		return hit[Email]{}, false
	}
	domain := strings.ToLower(strings.Join(labels, "."))
	if !validDomain(domain) {
		return hit[Email]{}, false
	}
	source := SourceText
	if !plain {
		source = SourceObfuscated
	}
	return hit[Email]{start, Email{Address: local + "@" + domain, Source: source}}, true
}

// localStart returns where the local part ending at end begins (end when
// there is none, or when the run of address characters is too long to be
// one).
func localStart(text string, end int) int {
	i := end
	for i > 0 && isLocalByte(text[i-1]) {
		if end-i == 64 {
			return end
		}
		i--
	}
	for i < end && (text[i] == '.' || text[i] == '-') {
		i++
	}
	return i
}

func isLocalByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '.' || c == '_' || c == '%' || c == '+' || c == '-'
}

// urlFree reports whether the local part at start is not the user of a
// URL (https://user@host) nor the second half of a fediverse handle
// (@user@host).
func urlFree(text string, start int) bool {
	return !strings.HasSuffix(text[:start], "//") && !strings.HasSuffix(text[:start], "@")
}

// Kinds of "@" and "." separator.
const (
	sepPlain   = iota // "@" or "."
	sepBracket        // "[at]", "(dot)", "{.}"
	sepShout          // " AT ", " DOT "
	sepWord           // " at ", " dot "
)

func separatorKind(s string) int {
	s = strings.Trim(s, " \t\u00a0")
	switch {
	case s == "@" || s == ".":
		return sepPlain
	case strings.ContainsAny(s[:1], "[({<"):
		return sepBracket
	case s == "AT" || s == "DOT":
		return sepShout
	}
	return sepWord
}

// emailLabelBefore reports whether "mail" or "contact" shortly precedes
// the local part at start, as in "E-mail: john at example dot com".
func emailLabelBefore(text string, start int) bool {
	before := strings.ToLower(text[max(0, start-32):start])
	return strings.Contains(before, "mail") || strings.Contains(before, "contact")
}

// validDomain checks lengths and that the TLD is alphabetic (or an IDN
// A-label) and not a file extension.
func validDomain(domain string) bool {
	if len(domain) > 253 {
		return false
	}
	labels := strings.Split(domain, ".")
	for _, l := range labels {
		if len(l) > 63 {
			return false
		}
	}
	tld := labels[len(labels)-1]
	if strings.HasPrefix(tld, "xn--") {
		return len(tld) > 4
	}
	if len(tld) < 2 || len(tld) > 24 || fileExtensions[tld] {
		return false
	}
	for _, c := range tld {
		if c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

// decodeCloudflare decodes the hex of a Cloudflare-protected address
// (data-cfemail): the first byte is a key XORed into the rest.
func decodeCloudflare(s string) string {
	b, err := hex.DecodeString(strings.TrimSpace(s))
	if err != nil || len(b) < 2 {
		return ""
	}
	out := make([]byte, len(b)-1)
	for i := range out {
		out[i] = b[i+1] ^ b[0]
	}
	return string(out)
}

// decodeCloudflareLink decodes a /cdn-cgi/l/email-protection#hex link.
func decodeCloudflareLink(href string) string {
	_, hexs, ok := strings.Cut(href, "/cdn-cgi/l/email-protection#")
	if !ok {
		return ""
	}
	return decodeCloudflare(hexs)
}

func cutPrefixFold(s, prefix string) (string, bool) {
	if len(s) < len(prefix) || !strings.EqualFold(s[:len(prefix)], prefix) {
		return s, false
	}
	return s[len(prefix):], true
}
