package content

import (
	"slices"
	"strings"

	"golang.org/x/net/html"
)

// rest is a pass after ordered, for an extraction assembled from parts
// that are not in the page's order: extract appends a collection's item
// grid after go-trafilatura's text even where the grid comes first in
// the page. ordered aligns the extraction with the page along one series
// of anchors, so it matches one of the parts and leaves the other, whose
// short, repeated lines (a card's "Top rated", its price) unordered
// cannot place. rest runs ordered again over what is left on both sides:
// the extracted text nodes with nothing matched, joined in their order,
// against the page's runs with nothing kept. Each pass is bounded as
// ordered is, and there are at most maxRestPasses.
//
// On the pages of both data sets (accurate mode) this rendered the region
// instead of the extractor's linkless tree on 13 more pages (38 to 25 of
// 1,678), and on WCXB the share of the extracted text the Markdown holds
// rose from 97.4% to 98.4% on average (pages holding all of it but 0.5%:
// 1,228 to 1,305 of 1,485). filledSpan, finding more of the extraction,
// filled more of service pages and listings: WCXB F1 0.8629 to 0.8641
// (service 0.8390 to 0.8456, listings 0.6863 to 0.6927; 26 pages better,
// 13 worse).
func (r *region) rest(runs []textRun, text string, starts, ends []int) {
	placed := r.placed(len(text))
	var left strings.Builder
	var leftStarts, leftEnds, origin []int // origin: where each node of left starts in text
	for k, s := range starts {
		if slices.Contains(placed[s:ends[k]], true) {
			continue
		}
		leftStarts, origin = append(leftStarts, left.Len()), append(origin, s)
		left.WriteString(text[s:ends[k]])
		leftEnds = append(leftEnds, left.Len())
	}
	if left.Len() == 0 {
		return
	}
	var free []textRun
	for _, run := range runs {
		if !slices.ContainsFunc(run.nodes, func(n *html.Node) bool { return r.kept[n] }) {
			free = append(free, run)
		}
	}
	// The second alignment marks the same node and block sets; its spans
	// are offsets in left, mapped back to text node by node.
	second := &region{kept: r.kept, live: r.live}
	second.ordered(free, left.String(), leftStarts, leftEnds)
	for _, sp := range second.spans {
		k, _ := slices.BinarySearch(leftStarts, sp[0]+1)
		for k--; k < len(leftStarts) && leftStarts[k] < sp[1]; k++ {
			from, to := max(sp[0], leftStarts[k]), min(sp[1], leftEnds[k])
			if from < to {
				r.spans = append(r.spans, [2]int{origin[k] + from - leftStarts[k], origin[k] + to - leftStarts[k]})
			}
		}
	}
}

// maxRestPasses bounds the passes of rest: on WCXB the second added a
// little (eight pages more held whole), the third nothing.
const maxRestPasses = 3
