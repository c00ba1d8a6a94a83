package storetest

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"reflect"
	"sync/atomic"
	"testing"
	"time"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/store"
)

var jobTests = []test{
	{"Jobs/CreateGetAndScope", testJobCreateGet},
	{"Jobs/DuplicateIDIsConflict", testJobDuplicateID},
	{"Jobs/ListNewestFirstAndPaging", testJobList},
	{"Jobs/StartCountsAttempts", testJobStart},
	{"Jobs/FinishCompleted", testJobFinishCompleted},
	{"Jobs/FinishFailedRefunds", testJobFinishFailedRefund},
	{"Jobs/RefundCappedAtCredits", testJobRefundCap},
	{"Jobs/FinishTwiceIsConflict", testJobFinishTwice},
	{"Jobs/FinishOnceUnderConcurrency", testJobFinishOnceConcurrent},
	{"Jobs/FinishNeedsAFinalStatus", testJobFinishNotFinal},
	{"Jobs/FinishHandsOffDelivery", testJobFinishDelivery},
	{"Jobs/UnfinishedOldestFirst", testJobsUnfinished},
	{"Jobs/FinishDropsSecrets", testJobFinishDropsSecrets},
	{"Jobs/Files", testJobFiles},
}

// testJobFinishDropsSecrets: the input's secrets member lives only while
// the job does; the rest of the input stays, completed or failed.
func testJobFinishDropsSecrets(t *testing.T, e *env) {
	_, key := e.signup(100)
	for _, status := range []store.JobStatus{store.JobCompleted, store.JobFailed} {
		j, err := e.s.CreateJob(e.ctx, store.Job{
			ID: newJobID(), AccountID: key.AccountID, KeyID: key.ID, Kind: "scrape",
			Input:   json.RawMessage(`{"url":"https://example.com/","` + store.SecretsField + `":"d3NiMTpzZWFsZWQ="}`),
			Credits: 1, CreatedAt: t0,
		})
		must(t, err)
		if got := e.getJob(j.ID); !sameJSON(got.Input, j.Input) {
			t.Fatalf("a queued job's input changed: %s", got.Input)
		}
		_, err = e.s.FinishJob(e.ctx, store.JobOutcome{JobID: j.ID, Status: status, Error: "x", Now: t0.Add(time.Minute)})
		must(t, err)
		if got := e.getJob(j.ID); !sameJSON(got.Input, json.RawMessage(`{"url":"https://example.com/"}`)) {
			t.Errorf("%s job's input after FinishJob: %s", status, got.Input)
		}
	}
}

// jobInput is the request body every test job carries.
var jobInput = json.RawMessage(`{"url":"https://example.com/","formats":["markdown"]}`)

// newJobID returns a fresh "job_" + random hex id.
func newJobID() string {
	raw := make([]byte, 12)
	if _, err := rand.Read(raw); err != nil {
		panic(err)
	}
	return "job_" + hex.EncodeToString(raw)
}

// createJob stores a queued scrape job of the key, charged credits, at.
func (e *env) createJob(key store.Key, credits int64, at time.Time) store.Job {
	e.t.Helper()
	j, err := e.s.CreateJob(e.ctx, store.Job{
		ID: newJobID(), AccountID: key.AccountID, KeyID: key.ID, Kind: "scrape", Input: jobInput,
		WebhookURL: "https://hooks.example.com/in", Credits: credits, CreatedAt: at,
	})
	if err != nil {
		e.t.Fatalf("CreateJob: %v", err)
	}
	return j
}

func (e *env) getJob(id string) store.Job {
	e.t.Helper()
	j, err := e.s.GetJob(e.ctx, id)
	if err != nil {
		e.t.Fatalf("GetJob(%s): %v", id, err)
	}
	return j
}

