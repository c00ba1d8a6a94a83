package fetch

import (
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/webinfra/webinfra/errs"
)

// privateFetcher returns a Fetcher that may reach loopback test servers.
func privateFetcher(t *testing.T, o Options) *Fetcher {
	t.Helper()
	o.AllowPrivateNetworks = true
	f, err := New(&o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.CloseIdleConnections)
	return f
}

func serve(t *testing.T, h http.HandlerFunc) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

// wantErr checks err's kind and that its message contains every fragment.
func wantErr(t *testing.T, err error, kind errs.Kind, fragments ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("err = nil, want %s error", kind)
	}
	if k := errs.KindOf(err); k != kind {
		t.Fatalf("kind = %q, want %q; err = %v", k, kind, err)
	}
	for _, s := range fragments {
		if !strings.Contains(err.Error(), s) {
			t.Fatalf("error %q does not contain %q", err, s)
		}
	}
}

func TestFetchSuccess(t *testing.T) {
	t.Parallel()
	headers := make(chan http.Header, 1)
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		headers <- r.Header.Clone()
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(http.StatusTeapot)
		fmt.Fprint(w, "<p>héllo</p>")
	})
	f := privateFetcher(t, Options{UserAgent: "test-agent/1"})
	res, err := f.Fetch(context.Background(), Request{
		URL:     srv.URL + "/page",
		Headers: map[string]string{"X-Probe": "1", "Accept-Encoding": "br"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusTeapot || string(res.Body) != "<p>héllo</p>" ||
		res.ContentType != "text/html" || res.Charset != "utf-8" ||
		res.URL != srv.URL+"/page" || res.FinalURL != srv.URL+"/page" ||
		res.TierUsed != TierDirect || !slices.Equal(res.CascadePath, []Tier{TierDirect}) ||
		len(res.Redirects) != 0 || res.Duration <= 0 {
		t.Errorf("unexpected response: %+v", res)
	}
	got := <-headers
	if got.Get("User-Agent") != "test-agent/1" || got.Get("X-Probe") != "1" ||
		got.Get("Accept-Encoding") != "gzip, deflate" {
		t.Errorf("request headers = %v", got)
	}
}

func TestFetchInvalidInput(t *testing.T) {
	t.Parallel()
	f := privateFetcher(t, Options{})
	tests := []struct {
		name  string
		req   Request
		kind  errs.Kind
		field string
	}{
		{"empty url", Request{URL: ""}, errs.KindInvalid, "url"},
		{"unparsable", Request{URL: "http://[::1"}, errs.KindInvalid, "url"},
		{"relative", Request{URL: "/just/a/path"}, errs.KindInvalid, "url"},
		{"ftp", Request{URL: "ftp://example.com/"}, errs.KindInvalid, "url"},
		{"file", Request{URL: "file:///etc/passwd"}, errs.KindInvalid, "url"},
		{"no host", Request{URL: "http:///path"}, errs.KindInvalid, "url"},
		{"credentials", Request{URL: "http://user:pw@example.com/"}, errs.KindInvalid, "url"},
		{"bad header name", Request{URL: "http://example.com/", Headers: map[string]string{"Bad Name": "x"}}, errs.KindInvalid, "headers"},
		{"bad header value", Request{URL: "http://example.com/", Headers: map[string]string{"X": "a\r\nInjected: 1"}}, errs.KindInvalid, "headers"},
		{"negative timeout", Request{URL: "http://example.com/", Timeout: -time.Second}, errs.KindInvalid, "timeout"},
		{"unknown tier", Request{URL: "http://example.com/", Tier: "teleport"}, errs.KindInvalid, "tier"},
		{"render tier", Request{URL: "http://example.com/", Tier: TierRender}, errs.KindUnavailable, ""},
		{"residential tier", Request{URL: "http://example.com/", Tier: TierResidential}, errs.KindUnavailable, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := f.Fetch(context.Background(), tt.req)
			wantErr(t, err, tt.kind)
			if got := errs.FieldOf(err); got != tt.field {
				t.Errorf("field = %q, want %q (err %v)", got, tt.field, err)
			}
		})
	}
}

func TestNewInvalidOptions(t *testing.T) {
	t.Parallel()
	tests := map[string]Options{
		"options.max_body_bytes":    {MaxBodyBytes: -1},
		"options.max_decoded_bytes": {MaxDecodedBytes: -1},
		"options.timeout":           {Timeout: -1},
		"options.header_timeout":    {HeaderTimeout: -1},
		"options.connect_timeout":   {ConnectTimeout: -1},
		"options.allowed_ports":     {AllowedPorts: []int{443, 70000}},
	}
	for field, o := range tests {
		_, err := New(&o)
		if errs.KindOf(err) != errs.KindInvalid || errs.FieldOf(err) != field {
			t.Errorf("New(%+v) = %v, want invalid %s", o, err, field)
		}
	}
}

func TestFetchRedirects(t *testing.T) {
	t.Parallel()
	mux := http.NewServeMux()
	mux.Handle("/a", http.RedirectHandler("/b", http.StatusMovedPermanently))
	mux.Handle("/b", http.RedirectHandler("/c", http.StatusFound))
	mux.HandleFunc("/c", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "done") })
	mux.HandleFunc("/loop/{n}", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/loop/"+r.PathValue("n")+"x", http.StatusFound)
	})
	mux.Handle("/to-ftp", http.RedirectHandler("ftp://example.com/", http.StatusFound))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)

	t.Run("chain recorded", func(t *testing.T) {
		t.Parallel()
		res, err := privateFetcher(t, Options{}).Fetch(context.Background(), Request{URL: srv.URL + "/a"})
		if err != nil {
			t.Fatal(err)
		}
		want := []Hop{{srv.URL + "/a", 301}, {srv.URL + "/b", 302}}
		if !slices.Equal(res.Redirects, want) || res.FinalURL != srv.URL+"/c" || string(res.Body) != "done" {
			t.Errorf("redirects = %v, final = %s, body = %q", res.Redirects, res.FinalURL, res.Body)
		}
	})
	t.Run("too many", func(t *testing.T) {
		t.Parallel()
		_, err := privateFetcher(t, Options{MaxRedirects: 3}).Fetch(context.Background(), Request{URL: srv.URL + "/loop/x"})
		wantErr(t, err, errs.KindUpstream, "stopped after 3 redirects (limit 3)")
	})
	t.Run("default limit", func(t *testing.T) {
		t.Parallel()
		_, err := privateFetcher(t, Options{}).Fetch(context.Background(), Request{URL: srv.URL + "/loop/x"})
		wantErr(t, err, errs.KindUpstream, "limit 10")
	})
	t.Run("not followed", func(t *testing.T) {
		t.Parallel()
		res, err := privateFetcher(t, Options{MaxRedirects: -1}).Fetch(context.Background(), Request{URL: srv.URL + "/a"})
		if err != nil {
			t.Fatal(err)
		}
		if res.StatusCode != 301 || res.Header.Get("Location") != "/b" || len(res.Redirects) != 0 {
			t.Errorf("status = %d, location = %q, hops = %v", res.StatusCode, res.Header.Get("Location"), res.Redirects)
		}
	})
	t.Run("to unsupported scheme", func(t *testing.T) {
		t.Parallel()
		_, err := privateFetcher(t, Options{}).Fetch(context.Background(), Request{URL: srv.URL + "/to-ftp"})
		wantErr(t, err, errs.KindUpstream, "redirect to ftp://example.com/ refused")
	})
}

