package articlebench

import "regexp"

// word is the benchmark's tokenizer: \w+ over Unicode letters, digits and
// connector punctuation (Python's re.UNICODE \w), case kept.
var word = regexp.MustCompile(`[\p{L}\p{N}\p{Mn}\p{Pc}]+`)

// Words splits text into the benchmark's tokens.
func Words(text string) []string { return word.FindAllString(text, -1) }

// PageScore is one page's scaled counts: TP+FP+FN = 1 unless all are 0.
type PageScore struct {
	TP, FP, FN float64
}

// Score compares predicted text with the ground truth by multisets of
// word 4-shingles (a text of fewer than 4 words is one shingle of all of
// them), as the benchmark's README describes.
func Score(truth, predicted string) PageScore {
	want := shingles(Words(truth))
	got := shingles(Words(predicted))
	var tp, fp, fn float64
	for s, n := range got {
		m := want[s]
		tp += float64(min(n, m))
		if n > m {
			fp += float64(n - m)
		}
	}
	for s, m := range want {
		if n := got[s]; m > n {
			fn += float64(m - n)
		}
	}
	if sum := tp + fp + fn; sum > 0 {
		tp, fp, fn = tp/sum, fp/sum, fn/sum
	}
	return PageScore{TP: tp, FP: fp, FN: fn}
}

func shingles(words []string) map[[4]string]int {
	out := make(map[[4]string]int, len(words))
	if len(words) == 0 {
		return out
	}
	if len(words) < 4 {
		var s [4]string
		copy(s[:], words)
		out[s]++
		return out
	}
	for i := 0; i+4 <= len(words); i++ {
		out[[4]string(words[i:i+4])]++
	}
	return out
}

// Summary is precision, recall and F1 over a set of pages.
type Summary struct {
	Precision, Recall, F1 float64
	Pages                 int
}

// Summarize averages precision over pages with TP+FP > 0 and recall over
// pages with TP+FN > 0 (each 1 on a page with FP = FN = 0), and takes F1
// of the two averages.
func Summarize(scores []PageScore) Summary {
	var p, r float64
	var np, nr int
	for _, s := range scores {
		if s.TP+s.FP > 0 {
			p += s.TP / (s.TP + s.FP)
			np++
		}
		if s.TP+s.FN > 0 {
			r += s.TP / (s.TP + s.FN)
			nr++
		}
	}
	out := Summary{Pages: len(scores)}
	if np > 0 {
		out.Precision = p / float64(np)
	}
	if nr > 0 {
		out.Recall = r / float64(nr)
	}
	if out.Precision+out.Recall > 0 {
		out.F1 = 2 * out.Precision * out.Recall / (out.Precision + out.Recall)
	}
	return out
}
