package pagetype

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// Model is a multinomial logistic regression over the page features:
// each type's score is a weighted sum of the standardized features, and
// the softmax of the scores is the probability of each type.
//
// It is hand-written (a hundred lines) because the model is small and
// fixed, and a machine-learning dependency would be larger than the
// whole package; training takes a second on the development set.
type Model struct {
	Features []string    `json:"features"` // the feature names, in order
	Types    []Type      `json:"types"`
	Mean     []float64   `json:"mean"`    // per feature
	Scale    []float64   `json:"scale"`   // per feature: 1/standard deviation
	Weights  [][]float64 `json:"weights"` // per type, per feature
	Bias     []float64   `json:"bias"`    // per type
}

// Probabilities are the model's probability of each of m.Types for the
// feature vector x.
func (m *Model) Probabilities(x []float64) []float64 {
	z := make([]float64, len(m.Types))
	for k := range m.Types {
		s := m.Bias[k]
		for j, xj := range x {
			s += m.Weights[k][j] * (xj - m.Mean[j]) * m.Scale[j]
		}
		z[k] = s
	}
	softmax(z)
	return z
}

// softmax turns scores into probabilities in place.
func softmax(z []float64) {
	top := slices.Max(z)
	sum := 0.0
	for k := range z {
		z[k] = math.Exp(z[k] - top)
		sum += z[k]
	}
	for k := range z {
		z[k] /= sum
	}
}

// TrainOptions tune Train. Zero fields take defaults.
type TrainOptions struct {
	L2     float64 // weight decay; default 0.01
	Epochs int     // full-batch steps; default 800
	Rate   float64 // Adam's step size; default 0.05
	// Balance weighs each class by (mean class size / its size) to this
	// power: 0 (the default) weighs every page alike, 1 every class.
	Balance float64
}

// ShippedTraining is the options the shipped model (model.json) was
// trained with: chosen over a small grid by the accuracy of models
// trained with a fifth of the WCXB development set's sites held out, on
// those sites' pages.
func ShippedTraining() TrainOptions { return TrainOptions{L2: 0.03, Balance: 0.3} }

// Check reports whether m can read this package's feature vectors: its
// features are FeatureNames, its types are among Types, and its
// weights, means and scales are as many as those. Detect and
// Probabilities index by them without checking.
func (m *Model) Check() error {
	if names := featureNames(); !slices.Equal(m.Features, names) {
		return fmt.Errorf("pagetype: model trained on other features (%d, not this package's %d)", len(m.Features), len(names))
	}
	if len(m.Types) == 0 {
		return fmt.Errorf("pagetype: model has no types")
	}
	for _, t := range m.Types {
		if !slices.Contains(Types, t) {
			return fmt.Errorf("pagetype: model has unknown type %q", t)
		}
	}
	nf, nk := len(m.Features), len(m.Types)
	if len(m.Mean) != nf || len(m.Scale) != nf || len(m.Weights) != nk || len(m.Bias) != nk {
		return fmt.Errorf("pagetype: model's means, scales, weights or biases do not match its %d features and %d types", nf, nk)
	}
	for _, w := range m.Weights {
		if len(w) != nf {
			return fmt.Errorf("pagetype: model's weights do not match its %d features", nf)
		}
	}
	return nil
}

// Train fits a model to feature vectors x labelled y (indexes into
// types) by full-batch gradient descent with Adam on the L2-regularized
// cross-entropy.
func Train(names []string, types []Type, x [][]float64, y []int, o TrainOptions) (*Model, error) {
	if len(x) == 0 || len(x) != len(y) {
		return nil, fmt.Errorf("pagetype: %d vectors for %d labels", len(x), len(y))
	}
	o.L2 = cmp.Or(o.L2, 0.01)
	o.Rate = cmp.Or(o.Rate, 0.05)
	o.Epochs = cmp.Or(o.Epochs, 800)
	nf, nk := len(names), len(types)
	m := &Model{Features: names, Types: types, Mean: make([]float64, nf), Scale: make([]float64, nf),
		Weights: make([][]float64, nk), Bias: make([]float64, nk)}
	for _, v := range x {
		if len(v) != nf {
			return nil, fmt.Errorf("pagetype: a vector has %d features, want %d", len(v), nf)
		}
		for j, xj := range v {
			m.Mean[j] += xj / float64(len(x))
		}
	}
	for j := range nf {
		varj := 0.0
		for _, v := range x {
			varj += (v[j] - m.Mean[j]) * (v[j] - m.Mean[j])
		}
		sd := math.Sqrt(varj / float64(len(x)))
		if sd > 1e-9 {
			m.Scale[j] = 1 / sd
		}
	}
	classWeight := make([]float64, nk)
	for _, k := range y {
		if k < 0 || k >= nk {
			return nil, fmt.Errorf("pagetype: label %d out of range", k)
		}
		classWeight[k]++
	}
	for k := range classWeight {
		if classWeight[k] > 0 {
			classWeight[k] = math.Pow(float64(len(y))/(float64(nk)*classWeight[k]), o.Balance)
		}
	}
	// Standardize once; the parameters are the weights and then the bias
	// as one more column.
	xs := make([][]float64, len(x))
	for i, v := range x {
		xs[i] = make([]float64, nf+1)
		for j, xj := range v {
			xs[i][j] = (xj - m.Mean[j]) * m.Scale[j]
		}
		xs[i][nf] = 1
	}
	w := make([][]float64, nk)
	opt := make([]adam, nk)
	for k := range w {
		w[k] = make([]float64, nf+1)
		opt[k] = newAdam(nf+1, o.Rate)
	}
	grad := make([][]float64, nk)
	for k := range grad {
		grad[k] = make([]float64, nf+1)
	}
	z := make([]float64, nk)
	for range o.Epochs {
		for k := range grad {
			clear(grad[k])
		}
		for i, v := range xs {
			for k := range nk {
				z[k] = dot(w[k], v)
			}
			softmax(z)
			cw := classWeight[y[i]] / float64(len(xs))
			for k := range nk {
				d := z[k]
				if k == y[i] {
					d--
				}
				d *= cw
				for j, vj := range v {
					grad[k][j] += d * vj
				}
			}
		}
		for k := range nk {
			for j := range nf { // the bias is not decayed
				grad[k][j] += o.L2 * w[k][j]
			}
			opt[k].step(w[k], grad[k])
		}
	}
	for k := range nk {
		m.Weights[k] = w[k][:nf:nf]
		m.Bias[k] = w[k][nf]
	}
	return m, nil
}

// argmax is the index of p's largest value (the first, on a tie).
func argmax(p []float64) int {
	best := 0
	for k := range p {
		if p[k] > p[best] {
			best = k
		}
	}
	return best
}

func dot(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// adam is the Adam optimizer's state for one parameter vector.
type adam struct {
	rate   float64
	m, v   []float64
	t      int
	b1, b2 float64
}

func newAdam(n int, rate float64) adam {
	return adam{rate: rate, m: make([]float64, n), v: make([]float64, n), b1: 0.9, b2: 0.999}
}

func (a *adam) step(w, g []float64) {
	a.t++
	c1 := 1 - math.Pow(a.b1, float64(a.t))
	c2 := 1 - math.Pow(a.b2, float64(a.t))
	for j := range w {
		a.m[j] = a.b1*a.m[j] + (1-a.b1)*g[j]
		a.v[j] = a.b2*a.v[j] + (1-a.b2)*g[j]*g[j]
		w[j] -= a.rate * (a.m[j] / c1) / (math.Sqrt(a.v[j]/c2) + 1e-8)
	}
}
