package storetest

import (
	"bytes"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/store"
)

var forwarderTests = []test{
	{"Forwarders/CreateAndGet", testCreateForwarder},
	{"Forwarders/SealedBytesRoundTrip", testForwarderSealedBytes},
	{"Forwarders/ListOldestFirst", testListForwarders},
	{"Forwarders/Delete", testDeleteForwarder},
	{"Forwarders/RecordTest", testRecordForwarderTest},
	{"Forwarders/ScopedToAccount", testForwarderScoping},
	{"Forwarders/Limit", testForwarderLimit},
	{"Forwarders/Rejected", testForwarderRejected},
	{"Forwarders/ConcurrentCreateHonoursLimit", testConcurrentForwarders},
}

// fwdLimit is a limit no test reaches unless it means to.
const fwdLimit = 100

// newForwarder returns a forwarder of the account with sealed values,
// created at t0.
func newForwarder(accountID int64, name string) store.Forwarder {
	return store.Forwarder{
		AccountID:     accountID,
		Name:          name,
		Endpoint:      "https://otlp.example.com/v1/traces",
		AuthHeader:    "Authorization",
		AuthSealed:    []byte("sealed-auth-" + name),
		HeadersSealed: []byte("sealed-headers-" + name),
		CreatedAt:     t0,
	}
}

// createForwarder stores f under fwdLimit and fails the test on error.
func (e *env) createForwarder(f store.Forwarder) store.Forwarder {
	e.t.Helper()
	out, err := e.s.CreateForwarder(e.ctx, f, fwdLimit)
	if err != nil {
		e.t.Fatalf("CreateForwarder(%+v): %v", f, err)
	}
	return out
}

// listForwarders returns the account's forwarders and fails the test on error.
func (e *env) listForwarders(accountID int64) []store.Forwarder {
	e.t.Helper()
	fs, err := e.s.ListForwarders(e.ctx, accountID)
	if err != nil {
		e.t.Fatalf("ListForwarders(%d): %v", accountID, err)
	}
	return fs
}

// sameForwarder compares forwarders: times with Equal, sealed values byte
// for byte and nil apart from non-nil.
func sameForwarder(a, b store.Forwarder) bool {
	return a.ID == b.ID && a.AccountID == b.AccountID && a.Name == b.Name && a.Endpoint == b.Endpoint &&
		a.AuthHeader == b.AuthHeader && sameSealed(a.AuthSealed, b.AuthSealed) &&
		sameSealed(a.HeadersSealed, b.HeadersSealed) && a.CreatedAt.Equal(b.CreatedAt) &&
		a.LastTest.At.Equal(b.LastTest.At) && a.LastTest.Status == b.LastTest.Status && a.LastTest.Detail == b.LastTest.Detail
}

func sameSealed(a, b []byte) bool { return (a == nil) == (b == nil) && bytes.Equal(a, b) }

// wantForwarders fails unless got is want, in order.
func wantForwarders(t *testing.T, what string, got []store.Forwarder, want ...store.Forwarder) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d forwarders %+v, want %d %+v", what, len(got), got, len(want), want)
	}
	for i := range got {
		if !sameForwarder(got[i], want[i]) {
			t.Errorf("%s[%d] = %+v, want %+v", what, i, got[i], want[i])
		}
	}
}

func testCreateForwarder(t *testing.T, e *env) {
	acct, _ := e.signup(1)
	f := newForwarder(acct.ID, "honeycomb")
	f.ID = 9999 // ignored
	f.CreatedAt = t0.Add(1234*time.Millisecond + 567891*time.Nanosecond)
	f.LastTest = store.ForwarderTest{At: t0, Status: "ok", Detail: "ignored"} // ignored
	got := e.createForwarder(f)
	if got.ID == 0 || got.ID == 9999 {
		t.Errorf("CreateForwarder assigned id %d", got.ID)
	}
	want := f
	want.ID = got.ID
	want.CreatedAt = t0.Add(1234 * time.Millisecond) // stored to the millisecond
	want.LastTest = store.ForwarderTest{}
	if !sameForwarder(got, want) {
		t.Errorf("CreateForwarder = %+v, want %+v", got, want)
	}
	if !got.LastTest.At.IsZero() {
		t.Errorf("a new forwarder was tested at %s", got.LastTest.At)
	}
	stored, err := e.s.Forwarder(e.ctx, acct.ID, got.ID)
	must(t, err)
	if !sameForwarder(stored, want) {
		t.Errorf("Forwarder = %+v, want %+v", stored, want)
	}
	wantForwarders(t, "ListForwarders", e.listForwarders(acct.ID), want)

	second := e.createForwarder(newForwarder(acct.ID, "tempo"))
	if second.ID == got.ID {
		t.Errorf("two forwarders share id %d", got.ID)
	}
	_, err = e.s.Forwarder(e.ctx, acct.ID, second.ID+1000)
	wantErr(t, err, errs.KindNotFound)
}

