package redirects_test

import (
	"bytes"
	"context"
	"crypto/x509"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/fetch"
	"github.com/webinfra/webinfra/seo/redirects"
)

var update = flag.Bool("update", false, "rewrite testdata/chains.json")

// chainSites are the loopback servers of the tests: a plain HTTP site, an
// HTTPS one that redirects to it, and a closed one.
type chainSites struct {
	site, secure *httptest.Server
	closedURL    string
	fetcher      *fetch.Fetcher
}

func startChainSites(t *testing.T) *chainSites {
	t.Helper()
	s := &chainSites{}
	closed := httptest.NewServer(http.NotFoundHandler())
	s.closedURL = closed.URL
	closed.Close()

	mux := http.NewServeMux()
	redirect := func(path, to string, code int) { mux.Handle(path, http.RedirectHandler(to, code)) }
	html := func(path, head string) {
		mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprintf(w, "<!doctype html><html><head>%s<title>t</title></head><body><p>Page</p></body></html>", head)
		})
	}
	html("/ok", "")
	html("/dir/", "")
	redirect("/perm", "/ok", http.StatusMovedPermanently)
	redirect("/c1", "/c2", http.StatusMovedPermanently)
	redirect("/c2", "/ok", http.StatusPermanentRedirect)
	for i := 1; i <= 4; i++ {
		redirect(fmt.Sprintf("/d%d", i), fmt.Sprintf("/d%d", i+1), http.StatusMovedPermanently)
	}
	redirect("/d5", "/ok", http.StatusMovedPermanently)
	redirect("/dir", "/dir/", http.StatusFound)
	redirect("/loop1", "/loop2", http.StatusFound)
	redirect("/loop2", "/loop1", http.StatusFound)
	mux.HandleFunc("/forever/{n}", func(w http.ResponseWriter, r *http.Request) {
		var n int
		fmt.Sscan(r.PathValue("n"), &n)
		http.Redirect(w, r, fmt.Sprintf("/forever/%d", n+1), http.StatusMovedPermanently)
	})
	redirect("/refresh", "/refreshing", http.StatusMovedPermanently)
	html("/refreshing", `<base href="/sub/"><meta http-equiv="Refresh" content="0; URL='target'">`)
	html("/reload", `<meta http-equiv="refresh" content="30">`)
	mux.HandleFunc("/header-refresh", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Refresh", "5; url=/ok")
	})
	redirect("/gone", "/missing", http.StatusMovedPermanently)
	mux.HandleFunc("/broken", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusInternalServerError) })
	mux.HandleFunc("/nolocation", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusFound) })
	redirect("/to-metadata", "http://169.254.169.254/latest/", http.StatusFound)
	redirect("/to-closed", s.closedURL+"/x", http.StatusFound)
	mux.HandleFunc("/to-ftp", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Location", "ftp://example.com/file")
		w.WriteHeader(http.StatusMovedPermanently)
	})
	s.site = httptest.NewServer(mux)
	t.Cleanup(s.site.Close)

	s.secure = httptest.NewTLSServer(http.RedirectHandler(s.site.URL+"/ok", http.StatusMovedPermanently))
	t.Cleanup(s.secure.Close)
	roots := x509.NewCertPool()
	roots.AddCert(s.secure.Certificate())
	f, err := fetch.New(&fetch.Options{AllowPrivateNetworks: true, RootCAs: roots})
	if err != nil {
		t.Fatal(err)
	}
	s.fetcher = f
	return s
}

func (s *chainSites) replacer() *strings.Replacer {
	host := func(raw string) string { u, _ := url.Parse(raw); return u.Host }
	return strings.NewReplacer(host(s.site.URL), "site.test", host(s.secure.URL), "secure.test", host(s.closedURL), "closed.test")
}

