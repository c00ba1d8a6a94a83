package scoring

import "testing"

func TestCurve(t *testing.T) {
	t.Parallel()
	c := Curve{{X: 10, Y: 0}, {X: 20, Y: 50}, {X: 40, Y: 100}}
	for x, want := range map[float64]float64{-5: 0, 10: 0, 15: 25, 20: 50, 30: 75, 40: 100, 99: 100} {
		if got := c.At(x); got != want {
			t.Errorf("At(%v) = %v, want %v", x, got, want)
		}
	}
	if got := c.Int(12.5); got != 13 {
		t.Errorf("Int(12.5) = %d, want 13", got)
	}
	if got := (Curve{}).At(3); got != 0 {
		t.Errorf("empty curve: %v", got)
	}
}
