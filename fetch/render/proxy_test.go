package render

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/webinfra/webinfra/errs"
)

// The guard proxy needs no browser: drive it with Go's client.
func TestGuardProxy(t *testing.T) {
	t.Parallel()
	allowed := newSite(t, map[string]http.HandlerFunc{"/": html("allowed page")})
	refused := newSite(t, map[string]http.HandlerFunc{"/": html("secret")})
	guard := newRefuser(hostOf(t, refused.URL))
	p, err := startGuardProxy(guard.check)
	if err != nil {
		t.Fatal(err)
	}
	defer p.close()
	proxyURL, _ := url.Parse(p.url())
	client := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(proxyURL)}, Timeout: 10 * time.Second}
	_, allowedPort, _ := net.SplitHostPort(hostOf(t, allowed.URL))

	t.Run("forward", func(t *testing.T) {
		resp, err := client.Get("http://localhost:" + allowedPort + "/")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || string(body) != "allowed page" {
			t.Fatalf("%d %q", resp.StatusCode, body)
		}
		// The check saw the address dialled, not the name.
		if !guard.wasAsked("http://127.0.0.1:"+allowedPort+"/") && !guard.wasAsked("http://[::1]:"+allowedPort+"/") {
			t.Errorf("the check was not asked about the resolved address: %q", guard.asked)
		}
		if _, err := client.Get(refused.URL + "/"); err == nil {
			t.Error("a refused host was fetched through the proxy")
		}
	})
	t.Run("connect", func(t *testing.T) {
		status, conn := connect(t, p, hostOf(t, refused.URL))
		conn.Close()
		if !strings.Contains(status, "403") {
			t.Errorf("CONNECT to a refused host: %q", status)
		}
		status, conn = connect(t, p, hostOf(t, allowed.URL))
		defer conn.Close()
		if !strings.Contains(status, "200") {
			t.Fatalf("CONNECT to an allowed host: %q", status)
		}
		fmt.Fprintf(conn, "GET / HTTP/1.1\r\nHost: %s\r\n\r\n", hostOf(t, allowed.URL))
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("through the tunnel: %v %v", resp, err)
		}
		resp.Body.Close()
	})
	if n := refused.total(); n != 0 {
		t.Errorf("the refused host got %d requests", n)
	}
	if err := p.refusal(refused.URL + "/x"); errs.KindOf(err) != errs.KindForbidden {
		t.Errorf("refusal() = %v", err)
	}
	if err := p.refusal(allowed.URL); err != nil {
		t.Errorf("refusal() of an allowed host = %v", err)
	}

	// close ends open tunnels.
	status, conn := connect(t, p, hostOf(t, allowed.URL))
	if !strings.Contains(status, "200") {
		t.Fatal(status)
	}
	p.close()
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := conn.Read(make([]byte, 1)); err != io.EOF && !strings.Contains(fmt.Sprint(err), "reset") {
		t.Errorf("a tunnel outlived close: %v", err)
	}
}

// connect opens a CONNECT tunnel through p and returns the status line.
func connect(t *testing.T, p *guardProxy, hostport string) (string, net.Conn) {
	t.Helper()
	conn, err := net.Dial("tcp", p.ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(conn, "CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n", hostport, hostport)
	br := bufio.NewReader(conn)
	status, err := br.ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	for { // the rest of the head
		line, err := br.ReadString('\n')
		if err != nil || line == "\r\n" {
			break
		}
	}
	if strings.Contains(status, "200") && br.Buffered() > 0 {
		t.Fatalf("unexpected bytes after the CONNECT answer")
	}
	return status, conn
}
