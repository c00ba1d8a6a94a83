package billing_test

import (
	"testing"

	"github.com/webinfra/webinfra/billing"
)

func TestQuote(t *testing.T) {
	t.Parallel()
	cfg := billing.DefaultConfig()
	cfg.ResidentialSurcharge = 4
	free := cfg.Plans["free"]
	internal := cfg.Plans["internal"]
	flat := billing.Price{Credits: 3}
	perIP := billing.Price{Credits: 1, PerItem: true}
	perPage := billing.Price{Credits: 2, PerItem: true}

	tests := []struct {
		name        string
		price       billing.Price
		plan        billing.Plan
		items       int
		residential bool
		want        billing.Quote
	}{
		{"flat", flat, free, 0, false, billing.Quote{Base: 3, Items: 1, Total: 3}},
		{"flat ignores items", flat, free, 40, false, billing.Quote{Base: 3, Items: 1, Total: 3}},
		{"flat residential", flat, free, 1, true, billing.Quote{Base: 3, Items: 1, ResidentialSurcharge: 4, Total: 7}},
		{"per item", perIP, free, 100, false, billing.Quote{Base: 100, Items: 100, Total: 100}},
		{"per item times credits", perPage, free, 5, false, billing.Quote{Base: 10, Items: 5, Total: 10}},
		{"per item zero counts as one", perIP, free, 0, false, billing.Quote{Base: 1, Items: 1, Total: 1}},
		{"per item negative counts as one", perPage, free, -7, false, billing.Quote{Base: 2, Items: 1, Total: 2}},
		{"per item residential", perIP, free, 3, true, billing.Quote{Base: 3, Items: 3, ResidentialSurcharge: 4, Total: 7}},
		{"free price", billing.Price{}, free, 0, false, billing.Quote{Items: 1}},
		{"bypass", flat, internal, 0, false, billing.Quote{Base: 3, Items: 1, Total: 0}},
		{"bypass keeps breakdown", perIP, internal, 9, true, billing.Quote{Base: 9, Items: 9, ResidentialSurcharge: 4, Total: 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := cfg.Quote(tt.price, tt.plan, tt.items, tt.residential)
			if got != tt.want {
				t.Errorf("Quote(%+v, %s, %d, %t) = %+v, want %+v", tt.price, tt.plan.Name, tt.items, tt.residential, got, tt.want)
			}
		})
	}
}
