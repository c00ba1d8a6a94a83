package telemetry

import (
	"container/list"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"golang.org/x/sync/singleflight"
)

// LoadFunc returns an account's forwarders by id, from the store. An
// account without forwarders is an empty map and no error.
type LoadFunc func(ctx context.Context, accountID int64) (map[int64]Destination, error)

// Options tune a Forwarding. The zero value (or nil) means the defaults.
type Options struct {
	// HTTPClient sends every export (the server passes its SSRF-guarded
	// client). Its Transport is shared; each exporter wraps it. nil → a
	// client with a clone of http.DefaultTransport and ExportTimeout.
	HTTPClient *http.Client
	// Refresh is how long a loaded account's set is trusted before Load is
	// asked again (other server processes may have changed it). Default 2s.
	Refresh time.Duration
	// BatchDelay is the batch processor's schedule delay. Default 500ms.
	BatchDelay time.Duration
	// ExportTimeout bounds each export request (and each Load). Default 10s.
	ExportTimeout time.Duration
	// MaxQueue is the number of spans buffered per forwarder; beyond it
	// spans are dropped and counted (Stats.Dropped). Default 2048.
	MaxQueue int
	// MaxAccounts is the number of accounts whose forwarder sets are
	// cached; the least recently used are evicted and their exporters shut
	// down in the background. Default 100000.
	MaxAccounts int
	// ServiceName and ServiceVersion are the resource's service.name and
	// service.version. Default "webinfra" and "".
	ServiceName, ServiceVersion string
	// Logger gets export failures (once per failing streak) and load
	// errors. Default slog.Default().
	Logger *slog.Logger
	// Now is the clock Refresh is measured with. Default time.Now.
	Now func() time.Time
}

func (o *Options) withDefaults() Options {
	var out Options
	if o != nil {
		out = *o
	}
	if out.Refresh <= 0 {
		out.Refresh = 2 * time.Second
	}
	if out.BatchDelay <= 0 {
		out.BatchDelay = 500 * time.Millisecond
	}
	if out.ExportTimeout <= 0 {
		out.ExportTimeout = 10 * time.Second
	}
	if out.MaxQueue <= 0 {
		out.MaxQueue = sdktrace.DefaultMaxQueueSize
	}
	if out.MaxAccounts <= 0 {
		out.MaxAccounts = 100_000
	}
	if out.ServiceName == "" {
		out.ServiceName = "webinfra"
	}
	if out.Logger == nil {
		out.Logger = slog.Default()
	}
	if out.Now == nil {
		out.Now = time.Now
	}
	if out.HTTPClient == nil {
		out.HTTPClient = &http.Client{
			Transport: http.DefaultTransport.(*http.Transport).Clone(),
			Timeout:   out.ExportTimeout,
		}
	}
	return out
}

// Stats are counters since New, and the cache's current size.
type Stats struct {
	Accounts   int   // accounts whose forwarder sets are cached
	Forwarders int   // live exporters
	Queued     int64 // spans handed to a forwarder's queue
	Exported   int64 // spans in batches the endpoint accepted
	Failed     int64 // spans in batches that failed (dropped, not retried)
	Dropped    int64 // spans refused because a forwarder's queue was full
}

// Forwarding exports one span per API call to each of the account's
// forwarders. It is safe for concurrent use.
type Forwarding struct {
	load      LoadFunc
	opts      Options
	exporters exporterConfig
	builder   *spanBuilder
	stats     counters
	log       *slog.Logger
	loads     singleflight.Group

	mu       sync.Mutex
	closed   bool
	accounts map[int64]*account
	lru      *list.List // of *account, most recently used first

	retiring sync.WaitGroup // background shutdowns of removed forwarders
}

// account is one cached account's forwarder set.
type account struct {
	id       int64
	fwd      map[int64]*forwarder
	loadedAt time.Time // zero: Load must be asked before the set is trusted
	loading  bool
	touched  map[int64]bool // forwarders Added or Removed during the load in flight
	elem     *list.Element
	evicted  bool
}

func (a *account) list() []*forwarder {
	out := make([]*forwarder, 0, len(a.fwd))
	for _, fw := range a.fwd {
		out = append(out, fw)
	}
	return out
}

