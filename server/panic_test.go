package server

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/webinfra/webinfra/billing"
	"github.com/webinfra/webinfra/internal/password"
	"github.com/webinfra/webinfra/store/sqlite"
)

// A panicking handler is a 500 in the error model; its credit hold is
// released and its Idempotency-Key freed.
func TestPanickingHandlerLeavesNothingBehind(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "panic.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	boom := jsonOp(post("boom", "/v1/test/boom", tagOther, "panics", standard), func(context.Context, *noopRequest) (*noopResponse, error) {
		panic("boom")
	})
	srv, err := newServer(st, nil, &Options{Billing: billing.DefaultConfig(), Password: password.Params{MemoryKiB: 64, Time: 1, Threads: 1},
		Logger: slog.New(slog.DiscardHandler)}, boom)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close(ctx)
	ts := httptest.NewServer(srv)
	defer ts.Close()

	res, err := http.Post(ts.URL+"/v1/auth/signup", "application/json", bytes.NewBufferString(`{"email":"p@example.com","password":"long enough"}`))
	if err != nil {
		t.Fatal(err)
	}
	var out SignupResponse
	json.NewDecoder(res.Body).Decode(&out)
	res.Body.Close()

	for range 2 { // the second try proves the Idempotency-Key was freed
		req, _ := http.NewRequest("POST", ts.URL+"/v1/test/boom", bytes.NewBufferString(`{"n":1}`))
		req.Header.Set("Authorization", "Bearer "+out.APIKey)
		req.Header.Set("Idempotency-Key", "k")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 500 || !bytes.Contains(body, []byte(`"kind":"internal"`)) {
			t.Fatalf("status %d body %s", res.StatusCode, body)
		}
		if res.Header.Get("X-Credits-Charged") != "0" || res.Header.Get("X-Credits-Balance") != "1000" {
			t.Fatalf("charged %q balance %q", res.Header.Get("X-Credits-Charged"), res.Header.Get("X-Credits-Balance"))
		}
	}
}
