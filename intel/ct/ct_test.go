package ct_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/fetch"
	"github.com/webinfra/webinfra/intel/ct"
	"github.com/webinfra/webinfra/intel/ct/cttest"
)

// now is the clock of every test: 1 July 2024.
var now = time.Date(2024, 7, 1, 0, 0, 0, 0, time.UTC)

const (
	letsEncrypt = "C=US, O=Let's Encrypt, CN=R3"
	sectigo     = "C=GB, ST=Greater Manchester, L=Salford, O=Sectigo Limited, CN=Sectigo RSA Domain Validation Secure Server CA"
)

// realistic are rows as crt.sh serves them for example.com: a
// precertificate and its certificate (same serial), a wildcard, a SAN
// outside the domain, upper case and a final dot, an e-mail identity and
// an expired certificate.
var realistic = []cttest.Entry{
	{IssuerCAID: 183267, IssuerName: letsEncrypt, CommonName: "www.example.com", NameValue: "example.com\nwww.example.com",
		ID: 12000000002, EntryTimestamp: "2024-06-01T11:00:02.123", NotBefore: "2024-06-01T10:00:00", NotAfter: "2024-08-30T09:59:59", SerialNumber: "04ab5c29a0e8f1"},
	{IssuerCAID: 183267, IssuerName: letsEncrypt, CommonName: "www.example.com", NameValue: "example.com\nwww.example.com",
		ID: 12000000001, EntryTimestamp: "2024-06-01T11:00:01.001", NotBefore: "2024-06-01T10:00:00", NotAfter: "2024-08-30T09:59:59", SerialNumber: "04ab5c29a0e8f1"},
	{IssuerCAID: 1397, IssuerName: sectigo, CommonName: "*.example.com", NameValue: "*.example.com\nexample.com",
		ID: 9000000001, EntryTimestamp: "2023-05-01T00:00:01", NotBefore: "2023-05-01T00:00:00", NotAfter: "2024-05-01T23:59:59", SerialNumber: "00c3d2e1f0"},
	{IssuerCAID: 183267, IssuerName: letsEncrypt, CommonName: "api.example.com", NameValue: "API.Example.COM.\n*.dev.example.com\nshop.other.net",
		ID: 11000000001, EntryTimestamp: nullTimestamp, NotBefore: "2024-03-10T08:00:00", NotAfter: "2024-06-08T07:59:59", SerialNumber: "03ff"},
	{IssuerCAID: 1397, IssuerName: sectigo, CommonName: "dev.example.com", NameValue: "dev.example.com\nadmin@example.com",
		ID: 10000000001, EntryTimestamp: "2024-01-15T00:00:00", NotBefore: "2024-01-15T00:00:00", NotAfter: "2025-01-14T23:59:59", SerialNumber: "7a7a"},
}

// nullTimestamp stands for crt.sh's null entry_timestamp (decoded as "").
const nullTimestamp = ""

