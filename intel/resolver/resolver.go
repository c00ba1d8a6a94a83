package resolver

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/miekg/dns"

	"github.com/webinfra/webinfra/errs"
)

// Defaults and bounds.
const (
	// DefaultTimeout bounds one try of one query (UDP, and TCP after TC).
	DefaultTimeout = 4 * time.Second
	// DefaultAttempts is how many tries a query gets, server after server.
	DefaultAttempts = 2
	// MaxAttempts bounds Options.Attempts.
	MaxAttempts = 5
	// UDPSize is the EDNS0 UDP payload size advertised (the DNS Flag Day
	// 2020 value, which avoids IP fragmentation).
	UDPSize = 1232
	// DefaultName names Options.Servers among the resolver choices.
	DefaultName = "default"
	// DefaultResolvConf is read when Options.Servers is empty.
	DefaultResolvConf = "/etc/resolv.conf"
)

// DefaultNamed are the public resolvers a caller may pick by name.
var DefaultNamed = map[string][]string{
	"cloudflare": {"1.1.1.1:53", "1.0.0.1:53"},
	"google":     {"8.8.8.8:53", "8.8.4.4:53"},
	"quad9":      {"9.9.9.9:53", "149.112.112.112:53"},
}

// Options configure a Resolver. The zero value (or nil) means defaults.
type Options struct {
	// Servers are the "ip:port" addresses of the default resolvers (a port
	// of 53 may be left out); empty: the nameservers of ResolvConf.
	Servers []string
	// ResolvConf is the resolv.conf read when Servers is empty; empty:
	// DefaultResolvConf. When it cannot be read the default resolver is
	// unavailable (errs.KindUnavailable at query time), not an error of New.
	ResolvConf string
	// Named are the other resolvers a caller may choose, by name; nil:
	// DefaultNamed. Names are lower-case letters, digits and hyphens, not
	// "default". The HTTP schema's enum lists DefaultNamed's names; other
	// names work from Go.
	Named map[string][]string
	// Timeout bounds one try of one query; 0: DefaultTimeout.
	Timeout time.Duration
	// Attempts is how many tries a query gets when a server fails or does
	// not answer, going through the servers in order; 0: DefaultAttempts.
	Attempts int
	// AuthorityDial opens the connections of AskAuthority, whose addresses
	// come from DNS data anyone can publish. nil: a dialer that refuses
	// every address but public unicast ones (code.dny.dev/ssrf). A server
	// passes fetch.Fetcher.DialService so the operator's network rules
	// apply; tests pass a plain dialer to reach loopback.
	AuthorityDial func(ctx context.Context, network, addr string) (net.Conn, error)
	// AuthorityPort is the name servers' port; 0: 53. Tests set the port
	// of a loopback server.
	AuthorityPort int
}

// Resolver sends DNS queries to configured resolvers. It is safe for
// concurrent use.
type Resolver struct {
	servers  []string // empty: none configured (errs.KindUnavailable)
	named    map[string][]string
	timeout  time.Duration
	attempts int
	authDial func(ctx context.Context, network, addr string) (net.Conn, error)
	authPort int
}

