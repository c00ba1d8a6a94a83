package render

import (
	"context"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/webinfra/webinfra/errs"
)

// guardProxy is a forward HTTP proxy on loopback that one render's browser
// context uses for all its traffic. It is the backstop of the Fetch-domain
// interception: it sees what that cannot (WebSocket handshakes, which the
// browser tunnels with CONNECT) and it applies the SSRF check to the address
// it actually dials, after its own DNS lookup, so a name that resolves
// differently the second time (DNS rebinding) cannot reach a refused
// address.
type guardProxy struct {
	check func(ctx context.Context, url string) error
	ln    net.Listener
	srv   *http.Server
	tr    *http.Transport

	mu      sync.Mutex
	conns   map[net.Conn]struct{} // hijacked tunnels, both ends
	closed  bool
	refused map[string]error // by the host:port asked for
}

const proxyDialTimeout = 10 * time.Second

// quietLog drops the proxy's own log lines (refusals are answered, not logged).
var quietLog = log.New(io.Discard, "", 0)

// startGuardProxy listens on a loopback port and serves until close.
func startGuardProxy(check func(ctx context.Context, url string) error) (*guardProxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &guardProxy{check: check, ln: ln, conns: make(map[net.Conn]struct{}), refused: make(map[string]error)}
	p.tr = &http.Transport{
		Proxy:                 nil, // never an environment proxy
		DialContext:           p.dial,
		DisableCompression:    true, // pass the browser's Accept-Encoding through
		MaxIdleConnsPerHost:   4,
		IdleConnTimeout:       30 * time.Second,
		ResponseHeaderTimeout: 60 * time.Second,
	}
	forward := &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			r.Out.URL = r.In.URL // absolute-form request of a proxy client
			r.Out.Host = r.In.Host
		},
		Transport:     p.tr,
		FlushInterval: -1,
		ErrorLog:      quietLog,
		ErrorHandler:  p.drop,
	}
	p.srv = &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodConnect {
				p.tunnel(w, r)
				return
			}
			if r.URL.Host == "" {
				http.Error(w, "not a proxy request", http.StatusBadRequest)
				return
			}
			forward.ServeHTTP(w, r)
		}),
		ReadHeaderTimeout: 10 * time.Second,
		ErrorLog:          quietLog,
	}
	go p.srv.Serve(ln)
	return p, nil
}

// url is the proxy's address for --proxy-server or a browser context.
func (p *guardProxy) url() string { return "http://" + p.ln.Addr().String() }

// close stops the listener and ends every connection, tunnels included.
func (p *guardProxy) close() {
	p.srv.Close()
	p.tr.CloseIdleConnections()
	p.mu.Lock()
	p.closed = true
	for c := range p.conns {
		c.Close()
	}
	p.mu.Unlock()
}

// refusal returns the error with which the proxy refused rawURL's host
// and port, if it did.
func (p *guardProxy) refusal(rawURL string) error {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil
	}
	port := u.Port()
	if port == "" {
		port = "80"
		if u.Scheme == "https" || u.Scheme == "wss" {
			port = "443"
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.refused[strings.ToLower(net.JoinHostPort(u.Hostname(), port))]
}

// fail answers a refused or failed CONNECT; the browser then fails the
// request (net::ERR_TUNNEL_CONNECTION_FAILED).
func (p *guardProxy) fail(w http.ResponseWriter, _ *http.Request, err error) {
	status := http.StatusBadGateway
	if errs.Is(err, errs.KindForbidden) || errs.Is(err, errs.KindInvalid) {
		status = http.StatusForbidden
	}
	http.Error(w, err.Error(), status)
}

// drop answers a refused or failed plain-HTTP request by closing the
// connection, so the browser sees a network error and not a page of ours.
func (p *guardProxy) drop(w http.ResponseWriter, r *http.Request, err error) {
	if hj, ok := w.(http.Hijacker); ok {
		if c, _, herr := hj.Hijack(); herr == nil {
			c.Close()
			return
		}
	}
	p.fail(w, r, err)
}

// dial resolves addr, checks every address with the guard and dials the
// first that answers; one refused address refuses the whole name, as the
// fetch guard's CheckTarget does.
func (p *guardProxy) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	host, portStr, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	if _, err := strconv.Atoi(portStr); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, proxyDialTimeout)
	defer cancel()
	ips, err := net.DefaultResolver.LookupNetIP(ctx, "ip", host)
	if err != nil {
		return nil, err
	}
	for _, ip := range ips {
		target := "http://" + net.JoinHostPort(ip.Unmap().String(), portStr) + "/"
		if err := p.check(ctx, target); err != nil {
			p.mu.Lock()
			p.refused[strings.ToLower(addr)] = err
			p.mu.Unlock()
			return nil, err
		}
	}
	var d net.Dialer
	var last error
	for _, ip := range ips {
		c, err := d.DialContext(ctx, network, net.JoinHostPort(ip.Unmap().String(), portStr))
		if err == nil {
			return c, nil
		}
		last = err
	}
	if last == nil {
		last = errors.New("no address")
	}
	return nil, last
}

// tunnel serves CONNECT: check and dial the target, then splice bytes.
func (p *guardProxy) tunnel(w http.ResponseWriter, r *http.Request) {
	up, err := p.dial(r.Context(), "tcp", r.Host)
	if err != nil {
		p.fail(w, r, err)
		return
	}
	hj, ok := w.(http.Hijacker)
	if !ok {
		up.Close()
		http.Error(w, "cannot tunnel", http.StatusInternalServerError)
		return
	}
	down, buf, err := hj.Hijack()
	if err != nil {
		up.Close()
		return
	}
	if !p.track(up, down) {
		return
	}
	defer p.untrack(up, down)
	if _, err := down.Write([]byte("HTTP/1.1 200 Connection established\r\n\r\n")); err != nil {
		return
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		io.Copy(up, buf) // buffered client bytes first, then the connection
		if tc, ok := up.(*net.TCPConn); ok {
			tc.CloseWrite()
		}
	}()
	io.Copy(down, up)
	down.Close()
	<-done
}

// track records a tunnel's connections so close can end them; it closes
// them at once and reports false when the proxy is already closed.
func (p *guardProxy) track(cs ...net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		for _, c := range cs {
			c.Close()
		}
		return false
	}
	for _, c := range cs {
		p.conns[c] = struct{}{}
	}
	return true
}

func (p *guardProxy) untrack(cs ...net.Conn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range cs {
		c.Close()
		delete(p.conns, c)
	}
}
