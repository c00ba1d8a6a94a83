package htmltag

import (
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/text/unicode/norm"

	"github.com/webinfra/webinfra/internal/mojibake"
)

// ParseText is Parse of the page's text made comparable: invalid UTF-8
// replaced (as a browser would), mojibake repaired (UTF-8 that went
// through Latin-1 or Windows-1252 and back: "doesnâ€™t" is "doesn’t";
// see internal/mojibake) and the text normalized to NFC, so that words
// compare equal however the page composed its accents. The checks are
// scans when the page is clean already, which is almost always.
func ParseText(page, field string) (*html.Node, error) {
	if !utf8.ValidString(page) {
		page = strings.ToValidUTF8(page, "\uFFFD")
	}
	page = mojibake.Repair(page)
	if !isNFC(page) {
		page = norm.NFC.String(page)
	}
	return Parse(page, field)
}

// isNFC is norm.NFC.IsNormalString(s) for valid UTF-8. That reads ASCII
// a byte at a time, some 8% of the time of a page's parse; this skips it
// eight bytes at a time and checks the stretches between, each from
// the ASCII character before it (which a combining mark after it would
// compose with) to the next ASCII one. The stretches are checked apart
// because no ASCII character composes with the one before it, nor is
// reordered with it.
func isNFC(s string) bool {
	const ascii8 = 0x8080808080808080
	for i := 0; i < len(s); {
		for i+8 <= len(s) && load64(s, i)&ascii8 == 0 {
			i += 8
		}
		for i < len(s) && s[i] < utf8.RuneSelf {
			i++
		}
		if i == len(s) {
			break
		}
		start, end := max(i-1, 0), i+1
		for end < len(s) && s[end] >= utf8.RuneSelf {
			end++
		}
		if !norm.NFC.IsNormalString(s[start:end]) {
			return false
		}
		i = end
	}
	return true
}

// load64 is the eight bytes of s from i, little-endian (the compiler
// makes it one load).
func load64(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}