// testForwarderSealedBytes: sealed values come back byte for byte, every
// byte value included, and none (nil, or empty) comes back as nil.
func testForwarderSealedBytes(t *testing.T, e *env) {
	acct, _ := e.signup(1)
	all := make([]byte, 512)
	for i := range all {
		all[i] = byte(i) // 0x00 to 0xff, twice
	}
	cases := []struct {
		name          string
		auth, headers []byte
		wantAuth      []byte
		wantHeaders   []byte
	}{
		{"none", nil, nil, nil, nil},
		{"both", all, []byte{0}, all, []byte{0}},
		{"auth only", []byte{0xff, 0, 0xfe}, nil, []byte{0xff, 0, 0xfe}, nil},
		{"headers only", nil, all[:3], nil, all[:3]},
		{"empty is none", []byte{}, []byte{}, nil, nil},
	}
	var want []store.Forwarder
	for _, c := range cases {
		f := newForwarder(acct.ID, c.name)
		f.AuthSealed, f.HeadersSealed = bytes.Clone(c.auth), bytes.Clone(c.headers)
		if c.auth == nil {
			f.AuthHeader = ""
		}
		got := e.createForwarder(f)
		w := f
		w.ID, w.AuthSealed, w.HeadersSealed = got.ID, c.wantAuth, c.wantHeaders
		if !sameForwarder(got, w) {
			t.Errorf("%s: CreateForwarder = %+v, want %+v", c.name, got, w)
		}
		stored, err := e.s.Forwarder(e.ctx, acct.ID, got.ID)
		must(t, err)
		if !sameForwarder(stored, w) {
			t.Errorf("%s: Forwarder = auth %x headers %x, want %x %x (nil: %v %v)", c.name,
				stored.AuthSealed, stored.HeadersSealed, w.AuthSealed, w.HeadersSealed, w.AuthSealed == nil, w.HeadersSealed == nil)
		}
		want = append(want, w)
	}
	list := e.listForwarders(acct.ID)
	wantForwarders(t, "ListForwarders", list, want...)
	// The store hands out its own copies: changing them changes nothing.
	if len(list) > 1 && len(list[1].AuthSealed) > 0 {
		list[1].AuthSealed[0] ^= 0xff
		again, err := e.s.Forwarder(e.ctx, acct.ID, want[1].ID)
		must(t, err)
		if !sameForwarder(again, want[1]) {
			t.Errorf("changing a listed forwarder's bytes changed the stored one")
		}
	}
	// A test outcome recorded later keeps the sealed values.
	tested, err := e.s.RecordForwarderTest(e.ctx, acct.ID, want[1].ID, store.ForwarderTest{At: t0, Status: "ok"})
	must(t, err)
	if !sameSealed(tested.AuthSealed, all) || !sameSealed(tested.HeadersSealed, []byte{0}) {
		t.Errorf("RecordForwarderTest changed the sealed values: %x %x", tested.AuthSealed, tested.HeadersSealed)
	}
}

func testListForwarders(t *testing.T, e *env) {
	acct, _ := e.signup(1)
	other, _ := e.signup(1)
	if got := e.listForwarders(acct.ID); len(got) != 0 {
		t.Fatalf("a new account has forwarders %+v", got)
	}
	// Creation times run backwards: the order is by id, the order of
	// creation, not by the caller's CreatedAt.
	var want []store.Forwarder
	for i := range 4 {
		f := newForwarder(acct.ID, fmt.Sprintf("f%d", i))
		f.CreatedAt = t0.Add(-time.Duration(i) * time.Hour)
		want = append(want, e.createForwarder(f))
		e.createForwarder(newForwarder(other.ID, fmt.Sprintf("other%d", i))) // interleaved
	}
	wantForwarders(t, "ListForwarders", e.listForwarders(acct.ID), want...)
	for _, f := range e.listForwarders(other.ID) {
		if f.AccountID != other.ID {
			t.Errorf("ListForwarders(other) holds %+v", f)
		}
	}
	if got := e.listForwarders(1 << 40); len(got) != 0 {
		t.Errorf("ListForwarders(unknown account) = %+v, want none", got)
	}
}

