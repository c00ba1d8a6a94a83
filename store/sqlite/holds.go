package sqlite

import (
	"slices"
	"time"

	"github.com/webinfra/webinfra/errs"
)

// holdGrace is how long after its expiry a hold is kept so a slow call can
// still be settled. The next Reserve of the account after that drops it
// (a call that was never settled or released: a bug or a lost goroutine).
const holdGrace = 24 * time.Hour

// hold is the credits and the request of quota held for one call in
// flight. Holds live in memory only; see the package documentation.
type hold struct {
	requestID string
	account   int64
	key       int64
	credits   int64
	expires   int64 // unix ms: the hold counts while the reserving now < expires
	settling  bool  // a Settle has claimed it and is writing the charge
	pos       int   // index in its account's list
}

// holdTable is the holds of calls in flight, by request id and by account,
// so Reserve looks only at the holds of its own account. It is guarded by
// DB.mu.
type holdTable struct {
	byID      map[string]*hold
	byAccount map[int64][]*hold
}

func newHoldTable() holdTable {
	return holdTable{byID: map[string]*hold{}, byAccount: map[int64][]*hold{}}
}

func (t *holdTable) add(h *hold) {
	list := t.byAccount[h.account]
	h.pos = len(list)
	t.byAccount[h.account] = append(list, h)
	t.byID[h.requestID] = h
}

func (t *holdTable) remove(h *hold) {
	delete(t.byID, h.requestID)
	list := t.byAccount[h.account]
	last := list[len(list)-1]
	list[h.pos] = last
	last.pos = h.pos
	list[len(list)-1] = nil
	list = list[:len(list)-1]
	if len(list) == 0 {
		delete(t.byAccount, h.account)
	} else {
		t.byAccount[h.account] = list
	}
}

// live sums the account's holds that count at now (now < expires): how
// many, their credits and the credits of key. On the way it drops the
// account's holds that expired more than holdGrace before now, unless a
// Settle is writing them.
func (t *holdTable) live(account, key, now int64) (n, credits, keyCredits int64) {
	list := t.byAccount[account]
	for i := 0; i < len(list); {
		h := list[i]
		if h.expires < now-holdGrace.Milliseconds() && !h.settling {
			t.remove(h) // moves the last hold to i
			list = t.byAccount[account]
			continue
		}
		if h.expires > now {
			n++
			credits += h.credits
			if h.key == key {
				keyCredits += h.credits
			}
		}
		i++
	}
	return n, credits, keyCredits
}

// claim marks the hold of requestID as being settled with charged credits
// and returns it. An unknown hold, or one another Settle has claimed, is
// errs.KindNotFound; charging more than was held is errs.KindInvalid and
// leaves the hold as it was.
func (t *holdTable) claim(requestID string, charged int64) (*hold, error) {
	h := t.byID[requestID]
	if h == nil || h.settling {
		return nil, errs.NotFound("no hold for request %q", requestID)
	}
	if charged > h.credits {
		return nil, errs.New(errs.KindInvalid, "sqlite: settle: charge %d exceeds the %d credits held", charged, h.credits)
	}
	h.settling = true
	return h, nil
}

// dropAccount forgets the holds of an erased account, except those a
// Settle is writing (its transaction fails for want of the account and
// gives the hold back, to be dropped here never again: such a hold stays
// until the process ends, one per call in flight at the erasure).
func (t *holdTable) dropAccount(account int64) {
	for _, h := range slices.Clone(t.byAccount[account]) {
		if !h.settling {
			t.remove(h)
		}
	}
}
