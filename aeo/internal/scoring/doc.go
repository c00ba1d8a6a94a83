// Package scoring holds the score curves the AEO audits share: a
// piecewise-linear curve from a measure (an age in days, a word count, a
// density) to points.
package scoring
