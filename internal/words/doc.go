// Package words counts words the way the page-reading packages agree on
// (a word is a run of letters and digits, whatever the script), and
// finds the spaces between them as unicode.IsSpace does, faster on
// ASCII.
package words