// sameJSON reports whether two documents are equal as JSON values (a
// driver may store them normalized); empty documents equal only each
// other.
func sameJSON(a, b json.RawMessage) bool {
	if len(a) == 0 || len(b) == 0 {
		return len(a) == len(b)
	}
	var va, vb any
	if json.Unmarshal(a, &va) != nil || json.Unmarshal(b, &vb) != nil {
		return bytes.Equal(a, b)
	}
	return reflect.DeepEqual(va, vb)
}

// sameJob compares jobs, times with Equal and documents as JSON.
func sameJob(a, b store.Job) bool {
	return a.ID == b.ID && a.AccountID == b.AccountID && a.KeyID == b.KeyID && a.Kind == b.Kind &&
		sameJSON(a.Input, b.Input) && a.Status == b.Status && a.Attempts == b.Attempts &&
		sameJSON(a.Result, b.Result) && a.Error == b.Error && a.WebhookURL == b.WebhookURL &&
		a.DeliveryID == b.DeliveryID && a.Credits == b.Credits && a.Refunded == b.Refunded &&
		a.CreatedAt.Equal(b.CreatedAt) && a.StartedAt.Equal(b.StartedAt) && a.FinishedAt.Equal(b.FinishedAt)
}

func jobIDs(jobs []store.Job) []string {
	ids := make([]string, len(jobs))
	for i, j := range jobs {
		ids[i] = j.ID
	}
	return ids
}

// refunds returns the account's ledger rows of reason "refund".
func (e *env) refunds(accountID int64) []store.LedgerEntry {
	e.t.Helper()
	var out []store.LedgerEntry
	for _, l := range e.ledger(accountID) {
		if l.Reason == "refund" {
			out = append(out, l)
		}
	}
	return out
}

// jobDelivery is the webhook delivery of the job's final state, created
// at, as a worker hands it to FinishJob.
func jobDelivery(j store.Job, status store.JobStatus, at time.Time) *store.WebhookDelivery {
	return &store.WebhookDelivery{
		AccountID: j.AccountID, EventID: j.ID, JobID: j.ID, URL: j.WebhookURL,
		Payload: []byte(`{"job_id":"` + j.ID + `","status":"` + string(status) + `"}`), CreatedAt: at,
	}
}

// deliveries returns the account's deliveries, newest first.
func (e *env) deliveries(accountID int64) []store.WebhookDelivery {
	e.t.Helper()
	ds, err := e.s.ListDeliveries(e.ctx, store.DeliveryQuery{AccountID: accountID, Limit: 1000})
	if err != nil {
		e.t.Fatalf("ListDeliveries: %v", err)
	}
	return ds
}

func testJobCreateGet(t *testing.T, e *env) {
	acct, key := e.signup(100)
	other, _ := e.signup(100)
	id := newJobID()
	j, err := e.s.CreateJob(e.ctx, store.Job{
		ID: id, AccountID: acct.ID, KeyID: key.ID, Kind: "crawl", Input: jobInput,
		WebhookURL: "https://hooks.example.com/in", Credits: 25, CreatedAt: t0,
		// A new job is queued whatever the caller passes here.
		Status: store.JobCompleted, Attempts: 3,
	})
	must(t, err)
	want := store.Job{
		ID: id, AccountID: acct.ID, KeyID: key.ID, Kind: "crawl", Input: jobInput, Status: store.JobQueued,
		WebhookURL: "https://hooks.example.com/in", Credits: 25, CreatedAt: t0,
	}
	if !sameJob(j, want) {
		t.Errorf("CreateJob = %+v, want %+v", j, want)
	}
	got, err := e.s.JobByID(e.ctx, acct.ID, id)
	must(t, err)
	if !sameJob(got, want) {
		t.Errorf("JobByID = %+v, want %+v", got, want)
	}
	if got := e.getJob(id); !sameJob(got, want) {
		t.Errorf("GetJob = %+v, want %+v", got, want)
	}
	if !got.StartedAt.IsZero() || !got.FinishedAt.IsZero() {
		t.Errorf("a queued job has StartedAt %v, FinishedAt %v; want both zero", got.StartedAt, got.FinishedAt)
	}

	_, err = e.s.JobByID(e.ctx, other.ID, id)
	wantErr(t, err, errs.KindNotFound)
	_, err = e.s.JobByID(e.ctx, acct.ID, newJobID())
	wantErr(t, err, errs.KindNotFound)
	_, err = e.s.GetJob(e.ctx, newJobID())
	wantErr(t, err, errs.KindNotFound)
}