var nameRule = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,31}$`)

// New checks opts and returns a Resolver. Bad addresses or names are
// errs.KindInvalid naming the option ("servers", "named"); a resolv.conf
// that cannot be read is not an error here (see Options.ResolvConf).
func New(opts *Options) (*Resolver, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	r := &Resolver{timeout: o.Timeout, attempts: o.Attempts, authDial: o.AuthorityDial, authPort: o.AuthorityPort}
	if r.timeout <= 0 {
		r.timeout = DefaultTimeout
	}
	if r.attempts <= 0 {
		r.attempts = DefaultAttempts
	}
	if r.attempts > MaxAttempts {
		return nil, errs.Invalid("attempts", "at most %d, got %d", MaxAttempts, r.attempts)
	}
	if r.authPort <= 0 {
		r.authPort = 53
	}
	if r.authPort > 65535 {
		return nil, errs.Invalid("authority_port", "must be a port number, got %d", r.authPort)
	}
	var err error
	if len(o.Servers) > 0 {
		if r.servers, err = checkAddrs("servers", o.Servers); err != nil {
			return nil, err
		}
	} else {
		r.servers, _ = fromResolvConf(o.ResolvConf) // none: KindUnavailable at query time, without the file's path
	}
	named := o.Named
	if named == nil {
		named = DefaultNamed
	}
	r.named = map[string][]string{}
	for name, addrs := range named {
		if !nameRule.MatchString(name) || name == DefaultName {
			return nil, errs.Invalid("named", "resolver name %q: want lower-case letters, digits and hyphens, not %q", name, DefaultName)
		}
		if r.named[name], err = checkAddrs("named."+name, addrs); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// checkAddrs returns addrs as "ip:port", adding port 53 where it is left
// out. A host name (a container's "dnsmasq:53") is resolved once, here,
// by the system's resolver, within lookupHostTimeout.
func checkAddrs(field string, addrs []string) ([]string, error) {
	out := make([]string, 0, len(addrs))
	for _, a := range addrs {
		if ip, err := netip.ParseAddr(a); err == nil {
			out = append(out, netip.AddrPortFrom(ip, 53).String())
			continue
		}
		host, port, err := net.SplitHostPort(a)
		if err != nil {
			host, port = a, "53"
		}
		p, err := strconv.ParseUint(port, 10, 16)
		if err != nil || p == 0 || host == "" {
			return nil, errs.Invalid(field, "%q is not a host:port address", a)
		}
		ips, err := lookupHost(host)
		if err != nil {
			return nil, errs.Wrap(errs.KindInvalid, err, "%s: cannot resolve %q", field, host)
		}
		for _, ip := range ips {
			out = append(out, netip.AddrPortFrom(ip.Unmap(), uint16(p)).String())
		}
	}
	if len(out) == 0 {
		return nil, errs.Invalid(field, "no address")
	}
	return out, nil
}

// lookupHostTimeout bounds resolving a resolver's host name in New.
const lookupHostTimeout = 5 * time.Second

func lookupHost(host string) ([]netip.Addr, error) {
	if ip, err := netip.ParseAddr(host); err == nil {
		return []netip.Addr{ip}, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), lookupHostTimeout)
	defer cancel()
	return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
}

func fromResolvConf(path string) ([]string, error) {
	if path == "" {
		path = DefaultResolvConf
	}
	conf, err := dns.ClientConfigFromFile(path)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, s := range conf.Servers {
		if ip, err := netip.ParseAddr(s); err == nil {
			out = append(out, netip.AddrPortFrom(ip, portOf(conf.Port)).String())
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no nameserver line")
	}
	return out, nil
}

func portOf(s string) uint16 {
	p, err := strconv.ParseUint(s, 10, 16)
	if err != nil || p == 0 {
		return 53
	}
	return uint16(p)
}

// Names lists the resolver choices a caller may pick: DefaultName first,
// then the named ones in order.
func (r *Resolver) Names() []string {
	out := make([]string, 0, len(r.named)+1)
	for name := range r.named {
		out = append(out, name)
	}
	sort.Strings(out)
	return append([]string{DefaultName}, out...)
}

// pick returns the servers of a resolver choice and its name. A caller
// picks by name only, never by address: an address from a caller would
// let anyone send UDP into the operator's network through us (SSRF).
func (r *Resolver) pick(choice string) ([]string, string, error) {
	if choice == "" || choice == DefaultName {
		if len(r.servers) == 0 {
			return nil, DefaultName, errs.New(errs.KindUnavailable,
				"no DNS resolver configured: start the server with --dns-resolver host:port (WEBINFRA_DNS_RESOLVER) or give it a readable resolv.conf")
		}
		return r.servers, DefaultName, nil
	}
	if addrs, ok := r.named[choice]; ok {
		return addrs, choice, nil
	}
	return nil, "", errs.Invalid("resolver", "unknown resolver %q: one of %s", clip(choice, 40), strings.Join(r.Names(), ", "))
}

// clip cuts s to n bytes for an error message.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
