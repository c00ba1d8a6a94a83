package billing

// Price is the sticker cost of an operation, declared once in the
// operation catalog.
type Price struct {
	// Credits is the cost of one call, or of one item when PerItem is set.
	Credits int64 `json:"credits"`
	// PerItem charges Credits for every item of the call (e.g. geoip bulk:
	// one credit per IP).
	PerItem bool `json:"per_item"`
}

// Quote is the cost of one call, itemised.
type Quote struct {
	// Base is the price's cost: Credits, times Items for per-item prices.
	Base int64 `json:"base"`
	// Items is the number of units Base covers: the call's items (at least
	// 1) for per-item prices, 1 otherwise.
	Items int `json:"items"`
	// ResidentialSurcharge is added when the call uses the residential tier.
	ResidentialSurcharge int64 `json:"residential_surcharge"`
	// Total is what the call costs the account: Base plus
	// ResidentialSurcharge, or 0 on a bypass plan.
	Total int64 `json:"total"`
}

// Quote prices one call of p for an account on plan. items is the number of
// items in the call; it only matters for per-item prices, where fewer than
// one counts as one. residential adds c.ResidentialSurcharge. A bypass plan
// keeps the breakdown visible but quotes a Total of 0.
func (c Config) Quote(p Price, plan Plan, items int, residential bool) Quote {
	q := Quote{Base: p.Credits, Items: 1}
	if p.PerItem && items > 1 {
		q.Items = items
		q.Base = p.Credits * int64(items)
	}
	if residential {
		q.ResidentialSurcharge = c.ResidentialSurcharge
	}
	q.Total = q.Base + q.ResidentialSurcharge
	if plan.Bypass {
		q.Total = 0
	}
	return q
}