func testJobDuplicateID(t *testing.T, e *env) {
	_, key := e.signup(100)
	_, otherKey := e.signup(100)
	first := e.createJob(key, 5, t0)
	for _, k := range []store.Key{key, otherKey} {
		_, err := e.s.CreateJob(e.ctx, store.Job{
			ID: first.ID, AccountID: k.AccountID, KeyID: k.ID, Kind: "batch_scrape",
			Input: json.RawMessage(`{}`), Credits: 1, CreatedAt: t0.Add(time.Minute),
		})
		wantErr(t, err, errs.KindConflict)
	}
	if got := e.getJob(first.ID); !sameJob(got, first) {
		t.Errorf("job after a duplicate CreateJob = %+v, want %+v", got, first)
	}
}

func testJobList(t *testing.T, e *env) {
	acct, key := e.signup(100)
	other, otherKey := e.signup(100)
	var ids []string // oldest first
	for i := range 5 {
		ids = append(ids, e.createJob(key, 1, t0.Add(time.Duration(i)*time.Minute)).ID)
	}
	theirs := e.createJob(otherKey, 1, t0.Add(time.Hour))

	for _, page := range []struct {
		limit, offset int
		want          []string
	}{
		{10, 0, []string{ids[4], ids[3], ids[2], ids[1], ids[0]}},
		{2, 0, []string{ids[4], ids[3]}},
		{2, 2, []string{ids[2], ids[1]}},
		{2, 4, []string{ids[0]}},
		{2, 6, []string{}},
	} {
		got, err := e.s.ListJobs(e.ctx, acct.ID, page.limit, page.offset)
		must(t, err)
		if ids := jobIDs(got); !reflect.DeepEqual(ids, page.want) {
			t.Errorf("ListJobs(limit %d, offset %d) = %v, want %v", page.limit, page.offset, ids, page.want)
		}
	}
	got, err := e.s.ListJobs(e.ctx, other.ID, 10, 0)
	must(t, err)
	if len(got) != 1 || !sameJob(got[0], theirs) {
		t.Errorf("ListJobs(other account) = %+v, want only %+v", got, theirs)
	}
}

func testJobStart(t *testing.T, e *env) {
	_, key := e.signup(100)
	j := e.createJob(key, 5, t0)
	first, second := t0.Add(time.Second), t0.Add(time.Minute)

	got, err := e.s.StartJob(e.ctx, j.ID, first)
	must(t, err)
	if got.Status != store.JobRunning || got.Attempts != 1 || !got.StartedAt.Equal(first) || !got.FinishedAt.IsZero() {
		t.Errorf("first StartJob = %+v, want running, 1 attempt, started at %v", got, first)
	}
	// A retry after a crash: running again, the first start time kept.
	got, err = e.s.StartJob(e.ctx, j.ID, second)
	must(t, err)
	if got.Status != store.JobRunning || got.Attempts != 2 || !got.StartedAt.Equal(first) {
		t.Errorf("second StartJob = %+v, want running, 2 attempts, started at %v", got, first)
	}
	if stored := e.getJob(j.ID); !sameJob(stored, got) {
		t.Errorf("GetJob after StartJob = %+v, want %+v", stored, got)
	}

	done, err := e.s.FinishJob(e.ctx, store.JobOutcome{
		JobID: j.ID, Status: store.JobCompleted, Result: json.RawMessage(`{"ok":true}`), Now: second.Add(time.Second),
	})
	must(t, err)
	got, err = e.s.StartJob(e.ctx, j.ID, second.Add(time.Hour))
	wantErr(t, err, errs.KindConflict)
	if !sameJob(got, done) {
		t.Errorf("StartJob of a final job returned %+v, want it unchanged: %+v", got, done)
	}
	if stored := e.getJob(j.ID); !sameJob(stored, done) {
		t.Errorf("GetJob after refused StartJob = %+v, want %+v", stored, done)
	}

	_, err = e.s.StartJob(e.ctx, newJobID(), first)
	wantErr(t, err, errs.KindNotFound)
}

