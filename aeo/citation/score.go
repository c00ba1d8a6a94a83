package citation

import (
	"math"

	"github.com/webinfra/webinfra/aeo/internal/scoring"
)

// The components' curves (see the package doc).
var (
	// statisticsCurve and numberDensityCurve each give half the
	// statistics component: 5 statistics, 1.5 numbers per 100 words.
	statisticsCurve    = scoring.Curve{{X: 0, Y: 0}, {X: 5, Y: 50}}
	numberDensityCurve = scoring.Curve{{X: 0, Y: 0}, {X: 1.5, Y: 50}}
	// distinctEntitiesCurve and entityDensityCurve each give half the
	// entities component: 10 distinct, 2 mentions per 100 words.
	distinctEntitiesCurve = scoring.Curve{{X: 0, Y: 0}, {X: 10, Y: 50}}
	entityDensityCurve    = scoring.Curve{{X: 0, Y: 0}, {X: 2, Y: 50}}
	// lengthCurve: nothing under 100 words, 40 at 300, 75 at 800, full
	// from 1,500.
	lengthCurve = scoring.Curve{{X: 100, Y: 0}, {X: 300, Y: 40}, {X: 800, Y: 75}, {X: 1500, Y: 100}}
	// countCurve scores a count of sources or quotations: 0, 1, 2, 3+.
	countCurve = scoring.Curve{{X: 0, Y: 0}, {X: 1, Y: 50}, {X: 2, Y: 75}, {X: 3, Y: 100}}
)

func numbersScore(n NumberStats) int {
	return int(math.Round(statisticsCurve.At(float64(n.Statistics)) + numberDensityCurve.At(n.Per100Words)))
}

func entitiesScore(e EntityStats) int {
	return int(math.Round(distinctEntitiesCurve.At(float64(e.Distinct)) + entityDensityCurve.At(e.Per100Words)))
}

// linksScore: by authoritative links (1: 50, 2: 75, 3+: 100); with none,
// other outbound links earn a little (1-2: 10, 3+: 20).
func linksScore(l LinkStats) int {
	switch {
	case l.Authoritative > 0:
		return countCurve.Int(float64(l.Authoritative))
	case l.Outbound >= 3:
		return 20
	case l.Outbound > 0:
		return 10
	}
	return 0
}

// authorScore: a byline (extract/content's) and a machine-readable author
// (schema or meta) 100; one of the byline or the schema author 70; only
// <meta name=author> 40.
func authorScore(a AuthorStats) int {
	byline, machine := a.Byline != "", a.SchemaAuthor != "" || a.MetaAuthor != ""
	switch {
	case byline && machine:
		return 100
	case byline || a.SchemaAuthor != "":
		return 70
	case a.MetaAuthor != "":
		return 40
	}
	return 0
}

func lengthScore(words int) int { return lengthCurve.Int(float64(words)) }

func stepScore(n int) int { return countCurve.Int(float64(n)) }