func newClient(t *testing.T, baseURL string, opts *ct.Options) *ct.Client {
	t.Helper()
	var o ct.Options
	if opts != nil {
		o = *opts
	}
	o.BaseURL, o.Now = baseURL, func() time.Time { return now }
	c, err := ct.New(&o)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestHistory(t *testing.T) {
	t.Parallel()
	srv := cttest.NewServer(realistic...)
	srv.SetNow(func() time.Time { return now })
	t.Cleanup(srv.Close)
	c := newClient(t, srv.URL+"/", nil)

	h, err := c.History(context.Background(), ct.HistoryInput{Domain: "Example.COM.", IncludeSubdomains: true})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, k := range h.Certificates {
		got = append(got, fmt.Sprintf("%s %s expired=%v days=%d ids=%v names=%v", k.Serial, k.NotBefore.Format(time.DateOnly), k.Expired, k.ValidityDays, k.CrtshIDs, k.Names))
	}
	want := []string{
		"04ab5c29a0e8f1 2024-06-01 expired=false days=90 ids=[12000000002 12000000001] names=[example.com www.example.com]",
		"03ff 2024-03-10 expired=true days=90 ids=[11000000001] names=[*.dev.example.com api.example.com shop.other.net]",
		"7a7a 2024-01-15 expired=false days=366 ids=[10000000001] names=[admin@example.com dev.example.com]",
		"00c3d2e1f0 2023-05-01 expired=true days=367 ids=[9000000001] names=[*.example.com example.com]",
	}
	if !slices.Equal(got, want) || h.Total != 4 || h.Truncated || h.Incomplete || h.Domain != "example.com" {
		t.Errorf("total %d truncated %v incomplete %v\n%s", h.Total, h.Truncated, h.Incomplete, strings.Join(got, "\n"))
	}
	if first := h.Certificates[0]; !first.LoggedAt.Equal(time.Date(2024, 6, 1, 11, 0, 1, 1e6, time.UTC)) || first.IssuerCAID != 183267 || first.Issuer != letsEncrypt {
		t.Errorf("first: %+v", first)
	}
	q := srv.Queries()[0]
	if q.Get("q") != "%.example.com" || q.Get("output") != "json" || q.Get("deduplicate") != "Y" || q.Has("exclude") {
		t.Errorf("query %v", q)
	}

	// Without subdomains: the certificates naming example.com itself.
	h, err = c.History(context.Background(), ct.HistoryInput{Domain: "example.com", Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	if h.Total != 2 || len(h.Certificates) != 1 || !h.Truncated || h.Certificates[0].Serial != "04ab5c29a0e8f1" {
		t.Errorf("exact, limit 1: %+v", h)
	}
	h, err = c.History(context.Background(), ct.HistoryInput{Domain: "example.com", ExcludeExpired: true})
	if err != nil {
		t.Fatal(err)
	}
	if h.Total != 1 || h.Certificates[0].Expired {
		t.Errorf("exact, unexpired: %+v", h)
	}
	if q := srv.Queries()[2]; q.Get("q") != "example.com" || q.Get("exclude") != "expired" {
		t.Errorf("query %v", q)
	}
}

func TestSubdomains(t *testing.T) {
	t.Parallel()
	srv := cttest.NewServer(realistic...)
	srv.SetNow(func() time.Time { return now })
	t.Cleanup(srv.Close)
	c := newClient(t, srv.URL, nil)

	s, err := c.Subdomains(context.Background(), ct.SubdomainsInput{Domain: "example.com"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, n := range s.Subdomains {
		got = append(got, fmt.Sprintf("%s wildcard=%v exact=%v certs=%d %s..%s", n.Name, n.Wildcard, n.Exact, n.Certificates,
			n.FirstSeen.Format(time.DateOnly), n.LastSeen.Format(time.DateOnly)))
	}
	want := []string{
		"api.example.com wildcard=false exact=true certs=1 2024-03-10..2024-03-10",
		"dev.example.com wildcard=true exact=true certs=2 2024-01-15..2024-03-10",
		"example.com wildcard=true exact=true certs=2 2023-05-01..2024-06-01",
		"www.example.com wildcard=false exact=true certs=1 2024-06-01..2024-06-01",
	}
	if !slices.Equal(got, want) || s.Total != 4 || s.Certificates != 4 || s.Note != ct.StaleNote {
		t.Errorf("total %d certificates %d\n%s", s.Total, s.Certificates, strings.Join(got, "\n"))
	}

	s, err = c.Subdomains(context.Background(), ct.SubdomainsInput{Domain: "example.com", Limit: 2, ExcludeExpired: true})
	if err != nil {
		t.Fatal(err)
	}
	if s.Total != 3 || len(s.Subdomains) != 2 || !s.Truncated || s.Subdomains[0].Name != "dev.example.com" {
		t.Errorf("unexpired, limit 2: %+v", s)
	}
}

// TestHostileSource: a source that answers rows for other domains, rows
// without dates, and serials written two ways.
func TestHostileSource(t *testing.T) {
	t.Parallel()
	body := `[
	 {"issuer_ca_id":-1,"issuer_name":"CN=Odd CA","common_name":"x","name_value":"unrelated.org","id":1,"entry_timestamp":null,"not_before":"2024-01-01T00:00:00","not_after":"2024-12-31T00:00:00","serial_number":"01"},
	 {"issuer_ca_id":5,"issuer_name":"CN=CA","common_name":"a.example.com","name_value":"a.example.com\n\u0000bad\n` + strings.Repeat("x", 300) + `","id":2,"entry_timestamp":"2024-01-01T00:00:00Z","not_before":"2024-01-01T00:00:00Z","not_after":"2024-12-31T00:00:00Z","serial_number":"00:0A:BC"},
	 {"issuer_ca_id":5,"issuer_name":"CN=CA","common_name":"a.example.com","name_value":"b.example.com","id":3,"entry_timestamp":"2024-01-01T00:00:00","not_before":"2024-01-01T00:00:00","not_after":"2024-12-31T00:00:00","serial_number":"abc"},
	 {"issuer_ca_id":5,"issuer_name":"CN=CA","common_name":"c.example.com","name_value":"c.example.com","id":4,"not_before":"soon","not_after":"later","serial_number":"0def"}
	]`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, body)
	}))
	t.Cleanup(srv.Close)
	h, err := newClient(t, srv.URL, nil).History(context.Background(), ct.HistoryInput{Domain: "example.com"})
	if err != nil {
		t.Fatal(err)
	}
	if h.Total != 1 || !slices.Equal(h.Certificates[0].Names, []string{"a.example.com", "b.example.com"}) || !slices.Equal(h.Certificates[0].CrtshIDs, []int64{2, 3}) {
		t.Errorf("%+v", h)
	}
}

func TestCaps(t *testing.T) {
	t.Parallel()
	var entries []cttest.Entry
	for i := range 60 {
		entries = append(entries, cttest.Entry{IssuerCAID: 7, IssuerName: letsEncrypt, NameValue: fmt.Sprintf("h%02d.example.com", i),
			ID: int64(i + 1), NotBefore: "2024-01-01T00:00:00", NotAfter: "2024-04-01T00:00:00", SerialNumber: fmt.Sprintf("%04x", i+1)})
	}
	srv := cttest.NewServer(entries...)
	t.Cleanup(srv.Close)
	for _, c := range []struct {
		name string
		opts ct.Options
		max  int
	}{
		{"rows", ct.Options{MaxEntries: 10}, 10},
		{"bytes", ct.Options{MaxBodyBytes: 2000}, 2000 / 150},
	} {
		s, err := newClient(t, srv.URL, &c.opts).Subdomains(context.Background(), ct.SubdomainsInput{Domain: "example.com"})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !s.Incomplete || s.Total == 0 || s.Total > c.max {
			t.Errorf("%s: incomplete %v total %d (max %d)", c.name, s.Incomplete, s.Total, c.max)
		}
	}
}

func TestInvalidInput(t *testing.T) {
	t.Parallel()
	c := newClient(t, "http://127.0.0.1:1/", nil) // never reached
	for _, c2 := range []struct {
		domain string
		limit  int
		field  string
	}{
		{"", 0, "domain"},
		{"https://example.com/", 0, "domain"},
		{"*.example.com", 0, "domain"},
		{"%.example.com", 0, "domain"},
		{"localhost", 0, "domain"},
		{"192.0.2.1", 0, "domain"},
		{"[2001:db8::1]", 0, "domain"},
		{"a..example.com", 0, "domain"},
		{"under_score.example.com", 0, "domain"},
		{strings.Repeat("a", 64) + ".com", 0, "domain"},
		{"example.123", 0, "domain"},
		{"example.com", -1, "limit"},
		{"example.com", 1001, "limit"},
	} {
		_, err := c.History(context.Background(), ct.HistoryInput{Domain: c2.domain, Limit: c2.limit})
		if errs.KindOf(err) != errs.KindInvalid || errs.FieldOf(err) != c2.field {
			t.Errorf("%q limit %d: %v, want invalid %s", c2.domain, c2.limit, err, c2.field)
		}
	}
	if _, err := ct.New(&ct.Options{BaseURL: "crt.sh"}); errs.FieldOf(err) != "base_url" {
		t.Errorf("relative base URL: %v", err)
	}
}

func TestIDN(t *testing.T) {
	t.Parallel()
	srv := cttest.NewServer(cttest.Entry{IssuerCAID: 7, IssuerName: letsEncrypt, NameValue: "xn--bcher-kva.example",
		ID: 1, NotBefore: "2024-01-01T00:00:00", NotAfter: "2024-04-01T00:00:00", SerialNumber: "01"})
	t.Cleanup(srv.Close)
	h, err := newClient(t, srv.URL, nil).History(context.Background(), ct.HistoryInput{Domain: "Bücher.example"})
	if err != nil || h.Domain != "xn--bcher-kva.example" || h.Total != 1 {
		t.Fatalf("%+v %v", h, err)
	}
}

// TestSourceFailures: every way the source can fail is a clear error
// naming the source and never its address.
func TestSourceFailures(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	mux := http.NewServeMux()
	handle := func(path, contentType string, status int, body string) {
		mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", contentType)
			w.WriteHeader(status)
			fmt.Fprint(w, body)
		})
	}
	handle("/bad-gateway/", "text/html", http.StatusBadGateway, "<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>")
	handle("/html/", "text/html; charset=utf-8", http.StatusOK, "<!DOCTYPE html><html><body>crt.sh is busy</body></html>")
	handle("/garbage/", "application/json", http.StatusOK, `[{"id":1,"not_before":"2024-01-01T00:00:00"},{oops`)
	handle("/object/", "application/json", http.StatusOK, `{"error":"too many results"}`)
	handle("/wrong-type/", "application/json", http.StatusOK, `[{"id":"one"}]`)
	handle("/truncated/", "application/json", http.StatusOK, `[{"id":1,"not_before":"2024-01-01T00:00:00"`)
	handle("/no-dates/", "application/json", http.StatusOK, `[{"id":1,"name_value":"example.com"}]`)
	handle("/empty/", "application/json", http.StatusOK, `[]`)
	handle("/null/", "application/json", http.StatusOK, `null`)
	mux.HandleFunc("/busy/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "30")
		w.WriteHeader(http.StatusTooManyRequests)
	})
	mux.HandleFunc("/slow/", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	})
	mux.HandleFunc("/slow-body/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `[{"id":1,`)
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
		case <-release:
		}
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) })
	guarded, err := fetch.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	refused := closedAddr(t)

	for _, c := range []struct {
		name, base string
		client     *http.Client
		kind       errs.Kind
		message    string
	}{
		{"502 page", srv.URL + "/bad-gateway/", nil, errs.KindUpstream, "certificate transparency log answered HTTP 502"},
		{"html", srv.URL + "/html/", nil, errs.KindUpstream, "certificate transparency log answered an HTML page"},
		{"garbage", srv.URL + "/garbage/", nil, errs.KindUpstream, "certificate transparency log answered invalid JSON"},
		{"object", srv.URL + "/object/", nil, errs.KindUpstream, "not a list of certificates"},
		{"wrong type", srv.URL + "/wrong-type/", nil, errs.KindUpstream, `field "id" has a string value`},
		{"truncated", srv.URL + "/truncated/", nil, errs.KindUpstream, "truncated"},
		{"no dates", srv.URL + "/no-dates/", nil, errs.KindUpstream, "without readable validity dates"},
		{"busy", srv.URL + "/busy/", nil, errs.KindUpstream, "HTTP 429 (busy"},
		{"slow", srv.URL + "/slow/", nil, errs.KindTimeout, "certificate transparency log did not answer within 100ms"},
		{"slow body", srv.URL + "/slow-body/", nil, errs.KindTimeout, "certificate transparency log did not answer within 100ms"},
		{"refused", "http://" + refused + "/", nil, errs.KindUpstream, "certificate transparency log unreachable: connection refused"},
		{"ssrf guard", srv.URL + "/empty/", guarded.Client(), errs.KindUnavailable, "certificate transparency log is at an address this server may not reach"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			client := newClient(t, c.base, &ct.Options{HTTPClient: c.client, Timeout: 100 * time.Millisecond})
			_, err := client.History(context.Background(), ct.HistoryInput{Domain: "example.com"})
			if errs.KindOf(err) != c.kind || err == nil || !strings.Contains(err.Error(), c.message) {
				t.Fatalf("%v (kind %s), want %s %q", err, errs.KindOf(err), c.kind, c.message)
			}
			if strings.Contains(err.Error(), "127.0.0.1") {
				t.Errorf("the message names the source's address: %v", err)
			}
		})
	}
	for _, path := range []string{"/empty/", "/null/"} {
		h, err := newClient(t, srv.URL+path, nil).History(context.Background(), ct.HistoryInput{Domain: "example.com"})
		if err != nil || h.Total != 0 || h.Certificates == nil {
			t.Errorf("%s: %+v %v", path, h, err)
		}
	}
	_, err = newClient(t, srv.URL+"/busy/", nil).History(context.Background(), ct.HistoryInput{Domain: "example.com"})
	if e, ok := err.(*errs.Error); !ok || e.RetryAfter != 30*time.Second {
		t.Errorf("busy: %#v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := newClient(t, srv.URL+"/slow/", nil).History(ctx, ct.HistoryInput{Domain: "example.com"}); err == nil || errs.Is(err, errs.KindTimeout) {
		t.Errorf("cancelled: %v", err)
	}
}

func closedAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}