func testJobFinishCompleted(t *testing.T, e *env) {
	acct, key := e.signup(100)
	j := e.createJob(key, 10, t0)
	_, err := e.s.StartJob(e.ctx, j.ID, t0.Add(time.Second))
	must(t, err)
	result := json.RawMessage(`{"markdown":"# Example","status":200}`)
	end := t0.Add(time.Minute)
	got, err := e.s.FinishJob(e.ctx, store.JobOutcome{JobID: j.ID, Status: store.JobCompleted, Result: result, Now: end})
	must(t, err)
	want := j
	want.Status, want.Attempts, want.Result = store.JobCompleted, 1, result
	want.StartedAt, want.FinishedAt = t0.Add(time.Second), end
	if !sameJob(got, want) {
		t.Errorf("FinishJob = %+v, want %+v", got, want)
	}
	if stored := e.getJob(j.ID); !sameJob(stored, want) {
		t.Errorf("GetJob after FinishJob = %+v, want %+v", stored, want)
	}
	if bal := e.balance(acct.ID); bal != 100 {
		t.Errorf("balance = %d after a finish without refund, want 100", bal)
	}
	if r := e.refunds(acct.ID); len(r) != 0 {
		t.Errorf("refund rows %+v after a finish without refund, want none", r)
	}
	if ds := e.deliveries(acct.ID); len(ds) != 0 {
		t.Errorf("deliveries %+v after a finish without one, want none", ds)
	}

	// A queued job (its worker never started it) can be finished too.
	queued := e.createJob(key, 3, t0)
	got, err = e.s.FinishJob(e.ctx, store.JobOutcome{JobID: queued.ID, Status: store.JobFailed, Error: "cancelled", Now: end})
	must(t, err)
	if got.Status != store.JobFailed || got.Error != "cancelled" || got.Attempts != 0 || !got.FinishedAt.Equal(end) {
		t.Errorf("FinishJob(queued) = %+v, want failed, 0 attempts, finished at %v", got, end)
	}

	_, err = e.s.FinishJob(e.ctx, store.JobOutcome{JobID: newJobID(), Status: store.JobCompleted, Now: end})
	wantErr(t, err, errs.KindNotFound)
}

func testJobFinishFailedRefund(t *testing.T, e *env) {
	acct, key := e.signup(100)
	e.charge(key, 10, t0) // accepting the job charged it: 90
	j := e.createJob(key, 10, t0)
	_, err := e.s.StartJob(e.ctx, j.ID, t0)
	must(t, err)
	partial := json.RawMessage(`{"pages":[{"url":"https://example.com/"}]}`)
	end := t0.Add(time.Minute)
	got, err := e.s.FinishJob(e.ctx, store.JobOutcome{
		JobID: j.ID, Status: store.JobFailed, Result: partial, Error: "upstream: 502", Refund: 4, Now: end,
	})
	must(t, err)
	if got.Status != store.JobFailed || got.Error != "upstream: 502" || !sameJSON(got.Result, partial) ||
		got.Refunded != 4 || got.Credits != 10 || !got.FinishedAt.Equal(end) {
		t.Errorf("FinishJob = %+v, want failed with its error and partial result, 4 of 10 refunded", got)
	}
	if stored := e.getJob(j.ID); !sameJob(stored, got) {
		t.Errorf("GetJob after FinishJob = %+v, want %+v", stored, got)
	}
	if bal := e.balance(acct.ID); bal != 94 {
		t.Errorf("balance = %d, want 94", bal)
	}
	ledger := e.ledger(acct.ID)
	if len(ledger) != 3 {
		t.Fatalf("ledger has %d rows, want 3 (grant, charge, refund): %+v", len(ledger), ledger)
	}
	if l := ledger[0]; l.Delta != 4 || l.Balance != 94 || l.Reason != "refund" || l.RequestID != j.ID ||
		l.Endpoint != "job:scrape" || !l.CreatedAt.Equal(end) || l.ID <= ledger[1].ID {
		t.Errorf("refund row = %+v, want delta 4, balance 94, reason refund, request id %s, endpoint job:scrape at %v",
			l, j.ID, end)
	}
	// The refunded credits can be spent again.
	e.charge(key, 94, end)
}