// chainCases are the golden cases: a path on the site (or the HTTPS
// site when secure) and the finding codes it must give.
var chainCases = []struct {
	name, path string
	secure     bool
	outcome    string
	codes      []string
}{
	{"ok", "/ok", false, "answered", nil},
	{"permanent", "/perm", false, "answered", nil},
	{"chain", "/c1", false, "answered", []string{"redirect_chain"}},
	{"long_chain", "/d1", false, "answered", []string{"long_redirect_chain"}},
	{"temporary_canonical", "/dir", false, "answered", []string{"temporary_redirect"}},
	{"loop", "/loop1", false, "loop", []string{"redirect_loop"}},
	{"endless", "/forever/0", false, "too_many_redirects", []string{"too_many_redirects"}},
	{"meta_refresh", "/refresh", false, "answered", []string{"meta_refresh"}},
	{"reload", "/reload", false, "answered", []string{"refresh_reload"}},
	{"header_refresh", "/header-refresh", false, "answered", []string{"meta_refresh"}},
	{"final_404", "/gone", false, "answered", []string{"final_client_error"}},
	{"final_500", "/broken", false, "answered", []string{"final_server_error"}},
	{"no_location", "/nolocation", false, "answered", []string{"unfollowed_redirect"}},
	{"refused", "/to-metadata", false, "refused", []string{"redirect_refused"}},
	{"unreachable", "/to-closed", false, "failed", []string{"redirect_failed"}},
	{"bad_scheme", "/to-ftp", false, "failed", []string{"redirect_failed"}},
	{"downgrade", "/", true, "answered", []string{"https_downgrade"}},
}

func TestMapGolden(t *testing.T) {
	t.Parallel()
	s := startChainSites(t)
	got := map[string]*redirects.Report{}
	for _, c := range chainCases {
		base := s.site.URL
		if c.secure {
			base = s.secure.URL
		}
		rep, err := redirects.Map(context.Background(), s.fetcher, redirects.Input{URL: base + c.path}, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var codes []string
		for _, f := range rep.Findings {
			codes = append(codes, f.Code)
		}
		if !slices.Equal(codes, c.codes) || rep.Outcome != c.outcome {
			t.Errorf("%s: outcome %q, codes %v; want %q, %v", c.name, rep.Outcome, codes, c.outcome, c.codes)
		}
		got[c.name] = rep
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(got); err != nil {
		t.Fatal(err)
	}
	out := []byte(s.replacer().Replace(buf.String()))
	path := filepath.Join("testdata", "chains.json")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, out, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(out, want) {
		t.Errorf("reports differ from %s (run with -update to accept):\n%s", path, out)
	}
}

func TestMapDetails(t *testing.T) {
	t.Parallel()
	s := startChainSites(t)
	rep, err := redirects.Map(context.Background(), s.fetcher, redirects.Input{URL: s.secure.URL + "/"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Hops) != 1 || rep.Hops[0].SchemeChange != "https_to_http" || !rep.Hops[0].HostChange || !rep.Hops[0].Permanent {
		t.Errorf("downgrade hop: %+v", rep.Hops)
	}
	rep, err = redirects.Map(context.Background(), s.fetcher, redirects.Input{URL: s.site.URL + "/refresh"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r := rep.Final.Refresh; r == nil || r.URL != s.site.URL+"/sub/target" || r.DelaySeconds != 0 || r.Source != "meta" {
		t.Errorf("meta refresh: %+v; want %s/sub/target (against <base href>)", r, s.site.URL)
	}
	rep, err = redirects.Map(context.Background(), s.fetcher, redirects.Input{URL: s.site.URL + "/loop1"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Traced || len(rep.Hops) != 2 || rep.Hops[1].Location != s.site.URL+"/loop1" || rep.Final != nil {
		t.Errorf("loop: %+v", rep)
	}
}

func TestMapInvalid(t *testing.T) {
	t.Parallel()
	f, err := fetch.New(&fetch.Options{AllowPrivateNetworks: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		in    redirects.Input
		field string
	}{
		{redirects.Input{URL: ""}, "url"},
		{redirects.Input{URL: "mailto:x@example.com"}, "url"},
		{redirects.Input{URL: "http://example.com/", TimeoutMS: -1}, "timeout_ms"},
		{redirects.Input{URL: "http://example.com/", TimeoutMS: 200_000}, "timeout_ms"},
	} {
		_, err := redirects.Map(context.Background(), f, c.in, nil)
		if !errs.Is(err, errs.KindInvalid) || errs.FieldOf(err) != c.field {
			t.Errorf("%+v: %v (field %q), want invalid %q", c.in, err, errs.FieldOf(err), c.field)
		}
	}
	for u, kind := range map[string]errs.Kind{"http://169.254.169.254/latest/": errs.KindForbidden, "http://127.0.0.1:1/": errs.KindUpstream} {
		if _, err := redirects.Map(context.Background(), f, redirects.Input{URL: u}, nil); !errs.Is(err, kind) {
			t.Errorf("%s: %v, want the fetch's %s error", u, err, kind)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := redirects.Map(ctx, f, redirects.Input{URL: "http://127.0.0.1:1/"}, nil); err == nil {
		t.Error("a cancelled map answered")
	}
}
