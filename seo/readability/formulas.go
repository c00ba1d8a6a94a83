package readability

import "math"

// round is textstat's _legacy_round: half away from zero at the given
// number of decimals, floor(x·10^p + copysign(0.5, x)) / 10^p.
func round(x float64, points int) float64 {
	p := math.Pow10(points)
	return math.Floor(float64(x*p)+math.Copysign(0.5, x)) / p
}

// result applies textstat 0.7.4's formulas (default en_US settings,
// rounding on) to the counts. The explicit float64 conversions stop the
// compiler fusing a multiply and an add, which would round differently
// from Python.
func (t *tally) result() *Result {
	sentences := max(1, t.sentences)
	words, syl := float64(t.words), float64(t.syllables)
	zero, two, three := t.difficult()

	asl := round(words/float64(sentences), 1) // avg_sentence_length
	asw := round(syl/words, 1)                // avg_syllables_per_word

	r := &Result{
		Sentences:      sentences,
		Words:          t.words,
		Syllables:      t.syllables,
		Characters:     t.characters,
		Letters:        t.letters,
		Polysyllables:  t.poly,
		DifficultWords: two,
	}
	r.FleschReadingEase = round(206.835-float64(1.015*asl)-float64(84.6*asw), 2)
	r.FleschKincaidGrade = round(float64(0.39*asl)+float64(11.8*asw)-15.59, 1)
	if sentences >= 3 {
		r.SMOGIndex = round(float64(1.043*math.Sqrt(30*(float64(t.poly)/float64(sentences))))+3.1291, 1)
	}
	letters := round(round(float64(t.letters)/words, 2)*100, 2)
	perSentence := round(round(float64(sentences)/words, 2)*100, 2)
	r.ColemanLiauIndex = round(float64(0.058*letters)-float64(0.296*perSentence)-15.8, 2)
	a := round(float64(t.characters)/words, 2)
	b := round(words/float64(sentences), 2)
	r.AutomatedReadabilityIndex = round(float64(4.71*a)+float64(0.5*b)-21.43, 1)
	r.GunningFog = round(0.4*(asl+float64(float64(three)/words*100)), 2)
	perDifficult := 100 - float64(float64(t.words-zero)/words*100)
	dale := float64(0.1579*perDifficult) + float64(0.0496*asl)
	if perDifficult > 5 {
		dale += 3.6365
	}
	r.DaleChallReadabilityScore = round(dale, 2)
	r.ReadingTimeSeconds = round(t.readingMs/1000, 2)
	return r
}