func testJobRefundCap(t *testing.T, e *env) {
	acct, key := e.signup(100)
	j := e.createJob(key, 10, t0)
	got, err := e.s.FinishJob(e.ctx, store.JobOutcome{JobID: j.ID, Status: store.JobFailed, Error: "x", Refund: 25, Now: t0})
	must(t, err)
	if got.Refunded != 10 {
		t.Errorf("Refunded = %d, want 10 (capped at the job's credits)", got.Refunded)
	}
	if bal := e.balance(acct.ID); bal != 110 {
		t.Errorf("balance = %d, want 110", bal)
	}
	if r := e.refunds(acct.ID); len(r) != 1 || r[0].Delta != 10 {
		t.Errorf("refund rows = %+v, want one of 10", r)
	}

	// A job accepted for free refunds nothing and writes no ledger row.
	free := e.createJob(key, 0, t0)
	got, err = e.s.FinishJob(e.ctx, store.JobOutcome{JobID: free.ID, Status: store.JobFailed, Error: "x", Refund: 5, Now: t0})
	must(t, err)
	if got.Refunded != 0 || e.balance(acct.ID) != 110 || len(e.refunds(acct.ID)) != 1 {
		t.Errorf("free job: Refunded %d, balance %d, %d refund rows; want 0, 110, 1",
			got.Refunded, e.balance(acct.ID), len(e.refunds(acct.ID)))
	}
}

func testJobFinishTwice(t *testing.T, e *env) {
	acct, key := e.signup(100)
	j := e.createJob(key, 10, t0)
	first, err := e.s.FinishJob(e.ctx, store.JobOutcome{
		JobID: j.ID, Status: store.JobFailed, Error: "first", Refund: 5,
		Delivery: jobDelivery(j, store.JobFailed, t0.Add(time.Second)), Now: t0.Add(time.Second),
	})
	must(t, err)
	for _, o := range []store.JobOutcome{
		{JobID: j.ID, Status: store.JobFailed, Error: "second", Refund: 5, Now: t0.Add(time.Minute)},
		{JobID: j.ID, Status: store.JobFailed, Error: "third", Refund: 5,
			Delivery: jobDelivery(j, store.JobFailed, t0.Add(time.Minute)), Now: t0.Add(time.Minute)},
		{JobID: j.ID, Status: store.JobCompleted, Result: json.RawMessage(`{"late":true}`), Refund: 10,
			Delivery: jobDelivery(j, store.JobCompleted, t0.Add(time.Hour)), Now: t0.Add(time.Hour)},
	} {
		_, err := e.s.FinishJob(e.ctx, o)
		wantErr(t, err, errs.KindConflict)
	}
	if stored := e.getJob(j.ID); !sameJob(stored, first) {
		t.Errorf("job after refused FinishJobs = %+v, want it unchanged: %+v", stored, first)
	}
	if bal := e.balance(acct.ID); bal != 105 {
		t.Errorf("balance = %d, want 105 (one refund of 5)", bal)
	}
	if r := e.refunds(acct.ID); len(r) != 1 || r[0].Delta != 5 {
		t.Errorf("refund rows = %+v, want exactly one of 5", r)
	}
	if ds := e.deliveries(acct.ID); len(ds) != 1 || ds[0].ID != first.DeliveryID {
		t.Errorf("deliveries = %v, want only the first FinishJob's, %d", deliveryIDs(ds), first.DeliveryID)
	}
}

