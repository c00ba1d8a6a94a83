package clientaddr_test

import (
	"testing"

	"github.com/webinfra/webinfra/internal/clientaddr"
)

func TestKey(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"127.0.0.1:5555", "127.0.0.1"},
		{"203.0.113.9", "203.0.113.9"},
		{"[2001:db8:1:2:aaaa:bbbb:cccc:dddd]:443", "2001:db8:1:2::/64"},
		{"[2001:db8:1:2::1]:1", "2001:db8:1:2::/64"},
		{"2001:db8:1:3::1", "2001:db8:1:3::/64"},
		{"[::ffff:192.0.2.7]:80", "192.0.2.7"},
		{"[fe80::1%eth0]:80", "fe80::/64"},
		{"@", "@"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := clientaddr.Key(tt.in); got != tt.want {
			t.Errorf("Key(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if clientaddr.Key("[2001:db8:1:2::1]:1") != clientaddr.Key("[2001:db8:1:2:ffff::9]:2") {
		t.Error("two addresses of one /64 got different keys")
	}
}
