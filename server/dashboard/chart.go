package dashboard

import (
	"fmt"
	"time"

	"github.com/webinfra/webinfra/store"
)

// chart is a bar chart of one series per UTC day, drawn as inline SVG on
// the server: no script, no external asset, readable at any width.
type chart struct {
	Title   string // the figure's caption
	Summary string // what a screen reader hears: the total and the busiest day
	Unit    string
	Width   int
	Height  int
	Plot    rect // the bars' area
	Max     int64
	Bars    []bar
	Ticks   []tick // day labels under the bars
	Fill    string
}

type rect struct{ X, Y, W, H int }

type bar struct {
	rect
	Label string // "2026-11-21: 12 calls", the bar's <title>
}

type tick struct {
	X    int
	Text string
}

// fillDays gives one bucket per day from since to until (UTC days),
// zeros where the store had none.
func fillDays(buckets []store.UsageDay, since, until time.Time) []store.UsageDay {
	have := map[string]store.UsageDay{}
	for _, b := range buckets {
		have[b.Day] = b
	}
	var out []store.UsageDay
	for d := since; !d.After(until); d = d.AddDate(0, 0, 1) {
		key := d.Format(time.DateOnly)
		b, ok := have[key]
		if !ok {
			b = store.UsageDay{Day: key}
		}
		out = append(out, b)
	}
	return out
}

// newChart draws value(day) for each day.
func newChart(title, unit, fill string, days []store.UsageDay, value func(store.UsageDay) int64) chart {
	c := chart{Title: title, Unit: unit, Width: 720, Height: 200, Fill: fill}
	c.Plot = rect{X: 48, Y: 12, W: c.Width - 60, H: c.Height - 48}
	var total int64
	busiest := -1
	for i, d := range days {
		v := value(d)
		total += v
		if v > c.Max {
			c.Max, busiest = v, i
		}
	}
	scale := c.Max
	if scale == 0 {
		scale = 1
	}
	n := max(len(days), 1)
	slot := c.Plot.W / n
	for i, d := range days {
		v := value(d)
		h := int(int64(c.Plot.H) * v / scale)
		if v > 0 && h < 2 {
			h = 2
		}
		c.Bars = append(c.Bars, bar{rect: rect{X: c.Plot.X + i*slot + 1, Y: c.Plot.Y + c.Plot.H - h, W: max(slot-2, 1), H: h},
			Label: fmt.Sprintf("%s: %s %s", d.Day, groupDigits(v), unit)})
		if i == 0 || i == len(days)-1 || i == len(days)/2 {
			c.Ticks = append(c.Ticks, tick{X: c.Plot.X + i*slot + slot/2, Text: d.Day[5:]})
		}
	}
	c.Summary = fmt.Sprintf("%s over the last %d days: %s in all", title, len(days), groupDigits(total))
	if busiest >= 0 {
		c.Summary += fmt.Sprintf("; the most, %s, on %s", groupDigits(c.Max), days[busiest].Day)
	}
	c.Summary += "."
	return c
}
