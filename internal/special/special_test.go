package special

import (
	"net/netip"
	"testing"
)

func TestIP(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		addr     string
		reserved bool
	}{
		{"10.1.2.3", true}, {"192.168.0.1", true}, {"100.64.0.1", true}, {"127.0.0.1", true}, {"169.254.169.254", true},
		{"192.0.2.1", true}, {"::1", true}, {"fe80::1", true}, {"fd00::1", true}, {"::ffff:10.0.0.1", true}, {"224.0.0.1", true},
		{"1.1.1.1", false}, {"81.2.69.142", false}, {"2606:4700::1111", false}, {"192.0.0.9", false},
	} {
		if _, got := IP(netip.MustParseAddr(c.addr)); got != c.reserved {
			t.Errorf("%s: reserved %v, want %v", c.addr, got, c.reserved)
		}
	}
}

func TestName(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name    string
		private bool
	}{
		{"printer.local", true}, {"db.internal", true}, {"nas.home.arpa", true}, {"LOCALHOST.", true}, {"git.corp", true},
		{"example.com", false}, {"local.example.com", false}, {"internal.example", false}, {"1.1.1.1.in-addr.arpa", false},
	} {
		if _, got := Name(c.name); got != c.private {
			t.Errorf("%s: private %v, want %v", c.name, got, c.private)
		}
	}
}
