package storetest

import (
	"bytes"
	"reflect"
	"testing"
	"time"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/store"
)

var webhookTests = []test{
	{"Webhooks/CreateGetAndScope", testDeliveryCreateGet},
	{"Webhooks/TryLogAndAttempts", testDeliveryTries},
	{"Webhooks/FinishAttemptAllOrNothing", testFinishAttemptAtomic},
	{"Webhooks/ConcurrentAttemptsKeepEveryTry", testConcurrentAttempts},
	{"Webhooks/ListAndDeadLetters", testDeliveryList},
	{"Webhooks/PendingOldestFirst", testPendingDeliveries},
}

// createDelivery stores a pending delivery of a job's event at.
func (e *env) createDelivery(accountID int64, jobID string, at time.Time) store.WebhookDelivery {
	e.t.Helper()
	d, err := e.s.CreateDelivery(e.ctx, store.WebhookDelivery{
		AccountID: accountID, EventID: jobID, JobID: jobID, URL: "https://hooks.example.com/in",
		Payload: []byte(`{"id":"` + jobID + `","status":"completed"}`), CreatedAt: at,
	})
	if err != nil {
		e.t.Fatalf("CreateDelivery: %v", err)
	}
	return d
}

// sameDelivery compares deliveries, times with Equal.
func sameDelivery(a, b store.WebhookDelivery) bool {
	return a.ID == b.ID && a.AccountID == b.AccountID && a.EventID == b.EventID && a.JobID == b.JobID &&
		a.URL == b.URL && bytes.Equal(a.Payload, b.Payload) && a.Status == b.Status && a.Attempts == b.Attempts &&
		a.LastStatusCode == b.LastStatusCode && a.LastError == b.LastError &&
		a.CreatedAt.Equal(b.CreatedAt) && a.UpdatedAt.Equal(b.UpdatedAt)
}

func deliveryIDs(ds []store.WebhookDelivery) []int64 {
	ids := make([]int64, len(ds))
	for i, d := range ds {
		ids[i] = d.ID
	}
	return ids
}

func testDeliveryCreateGet(t *testing.T, e *env) {
	acct, key := e.signup(100)
	other, _ := e.signup(100)
	j := e.createJob(key, 1, t0)
	payload := []byte(`{"id":"` + j.ID + `","status":"completed","data":{"markdown":"# Hi"}}`)
	d, err := e.s.CreateDelivery(e.ctx, store.WebhookDelivery{
		AccountID: acct.ID, EventID: j.ID, JobID: j.ID, URL: "https://hooks.example.com/in",
		Payload: payload, CreatedAt: t0,
	})
	must(t, err)
	want := store.WebhookDelivery{
		ID: d.ID, AccountID: acct.ID, EventID: j.ID, JobID: j.ID, URL: "https://hooks.example.com/in",
		Payload: payload, Status: store.DeliveryPending, CreatedAt: t0, UpdatedAt: d.UpdatedAt,
	}
	if d.ID == 0 || !sameDelivery(d, want) {
		t.Errorf("CreateDelivery = %+v, want a pending delivery with an id: %+v", d, want)
	}
	got, err := e.s.Delivery(e.ctx, acct.ID, d.ID)
	must(t, err)
	if !sameDelivery(got, d) {
		t.Errorf("Delivery = %+v, want %+v", got, d)
	}
	got, err = e.s.DeliveryByID(e.ctx, d.ID)
	must(t, err)
	if !sameDelivery(got, d) {
		t.Errorf("DeliveryByID = %+v, want %+v", got, d)
	}

	// A test delivery has no job.
	test, err := e.s.CreateDelivery(e.ctx, store.WebhookDelivery{
		AccountID: acct.ID, EventID: "test_0123abcd", URL: "https://hooks.example.com/test",
		Payload: []byte(`{"type":"test"}`), CreatedAt: t0,
	})
	must(t, err)
	if test.ID == d.ID || test.JobID != "" || test.EventID != "test_0123abcd" || test.Status != store.DeliveryPending {
		t.Errorf("test delivery = %+v", test)
	}

	_, err = e.s.Delivery(e.ctx, other.ID, d.ID)
	wantErr(t, err, errs.KindNotFound)
	unknown := d.ID + test.ID + 1000
	_, err = e.s.Delivery(e.ctx, acct.ID, unknown)
	wantErr(t, err, errs.KindNotFound)
	_, err = e.s.DeliveryByID(e.ctx, unknown)
	wantErr(t, err, errs.KindNotFound)
}

