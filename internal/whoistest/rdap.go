package whoistest

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"
	"testing"
)

// RDAP is an RDAP server (RFC 9082/9083) on 127.0.0.1 serving canned
// records as application/rdap+json, and an RFC 9083 404 error object for
// anything else.
type RDAP struct {
	// URL is the server's base URL, ending in "/": a domain is at
	// URL + "domain/" + name.
	URL string

	records map[string]string // lower-case path → JSON
	status  int
	garbage bool
	silent  bool

	mu       sync.Mutex
	requests []string
}

// RDAPOption changes how an RDAP server behaves.
type RDAPOption func(*RDAP)

// RDAPStatus makes the server answer every request with the HTTP status
// code (and an RFC 9083 error object).
func RDAPStatus(code int) RDAPOption { return func(r *RDAP) { r.status = code } }

// RDAPGarbage makes the server answer every request 200 with a body that
// is not JSON.
func RDAPGarbage() RDAPOption { return func(r *RDAP) { r.garbage = true } }

// RDAPSilent makes the server never answer: each request hangs until the
// client gives up or the test ends.
func RDAPSilent() RDAPOption { return func(r *RDAP) { r.silent = true } }

// StartRDAP starts an RDAP server and stops it when the test ends.
// records maps a domain name ("example.com", served at
// /domain/example.com whatever the case) or an absolute path
// ("/registrar/domain/example.com") to its JSON; Base in a record becomes
// the server's URL.
func StartRDAP(t testing.TB, records map[string]string, opts ...RDAPOption) *RDAP {
	t.Helper()
	r := &RDAP{records: map[string]string{}}
	for _, opt := range opts {
		opt(r)
	}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(r.serve))
	r.URL = "http://" + srv.Listener.Addr().String() + "/"
	for key, body := range records {
		path := strings.ToLower(key)
		if !strings.HasPrefix(path, "/") {
			path = "/domain/" + path
		}
		r.records[path] = strings.ReplaceAll(body, Base, r.URL)
	}
	srv.Start()
	t.Cleanup(func() {
		srv.CloseClientConnections()
		srv.Close()
	})
	return r
}

// Requests are the paths asked so far, in order.
func (r *RDAP) Requests() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.requests...)
}

// Bootstrap is an RFC 9224 DNS bootstrap file pointing tlds at this
// server.
func (r *RDAP) Bootstrap(tlds ...string) []byte {
	bases := map[string]string{}
	for _, tld := range tlds {
		bases[tld] = r.URL
	}
	return Bootstrap(bases)
}

// Bootstrap is an RFC 9224 DNS bootstrap file mapping each TLD to an RDAP
// base URL.
func Bootstrap(bases map[string]string) []byte {
	tlds := make([]string, 0, len(bases))
	for tld := range bases {
		tlds = append(tlds, tld)
	}
	sort.Strings(tlds)
	services := [][][]string{}
	for _, tld := range tlds {
		services = append(services, [][]string{{tld}, {bases[tld]}})
	}
	out, _ := json.Marshal(map[string]any{
		"description": "RDAP bootstrap file for Domain Name System registrations (whoistest)",
		"publication": "2026-06-28T10:00:00Z",
		"version":     "1.0",
		"services":    services,
	})
	return out
}

func (r *RDAP) serve(w http.ResponseWriter, req *http.Request) {
	r.mu.Lock()
	r.requests = append(r.requests, req.URL.Path)
	r.mu.Unlock()
	switch {
	case r.silent:
		<-req.Context().Done()
		return
	case r.garbage:
		w.Header().Set("Content-Type", "application/rdap+json")
		_, _ = w.Write([]byte(GarbageAnswer))
		return
	case r.status != 0:
		writeRDAPError(w, r.status)
		return
	}
	body, ok := r.records[strings.ToLower(req.URL.Path)]
	if !ok {
		writeRDAPError(w, http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "application/rdap+json")
	_, _ = w.Write([]byte(body))
}

// writeRDAPError answers an RFC 9083 error object.
func writeRDAPError(w http.ResponseWriter, code int) {
	w.Header().Set("Content-Type", "application/rdap+json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(map[string]any{
		"errorCode":       code,
		"title":           http.StatusText(code),
		"rdapConformance": []string{"rdap_level_0"},
	})
}
