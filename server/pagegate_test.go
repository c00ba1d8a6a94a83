package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/webinfra/webinfra/billing"
	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/fetch"
	"github.com/webinfra/webinfra/store/sqlite"
)

// Pages wait their turn in arrival order, up to the gate's wait, then are
// refused with a retry-after; a page larger than the gate runs alone.
func TestPageGateWaitsThenRefuses(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		g := newPageGate(10, 2*time.Second)
		first, err := g.acquire(ctx, 6, 0)
		if err != nil || first != 6 {
			t.Fatalf("first page: %d, %v", first, err)
		}
		admitted := make(chan time.Time, 1)
		go func() {
			n, err := g.acquire(ctx, 6, 0)
			if err != nil || n != 6 {
				t.Errorf("second page: %d, %v", n, err)
			}
			admitted <- time.Now()
		}()
		start := time.Now()
		time.Sleep(time.Second)
		g.release(first)
		if waited := (<-admitted).Sub(start); waited != time.Second {
			t.Fatalf("the second page waited %s, want the 1 s until the first was done", waited)
		}

		_, err = g.acquire(ctx, 6, 0) // the second still holds 6 of 10
		var e *errs.Error
		if !errs.Is(err, errs.KindUnavailable) || !errors.As(err, &e) || e.RetryAfter != pageRetryAfter ||
			!strings.Contains(err.Error(), "limits.page_bytes_in_flight") {
			t.Fatalf("third page: %v, want unavailable with retry-after naming the limit", err)
		}
		if waited := time.Since(start) - time.Second; waited != 2*time.Second {
			t.Fatalf("the third page was refused after %s, want the 2 s wait", waited)
		}

		g.release(6)
		if n, err := g.acquire(ctx, 100, 0); n != 10 || err != nil {
			t.Fatalf("a page over the gate's size: %d, %v; want all 10, alone", n, err)
		}
		g.release(10)
		if n, err := g.acquire(ctx, 5, 8); n != 2 || err != nil {
			t.Fatalf("a page for a caller holding 8: %d, %v; want the 2 left", n, err)
		}
		g.release(2)

		cancelled, cancel := context.WithCancel(ctx)
		cancel()
		g.acquire(ctx, 10, 0)
		if _, err := g.acquire(cancelled, 1, 0); !errors.Is(err, context.Canceled) {
			t.Fatalf("a page of a call gone: %v, want its context's error", err)
		}
	})
}

type heldPage struct {
	HTML string `json:"html"`
}

// While a call holds most of the gate with its page, a page that does not
// fit, sent or fetched, is answered 503 with Retry-After and charged
// nothing; one that fits goes through; and once the call ends (or any
// call, failed or not) the gate is whole again.
func TestPageGateBoundsPagesOfAllCalls(t *testing.T) {
	t.Parallel()
	entered, release := make(chan struct{}), make(chan struct{})
	hold := carriesPage(jsonOp(post("hold", "/v1/test/hold", tagOther, "holds its page", standard),
		func(context.Context, *heldPage) (*noopResponse, error) {
			entered <- struct{}{}
			<-release
			return &noopResponse{}, nil
		}))
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, article(400<<10))
	}))
	t.Cleanup(site.Close)
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "webinfra.db"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := fetch.New(&fetch.Options{AllowPrivateNetworks: true})
	if err != nil {
		t.Fatal(err)
	}
	cfg := billing.DefaultConfig()
	cfg.Limits.PageBytesInFlight, cfg.Limits.PageWaitMS = 1<<20, 50
	base, key := startInternal(t, st, f, &Options{Billing: cfg}, hold)
	var released sync.Once
	let := func() { released.Do(func() { close(release) }) }
	t.Cleanup(let) // before the server's cleanup, which waits for the held call
	send := func(path string, body any) (int, http.Header, string) {
		t.Helper()
		raw, _ := json.Marshal(body)
		req, _ := http.NewRequest("POST", base+path, bytes.NewReader(raw))
		req.Header.Set("Authorization", "Bearer "+key)
		req.Header.Set("Content-Type", "application/json")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		out, _ := io.ReadAll(res.Body)
		return res.StatusCode, res.Header, string(out)
	}

	held := make(chan int)
	go func() {
		status, _, _ := send("/v1/test/hold", heldPage{HTML: article(600 << 10)})
		held <- status
	}()
	<-entered
	balance := 0
	for _, refused := range []struct {
		path, what string
		body       any
	}{
		{"/v1/extract/clean", "a page sent", map[string]string{"html": article(400 << 10)}},
		{"/v1/extract/clean", "a page fetched", map[string]string{"url": site.URL}},
		{"/v1/scrape", "a page fetched", map[string]any{"url": site.URL, "formats": []string{"markdown"}}},
		{"/v1/scrape/llm-ready", "a page fetched", map[string]any{"url": site.URL}},
	} {
		status, header, body := send(refused.path, refused.body)
		if status != http.StatusServiceUnavailable || header.Get("Retry-After") != "5" ||
			!strings.Contains(body, "page_bytes_in_flight") || header.Get("X-Credits-Charged") != "0" {
			t.Fatalf("%s (%s) while the gate is held: %d, Retry-After %q, charged %q: %.300s", refused.path, refused.what,
				status, header.Get("Retry-After"), header.Get("X-Credits-Charged"), body)
		}
		balance = atoi(t, header.Get("X-Credits-Balance"))
	}
	if status, header, body := send("/v1/extract/clean", map[string]string{"html": article(20 << 10)}); status != http.StatusOK ||
		atoi(t, header.Get("X-Credits-Balance")) != balance-1 {
		t.Fatalf("a page that fits beside the held one: %d, balance %s (was %d): %.300s", status, header.Get("X-Credits-Balance"), balance, body)
	}
	let()
	if status := <-held; status != http.StatusOK {
		t.Fatalf("the held call answered %d", status)
	}

	// The gate is whole again after answers of every kind: a page the
	// size of the whole gate gets in at once, where any byte still held
	// would make it wait past 50 ms and be refused.
	whole := map[string]string{"html": article(2 << 20)}
	for _, after := range []struct {
		path   string
		body   any
		status int
	}{
		{"/v1/extract/clean", whole, http.StatusOK},
		{"/v1/extract/clean", map[string]string{"html": article(300 << 10), "mode": "bogus"}, http.StatusUnprocessableEntity},
		{"/v1/extract/clean", whole, http.StatusOK},
		{"/v1/scrape", map[string]any{"url": site.URL, "formats": []string{"markdown"}}, http.StatusOK},
		{"/v1/extract/clean", map[string]string{"url": site.URL}, http.StatusOK},
		{"/v1/extract/clean", whole, http.StatusOK},
	} {
		if status, _, body := send(after.path, after.body); status != after.status {
			t.Fatalf("%s after the held call: %d, want %d: %.300s", after.path, status, after.status, body)
		}
	}
}

// article is an HTML page of about n bytes of paragraphs.
func article(n int) string {
	var b strings.Builder
	b.WriteString("<!doctype html><html><head><title>Gate</title></head><body><article><h1>Gate</h1>")
	for b.Len() < n {
		b.WriteString("<p>Pages wait their turn at the gate, and a page that does not fit is told to come back later.</p>")
	}
	b.WriteString("</article></body></html>")
	return b.String()
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	var n int
	if err := json.Unmarshal([]byte(s), &n); err != nil {
		t.Fatalf("not a number: %q", s)
	}
	return n
}