func testDeleteForwarder(t *testing.T, e *env) {
	acct, _ := e.signup(1)
	a := e.createForwarder(newForwarder(acct.ID, "a"))
	b := e.createForwarder(newForwarder(acct.ID, "b"))
	c := e.createForwarder(newForwarder(acct.ID, "c"))
	must(t, e.s.DeleteForwarder(e.ctx, acct.ID, b.ID))
	_, err := e.s.Forwarder(e.ctx, acct.ID, b.ID)
	wantErr(t, err, errs.KindNotFound)
	wantForwarders(t, "after delete", e.listForwarders(acct.ID), a, c)
	wantErr(t, e.s.DeleteForwarder(e.ctx, acct.ID, b.ID), errs.KindNotFound)
	_, err = e.s.RecordForwarderTest(e.ctx, acct.ID, b.ID, store.ForwarderTest{At: t0, Status: "ok"})
	wantErr(t, err, errs.KindNotFound)
	must(t, e.s.DeleteForwarder(e.ctx, acct.ID, a.ID))
	must(t, e.s.DeleteForwarder(e.ctx, acct.ID, c.ID))
	if got := e.listForwarders(acct.ID); len(got) != 0 {
		t.Errorf("after deleting all: %+v", got)
	}
}

func testRecordForwarderTest(t *testing.T, e *env) {
	acct, _ := e.signup(1)
	f := e.createForwarder(newForwarder(acct.ID, "f"))
	g := e.createForwarder(newForwarder(acct.ID, "g"))

	steps := []struct {
		given, want store.ForwarderTest
	}{
		{ // times are kept to the millisecond
			store.ForwarderTest{At: t0.Add(90*time.Second + 1500*time.Microsecond), Status: "ok", Detail: "HTTP 200"},
			store.ForwarderTest{At: t0.Add(90*time.Second + time.Millisecond), Status: "ok", Detail: "HTTP 200"},
		},
		{ // a later outcome replaces the earlier, detail included
			store.ForwarderTest{At: t0.Add(time.Hour), Status: "failed", Detail: "dial tcp: connection refused ✗"},
			store.ForwarderTest{At: t0.Add(time.Hour), Status: "failed", Detail: "dial tcp: connection refused ✗"},
		},
		{
			store.ForwarderTest{At: t0.Add(2 * time.Hour), Status: "ok"},
			store.ForwarderTest{At: t0.Add(2 * time.Hour), Status: "ok"},
		},
	}
	for i, st := range steps {
		got, err := e.s.RecordForwarderTest(e.ctx, acct.ID, f.ID, st.given)
		must(t, err)
		want := f
		want.LastTest = st.want
		if !sameForwarder(got, want) {
			t.Errorf("step %d: RecordForwarderTest = %+v, want %+v", i, got, want)
		}
		stored, err := e.s.Forwarder(e.ctx, acct.ID, f.ID)
		must(t, err)
		if !sameForwarder(stored, want) {
			t.Errorf("step %d: Forwarder = %+v, want %+v", i, stored, want)
		}
		wantForwarders(t, fmt.Sprintf("step %d: ListForwarders", i), e.listForwarders(acct.ID), want, g)
	}
}

// testForwarderScoping checks that another account's forwarder is not
// found by any call, and stays unchanged.
func testForwarderScoping(t *testing.T, e *env) {
	mallory, _ := e.signup(1)
	victim, _ := e.signup(1)
	mine := e.createForwarder(newForwarder(mallory.ID, "mine"))
	theirs := e.createForwarder(newForwarder(victim.ID, "theirs"))

	_, err := e.s.Forwarder(e.ctx, mallory.ID, theirs.ID)
	wantErr(t, err, errs.KindNotFound)
	_, err = e.s.RecordForwarderTest(e.ctx, mallory.ID, theirs.ID, store.ForwarderTest{At: t0, Status: "failed", Detail: "pwned"})
	wantErr(t, err, errs.KindNotFound)
	wantErr(t, e.s.DeleteForwarder(e.ctx, mallory.ID, theirs.ID), errs.KindNotFound)

	got, err := e.s.Forwarder(e.ctx, victim.ID, theirs.ID)
	must(t, err)
	if !sameForwarder(got, theirs) {
		t.Errorf("victim's forwarder changed: %+v, want %+v", got, theirs)
	}
	wantForwarders(t, "ListForwarders(victim)", e.listForwarders(victim.ID), theirs)
	wantForwarders(t, "ListForwarders(mallory)", e.listForwarders(mallory.ID), mine)

	// The other way round too: the victim cannot reach mallory's.
	_, err = e.s.Forwarder(e.ctx, victim.ID, mine.ID)
	wantErr(t, err, errs.KindNotFound)
}