// testJobFinishOnceConcurrent: 20 workers finish the same job at once,
// each with its webhook delivery; one wins, the others get a conflict, and
// the job is refunded once and has one delivery.
func testJobFinishOnceConcurrent(t *testing.T, e *env) {
	acct, key := e.signup(100)
	j := e.createJob(key, 10, t0)
	_, err := e.s.StartJob(e.ctx, j.ID, t0)
	must(t, err)
	var ok, won atomic.Int64
	race(20, func(i int) {
		now := t0.Add(time.Duration(i) * time.Second)
		got, err := e.s.FinishJob(e.ctx, store.JobOutcome{
			JobID: j.ID, Status: store.JobFailed, Error: "boom", Refund: 10,
			Delivery: jobDelivery(j, store.JobFailed, now), Now: now,
		})
		switch {
		case err == nil:
			ok.Add(1)
			won.Store(got.DeliveryID)
		case errs.KindOf(err) != errs.KindConflict:
			t.Errorf("FinishJob %d: %v, want success or conflict", i, err)
		}
	})
	if ok.Load() != 1 {
		t.Errorf("%d concurrent FinishJobs succeeded, want exactly 1", ok.Load())
	}
	if bal := e.balance(acct.ID); bal != 110 {
		t.Errorf("balance = %d, want 110 (one refund of 10)", bal)
	}
	if r := e.refunds(acct.ID); len(r) != 1 {
		t.Errorf("%d refund rows, want 1: %+v", len(r), r)
	}
	got := e.getJob(j.ID)
	if got.Status != store.JobFailed || got.Refunded != 10 || got.DeliveryID == 0 || got.DeliveryID != won.Load() {
		t.Errorf("job = %+v, want failed with 10 refunded and the winner's delivery %d", got, won.Load())
	}
	if ds := e.deliveries(acct.ID); len(ds) != 1 || ds[0].ID != got.DeliveryID || ds[0].JobID != j.ID {
		t.Errorf("deliveries = %+v, want exactly one, the job's (%d)", ds, got.DeliveryID)
	}
	pending, err := e.s.PendingDeliveries(e.ctx, 0)
	must(t, err)
	if len(pending) != 1 || pending[0].ID != got.DeliveryID {
		t.Errorf("PendingDeliveries = %v, want only %d", deliveryIDs(pending), got.DeliveryID)
	}
}

// testJobFinishNotFinal: an outcome must be completed or failed; anything
// else is refused and changes nothing.
func testJobFinishNotFinal(t *testing.T, e *env) {
	acct, key := e.signup(100)
	j := e.createJob(key, 10, t0)
	for _, s := range []store.JobStatus{store.JobQueued, store.JobRunning, "", "cancelled"} {
		_, err := e.s.FinishJob(e.ctx, store.JobOutcome{
			JobID: j.ID, Status: s, Refund: 10, Delivery: jobDelivery(j, s, t0), Now: t0,
		})
		if err == nil {
			t.Errorf("FinishJob with status %q succeeded", s)
		}
	}
	if got := e.getJob(j.ID); !sameJob(got, j) {
		t.Errorf("job after refused FinishJobs = %+v, want %+v", got, j)
	}
	if bal := e.balance(acct.ID); bal != 100 {
		t.Errorf("balance = %d, want 100", bal)
	}
	if ds := e.deliveries(acct.ID); len(ds) != 0 {
		t.Errorf("deliveries after refused FinishJobs = %+v, want none", ds)
	}
}

