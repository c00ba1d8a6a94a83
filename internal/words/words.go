package words

import "unicode"

// Count counts the runs of letters and digits in s.
func Count(s string) int {
	n, in := 0, false
	for _, r := range s {
		word := unicode.IsLetter(r) || unicode.IsDigit(r)
		if word && !in {
			n++
		}
		in = word
	}
	return n
}
