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
	addrs   *ssrf.Guardian // nil: any address but metadata ones (AllowPrivateNetworks)
	ports   []int          // nil: any port (AllowPrivateNetworks)
	allowed []netip.Prefix // let through whatever they hold (AllowNetworks)
	// allow lets chosen targets through before the rules. Only tests set it
	// (to reach a first loopback server and then check the next hop).
	allow func(netip.AddrPort) bool
}

func newGuard(o *Options, allow func(netip.AddrPort) bool) *guard {
	g := &guard{allow: allow, allowed: o.AllowNetworks}
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

// check lets the allowed networks through, then applies the address rule
// (metadata addresses are refused even when private networks are
// allowed), then the port rule. A refusal names the way out for whoever
// runs the server.
func (g *guard) check(ap netip.AddrPort) error {
	addr := ap.Addr().WithZone("").Unmap()
	for _, p := range g.allowed {
		if p.Contains(addr) {
			return nil
		}
	}
	if isMetadata(addr) {
		return refusal(ssrf.ErrProhibitedIP, "refused: %s is a cloud metadata address (SSRF guard); only --allow-networks %s "+
			"(WEBINFRA_ALLOW_NETWORKS) opens it, not --allow-private-networks", ap.Addr(), netip.PrefixFrom(addr, addr.BitLen()))
	}
	if g.addrs != nil {
		if err := g.addrs.SafeAddr(ap.Addr()); err != nil {
			return refusal(ssrf.ErrProhibitedIP, "refused: %s is %s (SSRF guard); a self-hosted server reaches such addresses when started with "+
				"--allow-networks %s (WEBINFRA_ALLOW_NETWORKS) or --allow-private-networks (WEBINFRA_ALLOW_PRIVATE_NETWORKS=1)",
				ap.Addr(), describeAddr(ap.Addr()), netip.PrefixFrom(addr, addr.BitLen()))
		}
	}
	if g.ports != nil && !slices.Contains(g.ports, int(ap.Port())) {
		return refusal(ssrf.ErrProhibitedPort, "refused: port %d is not an allowed port (allowed: %s) (SSRF guard); "+
			"--allow-networks (WEBINFRA_ALLOW_NETWORKS) opens every port of the networks it lists", ap.Port(), joinPorts(g.ports))
	}
	return nil
}

func refusal(cause error, format string, args ...any) *errs.Error {
	return &errs.Error{Kind: errs.KindForbidden, Message: fmt.Sprintf(format, args...), Err: cause}
}

func joinPorts(ports []int) string {
	s := make([]string, len(ports))
	for i, p := range ports {
		s[i] = strconv.Itoa(p)
	}
	return strings.Join(s, ", ")
}

var (
	// metadataAddrs are the cloud instance-metadata endpoints, which hand
	// out credentials to whoever asks from inside the instance.
	metadataAddrs = []netip.Addr{
		netip.MustParseAddr("169.254.169.254"), // AWS, GCP, Azure, OpenStack, DigitalOcean, Oracle, ...
		netip.MustParseAddr("fd00:ec2::254"),   // AWS IMDS over IPv6
		netip.MustParseAddr("169.254.170.2"),   // AWS ECS task metadata and credentials
		netip.MustParseAddr("169.254.170.23"),  // AWS EKS pod identity agent
		netip.MustParseAddr("100.100.100.200"), // Alibaba Cloud
		netip.MustParseAddr("168.63.129.16"),   // Azure WireServer
	}
	thisNetworkV4 = netip.MustParsePrefix("0.0.0.0/8")
	sharedV4      = netip.MustParsePrefix("100.64.0.0/10")
	nat64         = netip.MustParsePrefix("64:ff9b::/96")
)

func isMetadata(ip netip.Addr) bool { return slices.Contains(metadataAddrs, ip) }

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
