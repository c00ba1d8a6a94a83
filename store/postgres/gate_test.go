package postgres

import (
	"fmt"
	"testing"
	"time"
)

func TestGateForgetsSettledAndBoundsTheRest(t *testing.T) {
	var g accountGate
	g.reserved("a", 7)
	unlock := g.take("a")
	if g.stripes[7].TryLock() {
		t.Fatal("taking a hold reserved here did not lock its account")
	}
	unlock()
	g.take("a")() // taken once: not gated again
	g.take("elsewhere")()

	// Holds settled by other processes are never taken here: the map
	// stays bounded, old entries make room, and past the bound a hold
	// is simply not gated.
	old := time.Now().Add(-time.Hour)
	for i := range gateMaxHolds {
		g.holds[fmt.Sprint("old", i)] = gatedHold{account: 1, at: old}
	}
	g.reserved("new", 2)
	if len(g.holds) != 1 {
		t.Fatalf("%d entries after a full map of old ones, want 1", len(g.holds))
	}
	for i := range gateMaxHolds {
		g.reserved(fmt.Sprint("fresh", i), 3)
	}
	if len(g.holds) != gateMaxHolds {
		t.Fatalf("%d entries, want the bound %d", len(g.holds), gateMaxHolds)
	}
}
