package fetch

import (
	"fmt"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"code.dny.dev/ssrf"

	"github.com/webinfra/webinfra/errs"
)

// guard decides, at dial time and after DNS, whether a connection may be
// made. It is installed as net.Dialer.Control, so it sees the address
// actually dialled for every connection, redirect hops included.
type guard struct {
	addrs *ssrf.Guardian // nil: any address (AllowPrivateNetworks)
	ports []int          // nil: any port (AllowPrivateNetworks)
	// allow lets chosen targets through before the rules. Only tests set it
	// (to reach a first loopback server and then check the next hop).
	allow func(netip.AddrPort) bool
}

func newGuard(o *Options, allow func(netip.AddrPort) bool) *guard {
	g := &guard{allow: allow}
	if !o.AllowPrivateNetworks {
		// The Guardian only decides on addresses here (SafeAddr); ports
		// are checked by us afterwards so a refusal names the address
		// rule first, the more telling of the two.
		g.addrs = ssrf.New()
		g.ports = o.AllowedPorts
	}
	return g
}

// control is the net.Dialer.Control hook.
func (g *guard) control(network, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return &errs.Error{
			Kind:    errs.KindForbidden,
			Message: fmt.Sprintf("refused: cannot parse dial address %q (SSRF guard)", address),
			Err:     ssrf.ErrInvalidHostPort,
		}
	}
	if g.allow != nil && g.allow(ap) {
		return nil
	}
	return g.check(ap)
}

// check applies the address rule, then the port rule.
func (g *guard) check(ap netip.AddrPort) error {
	if g.addrs != nil {
		if err := g.addrs.SafeAddr(ap.Addr()); err != nil {
			return &errs.Error{
				Kind:    errs.KindForbidden,
				Message: fmt.Sprintf("refused: %s is %s (SSRF guard)", ap.Addr(), describeAddr(ap.Addr())),
				Err:     ssrf.ErrProhibitedIP,
			}
		}
	}
	if g.ports != nil && !slices.Contains(g.ports, int(ap.Port())) {
		return &errs.Error{
			Kind: errs.KindForbidden,
			Message: fmt.Sprintf("refused: port %d is not an allowed port (allowed: %s) (SSRF guard)",
				ap.Port(), joinPorts(g.ports)),
			Err: ssrf.ErrProhibitedPort,
		}
	}
	return nil
}

func joinPorts(ports []int) string {
	s := make([]string, len(ports))
	for i, p := range ports {
		s[i] = strconv.Itoa(p)
	}
	return strings.Join(s, ", ")
}

var (
	metadataAddrs = []netip.Addr{
		netip.MustParseAddr("169.254.169.254"), // AWS, GCP, Azure, OpenStack, ...
		netip.MustParseAddr("fd00:ec2::254"),   // AWS IMDS over IPv6
	}
	thisNetworkV4 = netip.MustParsePrefix("0.0.0.0/8")
	sharedV4      = netip.MustParsePrefix("100.64.0.0/10")
	nat64         = netip.MustParsePrefix("64:ff9b::/96")
)

// describeAddr names, with its article, the class of an address the
// Guardian refused, for the error message. The Guardian decides; this only
// explains.
func describeAddr(ip netip.Addr) string {
	ip = ip.WithZone("")
	if ip.Is4In6() {
		return "an IPv4-mapped IPv6 form of " + describeAddr(ip.Unmap())
	}
	switch {
	case slices.Contains(metadataAddrs, ip):
		return "a cloud metadata address"
	case ip.IsLoopback():
		return "a loopback address"
	case ip.IsUnspecified() || thisNetworkV4.Contains(ip):
		return "an unspecified (\"this network\") address"
	case ip.IsPrivate() && ip.Is4():
		return "a private address"
	case ip.IsPrivate():
		return "a unique-local address"
	case ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast():
		return "a link-local address"
	case sharedV4.Contains(ip):
		return "a shared address space (CGNAT) address"
	case ip.IsMulticast():
		return "a multicast address"
	case nat64.Contains(ip):
		return "a NAT64 address"
	default:
		return "a reserved or special-purpose address"
	}
}
