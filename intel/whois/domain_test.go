package whois

import (
	"strings"
	"testing"

	"github.com/webinfra/webinfra/errs"
)

func TestRegistrableDomain(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		{"example.com", "example.com"},
		{"  WWW.Example.COM. ", "example.com"},
		{"a.b.c.example.co.uk", "example.co.uk"},
		{"bücher.de", "xn--bcher-kva.de"},
		{"www.xn--bcher-kva.de", "xn--bcher-kva.de"},
		{"foo.blogspot.com", "blogspot.com"}, // a private suffix: the registry holds blogspot.com
		{"shop.example.zz", "example.zz"},    // a TLD the list does not know
		{"münchen.example", ""},
	} {
		got, err := registrableDomain(c.in)
		if c.want == "" {
			if err == nil {
				t.Errorf("%q: %q, want an error", c.in, got)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%q: %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}

func TestRegistrableDomainRefusals(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, says string }{
		{"", "is required"},
		{"https://example.com/", "not a URL"},
		{"example.com/about", "not a URL"},
		{"user@example.com", "not a URL"},
		{"example.com:443", "not a URL"},
		{"exa mple.com", "not a URL"},
		{"192.0.2.1", "IP address"},
		{"com", "top-level domain"},
		{"co.uk", "public suffix"},
		{"localhost", "top-level domain"},
		{"printer.local", "special-use"},
		{"example.test", "special-use"},
		{"1.in-addr.arpa", "special-use"},
		{"-bad.com", "not a valid domain name"},
		{"a..com", "empty label"},
		{"under_score.com", "not a valid domain name"},
		{strings.Repeat("a", 64) + ".com", "63"},
		{strings.Repeat("abcdefghi.", 26) + "com", "longer than 253"},
	} {
		_, err := registrableDomain(c.in)
		if errs.FieldOf(err) != "domain" || !errs.Is(err, errs.KindInvalid) || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%q: %v; want invalid domain saying %q", c.in, err, c.says)
		}
	}
}

func TestEPPStatus(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"client transfer prohibited": "clientTransferProhibited",
		"Server Hold":                "serverHold",
		"active":                     "ok",
		"pending delete":             "pendingDelete",
		"clientHold":                 "clientHold",
		"  ":                         "",
	} {
		if got := eppStatus(in); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}
