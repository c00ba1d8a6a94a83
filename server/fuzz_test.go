package server_test

import (
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"testing"

	"github.com/webinfra/webinfra/billing"
)

// fuzzRoutes take a JSON body and reach no network whatever it says.
var fuzzRoutes = []struct{ method, path string }{
	{"POST", "/v1/extract/tables"}, {"POST", "/v1/extract/contacts"}, {"POST", "/v1/me/cost-estimate"},
	{"POST", "/v1/keys"}, {"PATCH", "/v1/keys/1"}, {"POST", "/v1/orgs"}, {"POST", "/v1/auth/signup"},
	{"POST", "/v1/auth/login"}, {"POST", "/v1/me/password"},
}

// FuzzRequestBody: whatever body a caller sends to whichever operation,
// the answer is never a 5xx, always a JSON body, and the server does not
// panic.
func FuzzRequestBody(f *testing.F) {
	for i, seed := range []string{
		`{"html":"<table><tr><td>a</td></tr></table>"}`, `{"text":"mail ann@example.com"}`,
		`{"endpoint":"/v1/scrape","body":{"url":"https://example.com"}}`, `{"label":"x","daily_cap_credits":-1,"scope":"full"}`,
		`{"daily_cap_credits":1e309}`, `{"name":""}`, `{"email":"a@b.co","password":"correct horse battery"}`,
		`{"email":"a@b.co","password":7}`, `{"current_password":"x","new_password":"` + string(bytes.Repeat([]byte("y"), 300)) + `"}`,
		`[]`, `null`, `{"html":`, "\xff\xfe", `{"a":{"a":{"a":{"a":[[[[[[[[[[]]]]]]]]]]}}}}`,
	} {
		f.Add(uint8(i), []byte(seed))
	}
	e := newEnv(f, withPlan(billing.Plan{Credits: 1 << 40, RequestsPerMinute: 1 << 30}))
	key := e.signup("fuzz@example.com")
	f.Fuzz(func(t *testing.T, route uint8, body []byte) {
		r := fuzzRoutes[int(route)%len(fuzzRoutes)]
		req := httptest.NewRequest(r.method, r.path, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+key)
		rec := httptest.NewRecorder()
		e.srv.ServeHTTP(rec, req)
		if rec.Code >= 500 {
			t.Fatalf("%s %s with %q: status %d: %s", r.method, r.path, body, rec.Code, rec.Body)
		}
		if !json.Valid(rec.Body.Bytes()) {
			t.Fatalf("%s %s with %q: the answer is not JSON: %q", r.method, r.path, body, rec.Body)
		}
	})
}
