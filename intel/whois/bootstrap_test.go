package whois

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/webinfra/webinfra/errs"
)

func TestBundledBootstrap(t *testing.T) {
	t.Parallel()
	b, err := parseBootstrap(bundledBootstrap)
	if err != nil {
		t.Fatal(err)
	}
	if b.publication != "2026-06-26T18:00:02Z" || len(b.bases) != 1199 {
		t.Errorf("publication %q with %d TLDs; doc.go says 2026-06-26T18:00:02Z and 1,199", b.publication, len(b.bases))
	}
	for domain, want := range map[string]string{
		"example.com":       "https://rdap.verisign.com/com/v1/",
		"www.example.net":   "https://rdap.verisign.com/net/v1/",
		"example.org":       "https://rdap.publicinterestregistry.org/rdap/",
		"example.uk":        "https://rdap.nominet.uk/uk/",
		"example.kg":        "http://rdap.cctld.kg/", // IANA lists it over plain HTTP only
		"example.xn--p1acf": "https://rdap.nic.xn--p1acf/",
		"example.de":        "", // DENIC has no RDAP service in the file
	} {
		if got := b.baseFor(domain); got != want {
			t.Errorf("%s: %q, want %q", domain, got, want)
		}
	}
}

func TestBootstrapLongestMatchAndHTTPSFirst(t *testing.T) {
	t.Parallel()
	b, err := parseBootstrap([]byte(`{"version": "1.0", "services": [
		[["uk"], ["https://rdap.registry.uk/"]],
		[["CO.UK."], ["http://rdap.co.uk/base", "https://rdap.co.uk/base"]]
	]}`))
	if err != nil {
		t.Fatal(err)
	}
	for domain, want := range map[string]string{
		"example.co.uk": "https://rdap.co.uk/base/",
		"example.uk":    "https://rdap.registry.uk/",
		"example.com":   "",
	} {
		if got := b.baseFor(domain); got != want {
			t.Errorf("%s: %q, want %q", domain, got, want)
		}
	}
}

func TestBadBootstrapNamesTheFlag(t *testing.T) {
	t.Parallel()
	for name, file := range map[string]string{
		"not JSON":         "<html>",
		"no services":      `{"version": "1.0", "services": []}`,
		"half a service":   `{"services": [[["com"]]]}`,
		"no usable URL":    `{"services": [[["com"], ["ftp://rdap.example/"]]]}`,
		"an empty entry":   `{"services": [[[""], ["https://rdap.example/"]]]}`,
		"services as text": `{"services": "com"}`,
	} {
		_, err := New(&Options{Bootstrap: []byte(file)})
		if !errs.Is(err, errs.KindInvalid) || !strings.Contains(err.Error(), "--rdap-bootstrap") {
			t.Errorf("%s: %v, want an invalid error naming --rdap-bootstrap", name, err)
		}
	}
}

func TestBootstrapSizeLimits(t *testing.T) {
	t.Parallel()
	services := make([][][]string, maxBootstrapServices+1)
	for i := range services {
		services[i] = [][]string{{"x"}, {"https://rdap.example/"}}
	}
	many, _ := json.Marshal(map[string]any{"services": services})
	for name, file := range map[string][]byte{
		"too large":         make([]byte, maxBootstrapBytes+1),
		"too many services": many,
	} {
		if _, err := parseBootstrap(file); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestNewRefusesABadWhoisServer(t *testing.T) {
	t.Parallel()
	for _, addr := range []string{"whois.example", "whois.example:port", ":43", "whois.example:0"} {
		_, err := New(&Options{WhoisServer: addr})
		if !errs.Is(err, errs.KindInvalid) || !strings.Contains(err.Error(), "--whois-server") {
			t.Errorf("%q: %v, want an invalid error naming --whois-server", addr, err)
		}
	}
}
