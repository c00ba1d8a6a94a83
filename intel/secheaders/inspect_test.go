package secheaders_test

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/fetch"
	"github.com/webinfra/webinfra/intel/secheaders"
)

func TestInspect(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	mux := http.NewServeMux()
	mux.HandleFunc("/old", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/new", http.StatusMovedPermanently)
	})
	mux.HandleFunc("/new", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("X-Frame-Options", "DENY")
		w.Header().Set("Server", "nginx/1.25.3")
		w.WriteHeader(http.StatusNotFound)
	})
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) })

	refused := closedPort(t)
	guarded, err := fetch.New(nil) // the default SSRF guard refuses loopback
	if err != nil {
		t.Fatal(err)
	}
	plain := &http.Client{}

	t.Run("redirect followed, final answer graded", func(t *testing.T) {
		t.Parallel()
		rep, err := secheaders.Inspect(context.Background(), secheaders.Input{URL: srv.URL + "/old"}, &secheaders.Options{HTTPClient: plain})
		if err != nil {
			t.Fatal(err)
		}
		if rep.URL != srv.URL+"/new" || rep.Status != 404 || rep.HTTPS {
			t.Errorf("url %s status %d https %v", rep.URL, rep.Status, rep.HTTPS)
		}
		if rep.Checks[2].Result != secheaders.Pass || rep.Checks[3].Result != secheaders.Pass || rep.Checks[10].Points != -5 {
			t.Errorf("checks: %+v", rep.Checks)
		}
	})
	for _, c := range []struct {
		name   string
		url    string
		client *http.Client
		kind   errs.Kind
		field  string
	}{
		{"empty", "", plain, errs.KindInvalid, "url"},
		{"not http", "ftp://example.com/", plain, errs.KindInvalid, "url"},
		{"no host", "https:///path", plain, errs.KindInvalid, "url"},
		{"credentials", "https://u:p@example.com/", plain, errs.KindInvalid, "url"},
		{"refused connection", "http://" + refused + "/", plain, errs.KindUpstream, ""},
		{"slow", srv.URL + "/slow", plain, errs.KindTimeout, ""},
		{"ssrf guard", srv.URL + "/new", guarded.Client(), errs.KindForbidden, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			_, err := secheaders.Inspect(context.Background(), secheaders.Input{URL: c.url},
				&secheaders.Options{HTTPClient: c.client, Timeout: 200 * time.Millisecond})
			if errs.KindOf(err) != c.kind || errs.FieldOf(err) != c.field {
				t.Fatalf("error %v: kind %s field %q, want %s %q", err, errs.KindOf(err), errs.FieldOf(err), c.kind, c.field)
			}
		})
	}
	if _, err := secheaders.Inspect(context.Background(), secheaders.Input{URL: srv.URL}, nil); errs.KindOf(err) != errs.KindInternal {
		t.Errorf("nil options: %v", err)
	}
}

// closedPort is a loopback address nothing listens on.
func closedPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}
