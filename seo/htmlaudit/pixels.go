package htmlaudit

import "unicode"

// Title width. Google shows a result title in Arial at 20px and cuts it
// near 600 pixels on desktop. titlePixels estimates a title's width from
// the Arial (Helvetica-compatible) advance widths below, in thousandths
// of an em, at 20px: ASCII characters use their own width; other letters
// the width of a typical lower- or upper-case letter; East Asian wide
// characters (Han, kana, Hangul, full-width forms) a full em; marks
// nothing; anything else the width of a lower-case letter.
const (
	titleFontPx    = 20
	titleMaxPixels = 600
)

// arialWidths are Arial's advance widths for the printable ASCII range
// ' ' (32) to '~' (126), in thousandths of an em.
var arialWidths = [95]int{
	278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, // space to '/'
	556, 556, 556, 556, 556, 556, 556, 556, 556, 556, // digits
	278, 278, 584, 584, 584, 556, 1015, // ':' to '@'
	667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, // A-M
	722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, // N-Z
	278, 278, 278, 469, 556, 333, // '[' to '`'
	556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, // a-m
	556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, // n-z
	334, 260, 334, 584, // '{' to '~'
}

// titlePixels estimates the width of s in pixels in 20px Arial.
func titlePixels(s string) int {
	units := 0
	for _, r := range s {
		switch {
		case r >= ' ' && r <= '~':
			units += arialWidths[r-' ']
		case unicode.IsMark(r):
		case unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) || r >= 0xFF01 && r <= 0xFF60:
			units += 1000
		case unicode.IsUpper(r):
			units += 667
		default:
			units += 556
		}
	}
	return (units*titleFontPx + 500) / 1000
}