// finishAttempt records an attempt without tries.
func (e *env) finishAttempt(id int64, status store.DeliveryStatus, attempts, code int, lastError string, now time.Time) store.WebhookDelivery {
	e.t.Helper()
	d, err := e.s.FinishAttempt(e.ctx, store.AttemptRecord{
		DeliveryID: id, Status: status, Attempts: attempts, LastStatusCode: code, LastError: lastError, Now: now,
	})
	if err != nil {
		e.t.Fatalf("FinishAttempt(%d): %v", id, err)
	}
	return d
}

// sameTries compares a log with the tries recorded, of delivery id.
func sameTries(t *testing.T, log []store.DeliveryTry, id int64, want []store.DeliveryTry) {
	t.Helper()
	if len(log) != len(want) {
		t.Fatalf("DeliveryTries has %d tries, want %d: %+v", len(log), len(want), log)
	}
	for i, got := range log {
		w := want[i]
		if got.DeliveryID != id || got.Attempt != w.Attempt || got.Try != w.Try || got.StatusCode != w.StatusCode ||
			got.Error != w.Error || got.LatencyMS != w.LatencyMS || !got.At.Equal(w.At) {
			t.Errorf("try %d = %+v, want %+v of delivery %d", i, got, w, id)
		}
	}
}

func testDeliveryTries(t *testing.T, e *env) {
	acct, key := e.signup(100)
	other, _ := e.signup(100)
	j := e.createJob(key, 1, t0)
	d := e.createDelivery(acct.ID, j.ID, t0)
	quiet := e.createDelivery(acct.ID, j.ID, t0)

	// The tries' DeliveryID is the record's: the first attempt's leave it
	// zero, the second's repeat it.
	first := []store.DeliveryTry{
		{Attempt: 1, Try: 1, StatusCode: 0, Error: "dial tcp: connection refused", LatencyMS: 3.5, At: t0.Add(time.Second)},
		{Attempt: 1, Try: 2, StatusCode: 503, Error: "HTTP 503", LatencyMS: 120.25, At: t0.Add(2 * time.Second)},
	}
	second := []store.DeliveryTry{{DeliveryID: d.ID, Attempt: 2, Try: 1, StatusCode: 200, LatencyMS: 80, At: t0.Add(time.Minute)}}
	afterFirst, err := e.s.FinishAttempt(e.ctx, store.AttemptRecord{
		DeliveryID: d.ID, Status: store.DeliveryPending, Attempts: 1, LastStatusCode: 503, LastError: "HTTP 503",
		Tries: first, Now: t0.Add(3 * time.Second),
	})
	must(t, err)
	want := d
	want.Attempts, want.LastStatusCode, want.LastError, want.UpdatedAt = 1, 503, "HTTP 503", t0.Add(3*time.Second)
	if !sameDelivery(afterFirst, want) {
		t.Errorf("FinishAttempt(1) = %+v, want %+v", afterFirst, want)
	}
	log, err := e.s.DeliveryTries(e.ctx, acct.ID, d.ID)
	must(t, err)
	sameTries(t, log, d.ID, first)

	delivered, err := e.s.FinishAttempt(e.ctx, store.AttemptRecord{
		DeliveryID: d.ID, Status: store.DeliveryDelivered, Attempts: 2, LastStatusCode: 200,
		Tries: second, Now: t0.Add(time.Minute),
	})
	must(t, err)
	want.Status, want.Attempts, want.LastStatusCode, want.LastError, want.UpdatedAt =
		store.DeliveryDelivered, 2, 200, "", t0.Add(time.Minute)
	if !sameDelivery(delivered, want) {
		t.Errorf("FinishAttempt(2) = %+v, want %+v", delivered, want)
	}
	if got, err := e.s.DeliveryByID(e.ctx, d.ID); err != nil || !sameDelivery(got, want) {
		t.Errorf("DeliveryByID after FinishAttempt = %+v, %v; want %+v", got, err, want)
	}
	log, err = e.s.DeliveryTries(e.ctx, acct.ID, d.ID)
	must(t, err)
	sameTries(t, log, d.ID, append(first, second...))

	// An attempt without tries (say, one whose URL was refused) changes
	// only the delivery; a delivery never tried has an empty log.
	e.finishAttempt(quiet.ID, store.DeliveryDead, 1, 0, "URL refused", t0.Add(time.Minute))
	empty, err := e.s.DeliveryTries(e.ctx, acct.ID, quiet.ID)
	must(t, err)
	if len(empty) != 0 {
		t.Errorf("DeliveryTries of a delivery never tried = %+v, want none", empty)
	}

	// Scoping: another account sees neither the delivery nor its log.
	_, err = e.s.DeliveryTries(e.ctx, other.ID, d.ID)
	wantErr(t, err, errs.KindNotFound)
	_, err = e.s.Delivery(e.ctx, other.ID, d.ID)
	wantErr(t, err, errs.KindNotFound)
	unknown := d.ID + quiet.ID + 1000
	_, err = e.s.DeliveryTries(e.ctx, acct.ID, unknown)
	wantErr(t, err, errs.KindNotFound)
	_, err = e.s.FinishAttempt(e.ctx, store.AttemptRecord{
		DeliveryID: unknown, Status: store.DeliveryDead, Attempts: 1, LastError: "x",
		Tries: []store.DeliveryTry{{Attempt: 1, Try: 1, At: t0}}, Now: t0,
	})
	wantErr(t, err, errs.KindNotFound)
}

