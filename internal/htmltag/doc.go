// Package htmltag holds small facts about HTML elements that several
// extract packages need, so each is written once.
package htmltag
