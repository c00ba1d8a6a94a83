package convert

import (
	"math"
	"strings"
)

// assemble builds a result from an engine's words, in the order given:
// words sharing block, paragraph and line numbers make a line; lines are
// joined by a newline, and a new block or paragraph starts after a blank
// line. Words and lines are listed only when boxes is set.
func assemble(words []EngineWord, boxes bool) *OCRResult {
	res := &OCRResult{WordCount: len(words)}
	var (
		text      strings.Builder
		lines     []Line
		lineConfs []float64 // summed confidence per line
		lineSizes []int     // words per line
		outWords  []Word
		total     float64
		prev      *EngineWord
	)
	for i := range words {
		w := &words[i]
		total += w.Confidence
		switch {
		case prev == nil:
		case w.Block != prev.Block || w.Paragraph != prev.Paragraph:
			text.WriteString("\n\n")
		case w.Line != prev.Line:
			text.WriteString("\n")
		default:
			text.WriteString(" ")
		}
		if prev == nil || w.Block != prev.Block || w.Paragraph != prev.Paragraph || w.Line != prev.Line {
			lines = append(lines, Line{})
			lineConfs = append(lineConfs, 0)
			lineSizes = append(lineSizes, 0)
		}
		n := len(lines) - 1
		if lineSizes[n] > 0 {
			lines[n].Text += " "
		}
		lines[n].Text += w.Text
		lines[n].Box = lines[n].Box.union(w.Box)
		lineConfs[n] += w.Confidence
		lineSizes[n]++
		text.WriteString(w.Text)
		if boxes {
			outWords = append(outWords, Word{Text: w.Text, Confidence: round2(w.Confidence), Box: w.Box, Line: n})
		}
		prev = w
	}
	res.Text = text.String()
	if len(words) > 0 {
		res.MeanConfidence = round2(total / float64(len(words)))
	}
	if boxes {
		for i := range lines {
			lines[i].Confidence = round2(lineConfs[i] / float64(lineSizes[i]))
		}
		res.Words, res.Lines = outWords, lines
	}
	return res
}

// round2 rounds a confidence to two decimals.
func round2(f float64) float64 { return math.Round(f*100) / 100 }
