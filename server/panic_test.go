package server

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"testing"

	"github.com/webinfra/webinfra/billing"
)

// A panicking handler is a 500 in the error model; its credit hold is
// released and its Idempotency-Key freed.
func TestPanickingHandlerLeavesNothingBehind(t *testing.T) {
	t.Parallel()
	boom := jsonOp(post("boom", "/v1/test/boom", tagOther, "panics", standard), func(context.Context, *noopRequest) (*noopResponse, error) {
		panic("boom")
	})
	url, key := internalServer(t, billing.DefaultConfig(), boom)

	for range 2 { // the second try proves the Idempotency-Key was freed
		req, _ := http.NewRequest("POST", url+"/v1/test/boom", bytes.NewBufferString(`{"n":1}`))
		req.Header.Set("Authorization", "Bearer "+key)
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