// testJobFinishDelivery: FinishJob with a delivery stores it pending, in
// the job's account, and names it in the job; without one, or for an
// unknown job, no delivery is created.
func testJobFinishDelivery(t *testing.T, e *env) {
	acct, key := e.signup(100)
	other, _ := e.signup(100)
	e.charge(key, 10, t0)
	j := e.createJob(key, 10, t0)
	_, err := e.s.StartJob(e.ctx, j.ID, t0)
	must(t, err)
	end := t0.Add(time.Minute)
	d := jobDelivery(j, store.JobFailed, end)
	got, err := e.s.FinishJob(e.ctx, store.JobOutcome{
		JobID: j.ID, Status: store.JobFailed, Error: "upstream: 502", Refund: 10, Delivery: d, Now: end,
	})
	must(t, err)
	if got.Status != store.JobFailed || got.Refunded != 10 || got.DeliveryID == 0 {
		t.Fatalf("FinishJob = %+v, want failed, 10 refunded, with a delivery id", got)
	}
	if stored := e.getJob(j.ID); !sameJob(stored, got) {
		t.Errorf("GetJob after FinishJob = %+v, want %+v", stored, got)
	}
	if mine, err := e.s.JobByID(e.ctx, acct.ID, j.ID); err != nil || !sameJob(mine, got) {
		t.Errorf("JobByID after FinishJob = %+v, %v; want %+v", mine, err, got)
	}
	if bal, r := e.balance(acct.ID), e.refunds(acct.ID); bal != 100 || len(r) != 1 || r[0].Delta != 10 {
		t.Errorf("balance %d, refund rows %+v; want 100 and one refund of 10", bal, r)
	}

	stored, err := e.s.DeliveryByID(e.ctx, got.DeliveryID)
	must(t, err)
	want := *d
	want.ID, want.Status, want.UpdatedAt = got.DeliveryID, store.DeliveryPending, stored.UpdatedAt
	if !sameDelivery(stored, want) {
		t.Errorf("the job's delivery = %+v, want %+v (pending, no attempts)", stored, want)
	}
	if mine, err := e.s.Delivery(e.ctx, acct.ID, got.DeliveryID); err != nil || !sameDelivery(mine, want) {
		t.Errorf("Delivery = %+v, %v; want %+v", mine, err, want)
	}
	_, err = e.s.Delivery(e.ctx, other.ID, got.DeliveryID)
	wantErr(t, err, errs.KindNotFound)
	if ds := e.deliveries(other.ID); len(ds) != 0 {
		t.Errorf("the other account's deliveries = %+v, want none", ds)
	}
	if log, err := e.s.DeliveryTries(e.ctx, acct.ID, got.DeliveryID); err != nil || len(log) != 0 {
		t.Errorf("DeliveryTries = %+v, %v; want an empty log", log, err)
	}

	// Without a delivery (the caller polls): DeliveryID 0, none created.
	polled := e.createJob(key, 1, t0)
	done, err := e.s.FinishJob(e.ctx, store.JobOutcome{JobID: polled.ID, Status: store.JobCompleted, Now: end})
	must(t, err)
	if done.DeliveryID != 0 || e.getJob(polled.ID).DeliveryID != 0 {
		t.Errorf("job finished without a delivery has DeliveryID %d, want 0", done.DeliveryID)
	}
	// An unknown job creates none either.
	_, err = e.s.FinishJob(e.ctx, store.JobOutcome{
		JobID: newJobID(), Status: store.JobCompleted, Delivery: jobDelivery(j, store.JobCompleted, end), Now: end,
	})
	wantErr(t, err, errs.KindNotFound)
	if ds := e.deliveries(acct.ID); len(ds) != 1 || ds[0].ID != got.DeliveryID {
		t.Errorf("deliveries = %v, want only %d", deliveryIDs(ds), got.DeliveryID)
	}
	pending, err := e.s.PendingDeliveries(e.ctx, 0)
	must(t, err)
	if len(pending) != 1 || !sameDelivery(pending[0], stored) {
		t.Errorf("PendingDeliveries = %+v, want only %+v", pending, stored)
	}
}

