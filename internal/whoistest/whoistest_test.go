package whoistest_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/webinfra/webinfra/internal/whoistest"
)

// ask sends one whois query to addr over TCP and reads the whole answer.
func ask(t *testing.T, dial func(context.Context, string, string) (net.Conn, error), addr, query string) string {
	t.Helper()
	conn, err := dial(context.Background(), "tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, query+"\r\n"); err != nil {
		t.Fatal(err)
	}
	answer, err := io.ReadAll(bufio.NewReader(conn))
	if err != nil {
		t.Fatal(err)
	}
	return string(answer)
}

func TestWhoisAnswersAndRecordsQueries(t *testing.T) {
	t.Parallel()
	var d net.Dialer
	srv := whoistest.StartWhois(t, map[string]string{"Example.COM": "Domain Name: EXAMPLE.COM\n"})
	for query, want := range map[string]string{
		"example.com": "Domain Name: EXAMPLE.COM\n",
		"nope.com":    `No match for "NOPE.COM".`,
	} {
		if got := ask(t, d.DialContext, srv.Addr, query); !strings.HasPrefix(got, want) {
			t.Errorf("%s: %.60q, want %q", query, got, want)
		}
	}
	if got := srv.Queries(); len(got) != 2 {
		t.Errorf("queries %q", got)
	}
}

func TestChainDialRoutesNames(t *testing.T) {
	t.Parallel()
	chain := whoistest.StartChain(t)
	if got := ask(t, chain.Dial, "WHOIS.IANA.ORG:43", "com"); !strings.Contains(got, "whois:        whois.verisign-grs.com") {
		t.Errorf("IANA answered %.80q", got)
	}
	if got := ask(t, chain.Dial, whoistest.RegistryWhoisHost+":43", "example.com"); !strings.Contains(got, "Registrar WHOIS Server: "+whoistest.RegistrarWhoisHost) {
		t.Errorf("registry answered %.80q", got)
	}
	if _, err := chain.Dial(context.Background(), "tcp", "whois.nic.example:43"); err == nil {
		t.Error("an unrouted name was dialled")
	}
}

func TestRDAPServesRecordsAndErrors(t *testing.T) {
	t.Parallel()
	srv := whoistest.StartRDAP(t, map[string]string{
		whoistest.ExampleDomain:                        whoistest.RegistryRDAP,
		"/registrar/domain/" + whoistest.ExampleDomain: whoistest.RegistrarRDAP,
	})
	for path, want := range map[string]int{
		"domain/EXAMPLE.COM":           http.StatusOK,
		"registrar/domain/example.com": http.StatusOK,
		"domain/other.com":             http.StatusNotFound,
	} {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		var body map[string]any
		err = json.NewDecoder(resp.Body).Decode(&body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != want || resp.Header.Get("Content-Type") != "application/rdap+json" {
			t.Errorf("%s: %d %q %v", path, resp.StatusCode, resp.Header.Get("Content-Type"), err)
		}
		if links, _ := body["links"].([]any); len(links) > 0 {
			if href := links[0].(map[string]any)["href"].(string); !strings.HasPrefix(href, srv.URL) {
				t.Errorf("%s: link %q does not point back at the server", path, href)
			}
		}
	}
}

func ExampleBootstrap() {
	fmt.Println(string(whoistest.Bootstrap(map[string]string{"com": "http://127.0.0.1:8080/", "net": "http://127.0.0.1:8081/"})))
	// Output:
	// {"description":"RDAP bootstrap file for Domain Name System registrations (whoistest)","publication":"2026-06-28T10:00:00Z","services":[[["com"],["http://127.0.0.1:8080/"]],[["net"],["http://127.0.0.1:8081/"]]],"version":"1.0"}
}
