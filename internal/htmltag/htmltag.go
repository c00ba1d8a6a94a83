package htmltag

import "golang.org/x/net/html/atom"

// HeadingLevel is 1–6 for h1–h6, else 0.
func HeadingLevel(a atom.Atom) int {
	switch a {
	case atom.H1:
		return 1
	case atom.H2:
		return 2
	case atom.H3:
		return 3
	case atom.H4:
		return 4
	case atom.H5:
		return 5
	case atom.H6:
		return 6
	}
	return 0
}