func testJobsUnfinished(t *testing.T, e *env) {
	_, key := e.signup(100)
	_, otherKey := e.signup(100)
	queued := e.createJob(key, 1, t0.Add(3*time.Minute))
	running := e.createJob(otherKey, 1, t0.Add(time.Minute))
	_, err := e.s.StartJob(e.ctx, running.ID, t0.Add(4*time.Minute))
	must(t, err)
	for i, s := range []store.JobStatus{store.JobCompleted, store.JobFailed} {
		done := e.createJob(key, 1, t0.Add(time.Duration(i)*time.Second))
		_, err := e.s.FinishJob(e.ctx, store.JobOutcome{JobID: done.ID, Status: s, Now: t0.Add(5 * time.Minute)})
		must(t, err)
	}
	oldest := e.createJob(otherKey, 1, t0.Add(-time.Hour))

	got, err := e.s.UnfinishedJobs(e.ctx, 10)
	must(t, err)
	if ids, want := jobIDs(got), []string{oldest.ID, running.ID, queued.ID}; !reflect.DeepEqual(ids, want) {
		t.Errorf("UnfinishedJobs = %v, want %v (oldest first, every account, no final job)", ids, want)
	}
	if len(got) == 3 && (got[1].Status != store.JobRunning || got[1].Attempts != 1 || got[2].Status != store.JobQueued) {
		t.Errorf("UnfinishedJobs returned %+v and %+v, want them running and queued", got[1], got[2])
	}
	got, err = e.s.UnfinishedJobs(e.ctx, 2)
	must(t, err)
	if ids, want := jobIDs(got), []string{oldest.ID, running.ID}; !reflect.DeepEqual(ids, want) {
		t.Errorf("UnfinishedJobs(limit 2) = %v, want %v", ids, want)
	}
}

// testJobFiles: files stored by FinishJob are read back by name, only by
// the job's account, and are erased with the account.
func testJobFiles(t *testing.T, e *env) {
	acct, key := e.signup(10)
	_, other := e.signup(10)
	j := e.createJob(key, 0, t0)
	png := []byte("\x89PNG\r\n\x1a\nfake")
	_, err := e.s.FinishJob(e.ctx, store.JobOutcome{JobID: j.ID, Status: store.JobFailed, Error: "step 2 failed", Now: t0,
		Files: []store.JobFile{{Name: "failure-step-2.png", ContentType: "image/png", Data: png}}})
	must(t, err)
	f, err := e.s.JobFile(e.ctx, acct.ID, j.ID, "failure-step-2.png")
	if err != nil || f.ContentType != "image/png" || !bytes.Equal(f.Data, png) {
		t.Errorf("JobFile = %+v, %v", f, err)
	}
	for _, c := range []struct {
		account int64
		job     string
		name    string
	}{{other.AccountID, j.ID, "failure-step-2.png"}, {acct.ID, j.ID, "step-1.png"}, {acct.ID, "job_unknown", "failure-step-2.png"}} {
		if _, err := e.s.JobFile(e.ctx, c.account, c.job, c.name); !errs.Is(err, errs.KindNotFound) {
			t.Errorf("JobFile(%d, %s, %s) = %v, want not found", c.account, c.job, c.name, err)
		}
	}
	twice := e.createJob(key, 0, t0)
	_, err = e.s.FinishJob(e.ctx, store.JobOutcome{JobID: twice.ID, Status: store.JobCompleted, Now: t0,
		Files: []store.JobFile{{Name: "a.png", ContentType: "image/png"}, {Name: "a.png", ContentType: "image/png"}}})
	if !errs.Is(err, errs.KindInvalid) || e.getJob(twice.ID).Status != store.JobQueued {
		t.Errorf("repeated file names: %v", err)
	}
	_, err = e.s.DeleteAccount(e.ctx, acct.ID)
	must(t, err)
	if _, err := e.s.JobFile(e.ctx, acct.ID, j.ID, "failure-step-2.png"); !errs.Is(err, errs.KindNotFound) {
		t.Errorf("a file after its account was deleted: %v", err)
	}
}