func TestFetchTimeouts(t *testing.T) {
	t.Parallel()
	// The servers must be slow themselves; the client's timeouts are short.
	drip := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusOK)
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			w.Write([]byte("x"))
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				return
			case <-tick.C:
			}
		}
	})
	hung := serve(t, func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
	tests := []struct {
		name string
		opts Options
		req  Request
		want string
	}{
		{"slow drip", Options{Timeout: 200 * time.Millisecond}, Request{URL: drip.URL}, "within 200ms (request timeout)"},
		{"slow drip, per-request timeout", Options{}, Request{URL: drip.URL, Timeout: 200 * time.Millisecond}, "within 200ms (request timeout)"},
		{"hung server", Options{HeaderTimeout: 200 * time.Millisecond}, Request{URL: hung.URL}, "no response headers within 200ms (header timeout)"},
		{"hung server, whole request", Options{Timeout: 200 * time.Millisecond}, Request{URL: hung.URL}, "(request timeout)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			start := time.Now()
			_, err := privateFetcher(t, tt.opts).Fetch(context.Background(), tt.req)
			wantErr(t, err, errs.KindUpstream, tt.want)
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("took %v, want about 200ms", d)
			}
		})
	}
}

func TestFetchContextCancelPassesThrough(t *testing.T) {
	t.Parallel()
	started := make(chan struct{})
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		close(started)
		<-r.Context().Done()
	})
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-started; cancel() }()
	_, err := privateFetcher(t, Options{}).Fetch(ctx, Request{URL: srv.URL})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

// closedAddr is a loopback host:port nothing listens on any more.
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

func TestFetchConnectionRefused(t *testing.T) {
	t.Parallel()
	addr := closedAddr(t)
	_, err := privateFetcher(t, Options{}).Fetch(context.Background(), Request{URL: "http://" + addr + "/"})
	wantErr(t, err, errs.KindUpstream, "fetch http://"+addr+"/ failed")
}

func TestFetchRootCAs(t *testing.T) {
	t.Parallel()
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "hello over %s", r.Proto)
	}))
	srv.EnableHTTP2 = true
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshakes are expected
	srv.StartTLS()
	t.Cleanup(srv.Close)
	pool := x509.NewCertPool()
	pool.AddCert(srv.Certificate())
	port := srv.Listener.Addr().(*net.TCPAddr).Port

	tests := []struct {
		name  string
		roots *x509.CertPool
		url   string
		want  string // body, or error fragment when wantErr
		fails bool
	}{
		{"unknown authority", nil, srv.URL, "TLS certificate not trusted", true},
		{"extra root trusted", pool, srv.URL, "hello over HTTP/2.0", false},
		{"extra root, wrong host name", pool, fmt.Sprintf("https://localhost:%d/", port), "TLS certificate not trusted", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res, err := privateFetcher(t, Options{RootCAs: tt.roots}).Fetch(context.Background(), Request{URL: tt.url})
			if tt.fails {
				wantErr(t, err, errs.KindUpstream, tt.want)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(res.Body) != tt.want {
				t.Errorf("body = %q, want %q", res.Body, tt.want)
			}
		})
	}
}