// New returns a Forwarding that asks load for an account's forwarders. A
// nil load means the sets are only what Add and Remove make them.
func New(load LoadFunc, opts *Options) *Forwarding {
	o := opts.withDefaults()
	return &Forwarding{
		load:      load,
		opts:      o,
		exporters: exporterConfig{client: o.HTTPClient, opts: &o},
		builder:   newSpanBuilder(o.ServiceName, o.ServiceVersion, o.Now),
		log:       o.Logger,
		accounts:  make(map[int64]*account),
		lru:       list.New(),
	}
}

// Add starts exporting the account's calls to d under forwarderID, at
// once: the next Record of that account goes there too. Adding an id
// again with another destination replaces its exporter (the old one is
// flushed in the background). Call it after the forwarder is stored: a
// later Load is the truth. The error is d.Validate's.
func (f *Forwarding) Add(accountID, forwarderID int64, d Destination) error {
	if err := d.Validate(); err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return errors.New("telemetry: closed")
	}
	a := f.account(accountID)
	a.touch(forwarderID)
	if old := a.fwd[forwarderID]; old != nil {
		if old.dest.equal(d) {
			return nil
		}
		delete(a.fwd, forwarderID)
		f.retire(old)
	}
	fw, err := f.exporters.newForwarder(accountID, forwarderID, d, &f.stats, f.log)
	if err != nil {
		return err
	}
	a.fwd[forwarderID] = fw
	return nil
}

// Remove stops exporting to the forwarder at once: no span recorded after
// it returns goes there. Spans already buffered are still sent, by a
// background shutdown; Remove never waits on the network.
func (f *Forwarding) Remove(accountID, forwarderID int64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	a := f.accounts[accountID]
	if f.closed || a == nil {
		return
	}
	a.touch(forwarderID)
	if fw := a.fwd[forwarderID]; fw != nil {
		delete(a.fwd, forwarderID)
		f.retire(fw)
	}
}

// touch notes a local change so that a load in flight, which may have read
// the store before it, does not undo it.
func (a *account) touch(forwarderID int64) {
	if !a.loading {
		return
	}
	if a.touched == nil {
		a.touched = make(map[int64]bool)
	}
	a.touched[forwarderID] = true
}

// Record queues one span for each of the account's forwarders. It never
// waits on an export; it is a no-op when the account has none. When the
// account's set is not cached or older than Refresh it asks Load first
// (one Load per account at a time, bounded by ExportTimeout; ctx's values
// are kept, its cancellation is not, so a finished request's context is
// fine). If Load fails, the stale set (if any) is used until the next
// Refresh.
func (f *Forwarding) Record(ctx context.Context, s Span) {
	fws := f.forwarders(ctx, s.AccountID)
	if len(fws) == 0 {
		return
	}
	ro := f.builder.build(s)
	if ro == nil {
		return
	}
	for _, fw := range fws {
		fw.enqueue(ro)
	}
}

// forwarders returns the account's current forwarders, loading them when
// needed.
func (f *Forwarding) forwarders(ctx context.Context, accountID int64) []*forwarder {
	f.mu.Lock()
	if f.closed {
		f.mu.Unlock()
		return nil
	}
	a := f.accounts[accountID]
	if a != nil && (f.load == nil || f.fresh(a)) {
		f.lru.MoveToFront(a.elem)
		fws := a.list()
		f.mu.Unlock()
		return fws
	}
	f.mu.Unlock()
	if f.load == nil {
		return nil
	}
	v, _, _ := f.loads.Do(strconv.FormatInt(accountID, 10), func() (any, error) {
		return f.reload(ctx, accountID), nil
	})
	fws, _ := v.([]*forwarder)
	return fws
}

func (f *Forwarding) fresh(a *account) bool {
	return !a.loadedAt.IsZero() && f.opts.Now().Sub(a.loadedAt) < f.opts.Refresh
}

// reload asks Load for the account's set and reconciles the cache with it.
func (f *Forwarding) reload(ctx context.Context, accountID int64) []*forwarder {
	f.mu.Lock()
	if f.closed {
		f.mu.Unlock()
		return nil
	}
	a := f.account(accountID)
	a.loading, a.touched = true, nil
	f.mu.Unlock()

	loadCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), f.opts.ExportTimeout)
	dests, err := f.load(loadCtx, accountID)
	cancel()

	f.mu.Lock()
	defer f.mu.Unlock()
	touched := a.touched
	a.loading, a.touched = false, nil
	if f.closed || a.evicted {
		return nil
	}
	if err != nil {
		f.log.Warn("telemetry: loading forwarders failed", "account_id", accountID, "error", err)
		if !a.loadedAt.IsZero() {
			a.loadedAt = f.opts.Now() // keep the stale set; ask again after Refresh
		}
		return a.list()
	}
	f.reconcile(a, dests, touched)
	a.loadedAt = f.opts.Now()
	return a.list()
}