// testFinishAttemptAtomic: a record the store refuses (a try numbered 0
// after valid ones) changes neither the delivery nor its log.
func testFinishAttemptAtomic(t *testing.T, e *env) {
	acct, key := e.signup(100)
	d := e.createDelivery(acct.ID, e.createJob(key, 1, t0).ID, t0)
	for _, bad := range []store.DeliveryTry{{Attempt: 1, Try: 0, At: t0}, {Attempt: 0, Try: 1, At: t0}} {
		_, err := e.s.FinishAttempt(e.ctx, store.AttemptRecord{
			DeliveryID: d.ID, Status: store.DeliveryDead, Attempts: 1, LastStatusCode: 500, LastError: "HTTP 500",
			Tries: []store.DeliveryTry{{Attempt: 1, Try: 1, StatusCode: 500, At: t0}, bad}, Now: t0.Add(time.Hour),
		})
		if err == nil {
			t.Errorf("FinishAttempt with the try %+v succeeded", bad)
		}
	}
	if got, err := e.s.DeliveryByID(e.ctx, d.ID); err != nil || !sameDelivery(got, d) {
		t.Errorf("delivery after refused FinishAttempts = %+v, %v; want it unchanged: %+v", got, err, d)
	}
	if log, err := e.s.DeliveryTries(e.ctx, acct.ID, d.ID); err != nil || len(log) != 0 {
		t.Errorf("log after refused FinishAttempts = %+v, %v; want empty", log, err)
	}
}

// testConcurrentAttempts: attempts recorded at once (workers racing after
// a restart) each append all their tries to the right delivery's log.
func testConcurrentAttempts(t *testing.T, e *env) {
	acct, key := e.signup(100)
	j := e.createJob(key, 1, t0)
	d := e.createDelivery(acct.ID, j.ID, t0)
	bystander := e.createDelivery(acct.ID, j.ID, t0)
	const attempts, tries = 10, 3
	race(attempts, func(i int) {
		rec := store.AttemptRecord{DeliveryID: d.ID, Status: store.DeliveryPending, Attempts: i + 1, Now: t0.Add(time.Hour)}
		for k := range tries {
			rec.Tries = append(rec.Tries, store.DeliveryTry{Attempt: i + 1, Try: k + 1, StatusCode: 503, At: t0.Add(time.Minute)})
		}
		if _, err := e.s.FinishAttempt(e.ctx, rec); err != nil {
			t.Errorf("FinishAttempt %d: %v", i, err)
		}
	})
	log, err := e.s.DeliveryTries(e.ctx, acct.ID, d.ID)
	must(t, err)
	count := map[int]int{}
	for _, tr := range log {
		if tr.DeliveryID != d.ID || tr.Try < 1 || tr.Try > tries {
			t.Errorf("logged try %+v", tr)
		}
		count[tr.Attempt]++
	}
	for a := 1; a <= attempts; a++ {
		if count[a] != tries {
			t.Errorf("attempt %d has %d tries in the log, want %d", a, count[a], tries)
		}
	}
	if len(log) != attempts*tries {
		t.Errorf("log has %d tries, want %d", len(log), attempts*tries)
	}
	if other, err := e.s.DeliveryTries(e.ctx, acct.ID, bystander.ID); err != nil || len(other) != 0 {
		t.Errorf("another delivery's log = %+v, %v; want empty", other, err)
	}
}

