package scoring

import "math"

// Point is one knot of a Curve: at X the curve is Y.
type Point struct{ X, Y float64 }

// Curve is piecewise linear through its points, which are in increasing
// X: before the first it is the first Y, after the last the last Y.
type Curve []Point

// At is the curve's value at x.
func (c Curve) At(x float64) float64 {
	if len(c) == 0 {
		return 0
	}
	if x <= c[0].X {
		return c[0].Y
	}
	for i := 1; i < len(c); i++ {
		if x <= c[i].X {
			a, b := c[i-1], c[i]
			return a.Y + (b.Y-a.Y)*(x-a.X)/(b.X-a.X)
		}
	}
	return c[len(c)-1].Y
}

// Int is At rounded to the nearest whole number.
func (c Curve) Int(x float64) int { return int(math.Round(c.At(x))) }