// reconcile makes a's set what dests says, except for the forwarders
// changed locally while the load was in flight. f.mu is held.
func (f *Forwarding) reconcile(a *account, dests map[int64]Destination, touched map[int64]bool) {
	for id, fw := range a.fwd {
		if touched[id] {
			continue
		}
		if d, ok := dests[id]; !ok || !d.equal(fw.dest) {
			delete(a.fwd, id)
			f.retire(fw)
		}
	}
	for id, d := range dests {
		if touched[id] || a.fwd[id] != nil {
			continue
		}
		fw, err := f.exporters.newForwarder(a.id, id, d, &f.stats, f.log)
		if err != nil {
			f.log.Warn("telemetry: forwarder skipped", "account_id", a.id, "forwarder_id", id, "error", err)
			continue
		}
		a.fwd[id] = fw
	}
}

// account returns the cached entry, creating it (never loaded) and
// evicting the least recently used beyond MaxAccounts. f.mu is held.
func (f *Forwarding) account(accountID int64) *account {
	if a := f.accounts[accountID]; a != nil {
		f.lru.MoveToFront(a.elem)
		return a
	}
	a := &account{id: accountID, fwd: make(map[int64]*forwarder)}
	a.elem = f.lru.PushFront(a)
	f.accounts[accountID] = a
	for len(f.accounts) > f.opts.MaxAccounts {
		old := f.lru.Back().Value.(*account)
		f.lru.Remove(old.elem)
		delete(f.accounts, old.id)
		old.evicted = true
		for _, fw := range old.fwd {
			f.retire(fw)
		}
		old.fwd = nil
	}
	return a
}

// retire shuts fw down in the background, flushing what it buffered.
// f.mu is held and f is not closed.
func (f *Forwarding) retire(fw *forwarder) {
	f.retiring.Go(func() {
		ctx, cancel := context.WithTimeout(context.Background(), f.flushBudget())
		defer cancel()
		if err := fw.shutdown(ctx); err != nil {
			fw.log.Warn("telemetry: forwarder shutdown", "error", err)
		}
	})
}

// flushBudget is how long a shutdown may take: ExportTimeout per batch a
// full queue holds, plus one.
func (f *Forwarding) flushBudget() time.Duration {
	batches := (f.opts.MaxQueue + sdktrace.DefaultMaxExportBatchSize - 1) / sdktrace.DefaultMaxExportBatchSize
	return time.Duration(batches+1) * f.opts.ExportTimeout
}

// Stats returns the counters and the cache's size.
func (f *Forwarding) Stats() Stats {
	f.mu.Lock()
	st := Stats{Accounts: len(f.accounts)}
	for _, a := range f.accounts {
		st.Forwarders += len(a.fwd)
	}
	f.mu.Unlock()
	st.Queued = f.stats.queued.Load()
	st.Exported = f.stats.exported.Load()
	st.Failed = f.stats.failed.Load()
	st.Dropped = f.stats.dropped.Load()
	return st
}

// Close flushes every forwarder's buffered spans and shuts the exporters
// down, waiting for the background shutdowns of removed ones too, until
// ctx ends. Later calls to Record, Add and Remove do nothing.
func (f *Forwarding) Close(ctx context.Context) error {
	f.mu.Lock()
	if f.closed {
		f.mu.Unlock()
		return nil
	}
	f.closed = true
	var fws []*forwarder
	for _, a := range f.accounts {
		fws = append(fws, a.list()...)
		a.fwd = nil
	}
	clear(f.accounts)
	f.lru.Init()
	f.mu.Unlock()

	var (
		wg   sync.WaitGroup
		emu  sync.Mutex
		errs []error
	)
	for _, fw := range fws {
		wg.Go(func() {
			if err := fw.shutdown(ctx); err != nil {
				emu.Lock()
				errs = append(errs, fmt.Errorf("account %d: %w", fw.accountID, err))
				emu.Unlock()
			}
		})
	}
	wg.Wait()

	retired := make(chan struct{})
	go func() { f.retiring.Wait(); close(retired) }()
	select {
	case <-retired:
	case <-ctx.Done():
		errs = append(errs, fmt.Errorf("telemetry: waiting for removed forwarders: %w", ctx.Err()))
	}
	if err := f.builder.tp.Shutdown(ctx); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}