func testForwarderLimit(t *testing.T, e *env) {
	acct, _ := e.signup(1)
	other, _ := e.signup(1)
	const limit = 3
	var made []store.Forwarder
	for i := range limit {
		f, err := e.s.CreateForwarder(e.ctx, newForwarder(acct.ID, fmt.Sprint(i)), limit)
		must(t, err)
		made = append(made, f)
	}
	_, err := e.s.CreateForwarder(e.ctx, newForwarder(acct.ID, "one too many"), limit)
	wantErr(t, err, errs.KindConflict, "limit", fmt.Sprint(limit))
	wantForwarders(t, "at the limit", e.listForwarders(acct.ID), made...)

	// The limit counts the account's own forwarders only.
	if _, err := e.s.CreateForwarder(e.ctx, newForwarder(other.ID, "x"), 1); err != nil {
		t.Fatalf("another account's first forwarder: %v", err)
	}
	_, err = e.s.CreateForwarder(e.ctx, newForwarder(other.ID, "y"), 1)
	wantErr(t, err, errs.KindConflict)

	// A higher limit admits more; deleting frees a place.
	if _, err := e.s.CreateForwarder(e.ctx, newForwarder(acct.ID, "raised"), limit+1); err != nil {
		t.Fatalf("under a raised limit: %v", err)
	}
	_, err = e.s.CreateForwarder(e.ctx, newForwarder(acct.ID, "again"), limit+1)
	wantErr(t, err, errs.KindConflict)
	must(t, e.s.DeleteForwarder(e.ctx, acct.ID, made[0].ID))
	if _, err := e.s.CreateForwarder(e.ctx, newForwarder(acct.ID, "after delete"), limit+1); err != nil {
		t.Fatalf("after a delete: %v", err)
	}
	if n := len(e.listForwarders(acct.ID)); n != limit+1 {
		t.Errorf("%d forwarders, want %d", n, limit+1)
	}

	// A limit of 0 admits none.
	fresh, _ := e.signup(1)
	_, err = e.s.CreateForwarder(e.ctx, newForwarder(fresh.ID, "z"), 0)
	wantErr(t, err, errs.KindConflict)
	if got := e.listForwarders(fresh.ID); len(got) != 0 {
		t.Errorf("a refused forwarder was stored: %+v", got)
	}
}

func testForwarderRejected(t *testing.T, e *env) {
	acct, _ := e.signup(1)
	for _, endpoint := range []string{"", "   "} {
		f := newForwarder(acct.ID, "bad")
		f.Endpoint = endpoint
		_, err := e.s.CreateForwarder(e.ctx, f, fwdLimit)
		wantErr(t, err, errs.KindInvalid)
	}
	if got := e.listForwarders(acct.ID); len(got) != 0 {
		t.Errorf("an invalid forwarder was stored: %+v", got)
	}
	// An unknown account is not found, whatever the limit.
	for _, limit := range []int{fwdLimit, 0} {
		_, err := e.s.CreateForwarder(e.ctx, newForwarder(1<<40, "ghost"), limit)
		wantErr(t, err, errs.KindNotFound)
	}
	_, err := e.s.CreateForwarder(e.ctx, newForwarder(0, "no account"), fwdLimit)
	wantErr(t, err, errs.KindNotFound)
}

// testConcurrentForwarders: many concurrent creations against a limit, for
// two accounts at once; each account gets exactly limit forwarders and
// every other call is a conflict.
func testConcurrentForwarders(t *testing.T, e *env) {
	const limit, calls = 5, 40
	a, _ := e.signup(1)
	b, _ := e.signup(1)
	accounts := []int64{a.ID, b.ID}
	var ok [2]atomic.Int64
	race(2*calls, func(i int) {
		which := i % 2
		_, err := e.s.CreateForwarder(e.ctx, newForwarder(accounts[which], fmt.Sprint(i)), limit)
		switch {
		case err == nil:
			ok[which].Add(1)
		case !errs.Is(err, errs.KindConflict):
			t.Errorf("CreateForwarder %d: %v (kind %s), want success or conflict", i, err, errs.KindOf(err))
		}
	})
	for which, id := range accounts {
		if n := ok[which].Load(); n != limit {
			t.Errorf("account %d: %d creations succeeded, want exactly %d", id, n, limit)
		}
		fs := e.listForwarders(id)
		if len(fs) != limit {
			t.Errorf("account %d has %d forwarders, want %d", id, len(fs), limit)
		}
		for j := 1; j < len(fs); j++ {
			if fs[j].ID <= fs[j-1].ID {
				t.Errorf("account %d: forwarders not in id order: %d then %d", id, fs[j-1].ID, fs[j].ID)
			}
		}
	}
}