func testDeliveryList(t *testing.T, e *env) {
	acct, key := e.signup(100)
	other, otherKey := e.signup(100)
	var ds []store.WebhookDelivery // oldest first
	for i := range 5 {
		ds = append(ds, e.createDelivery(acct.ID, e.createJob(key, 1, t0).ID, t0.Add(time.Duration(i)*time.Minute)))
	}
	theirs := e.createDelivery(other.ID, e.createJob(otherKey, 1, t0).ID, t0.Add(time.Hour))
	theirsDead := e.finishAttempt(theirs.ID, store.DeliveryDead, 5, 500, "HTTP 500", t0.Add(2*time.Hour))
	for _, i := range []int{1, 3} {
		ds[i] = e.finishAttempt(ds[i].ID, store.DeliveryDead, 5, 0, "timeout", t0.Add(time.Hour))
	}
	ds[4] = e.finishAttempt(ds[4].ID, store.DeliveryDelivered, 1, 204, "", t0.Add(time.Hour))

	for _, page := range []struct {
		dead          bool
		limit, offset int
		want          []int64
	}{
		{false, 10, 0, []int64{ds[4].ID, ds[3].ID, ds[2].ID, ds[1].ID, ds[0].ID}},
		{false, 2, 0, []int64{ds[4].ID, ds[3].ID}},
		{false, 2, 2, []int64{ds[2].ID, ds[1].ID}},
		{false, 2, 4, []int64{ds[0].ID}},
		{true, 10, 0, []int64{ds[3].ID, ds[1].ID}},
		{true, 1, 1, []int64{ds[1].ID}},
		{true, 1, 2, []int64{}},
	} {
		got, err := e.s.ListDeliveries(e.ctx, store.DeliveryQuery{AccountID: acct.ID, DeadOnly: page.dead, Limit: page.limit, Offset: page.offset})
		must(t, err)
		if ids := deliveryIDs(got); !reflect.DeepEqual(ids, page.want) {
			t.Errorf("ListDeliveries(dead %v, limit %d, offset %d) = %v, want %v", page.dead, page.limit, page.offset, ids, page.want)
		}
	}
	all, err := e.s.ListDeliveries(e.ctx, store.DeliveryQuery{AccountID: acct.ID, Limit: 10})
	must(t, err)
	for i, d := range all {
		if want := ds[len(ds)-1-i]; !sameDelivery(d, want) {
			t.Errorf("listed delivery %d = %+v, want %+v", i, d, want)
		}
	}
	for _, dead := range []bool{false, true} {
		got, err := e.s.ListDeliveries(e.ctx, store.DeliveryQuery{AccountID: other.ID, DeadOnly: dead, Limit: 10})
		must(t, err)
		if len(got) != 1 || !sameDelivery(got[0], theirsDead) {
			t.Errorf("ListDeliveries(other account, dead %v) = %+v, want only %+v", dead, got, theirsDead)
		}
	}
}

// testPendingDeliveries: every account's pending deliveries, also those
// with failed attempts, oldest first; delivered and dead ones are not.
func testPendingDeliveries(t *testing.T, e *env) {
	acct, key := e.signup(100)
	other, otherKey := e.signup(100)
	later := e.createDelivery(acct.ID, e.createJob(key, 1, t0).ID, t0.Add(2*time.Minute))
	first := e.createDelivery(other.ID, e.createJob(otherKey, 1, t0).ID, t0)
	retrying := e.createDelivery(acct.ID, e.createJob(key, 1, t0).ID, t0.Add(3*time.Minute))
	retrying = e.finishAttempt(retrying.ID, store.DeliveryPending, 1, 503, "HTTP 503", t0.Add(4*time.Minute))
	for status, at := range map[store.DeliveryStatus]time.Time{store.DeliveryDelivered: t0.Add(time.Minute), store.DeliveryDead: t0.Add(-time.Hour)} {
		d := e.createDelivery(acct.ID, e.createJob(key, 1, t0).ID, at)
		e.finishAttempt(d.ID, status, 1, 0, "", at.Add(time.Second))
	}

	got, err := e.s.PendingDeliveries(e.ctx, 10)
	must(t, err)
	if ids, want := deliveryIDs(got), []int64{first.ID, later.ID, retrying.ID}; !reflect.DeepEqual(ids, want) {
		t.Errorf("PendingDeliveries = %v, want %v (pending only, every account, oldest first)", ids, want)
	}
	if len(got) == 3 && !sameDelivery(got[2], retrying) {
		t.Errorf("pending delivery = %+v, want %+v", got[2], retrying)
	}
	got, err = e.s.PendingDeliveries(e.ctx, 2)
	must(t, err)
	if ids, want := deliveryIDs(got), []int64{first.ID, later.ID}; !reflect.DeepEqual(ids, want) {
		t.Errorf("PendingDeliveries(limit 2) = %v, want %v", ids, want)
	}
}
