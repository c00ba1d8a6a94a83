package dnsmsg

import (
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"
)

func TestHide(t *testing.T) {
	t.Parallel()
	for _, server := range []string{"10.255.255.53:53", "[fd00::53]:53"} {
		dnsErr := &net.DNSError{Err: "no such host", Name: "nope.invalid", Server: server, IsNotFound: true}
		err := Hide(fmt.Errorf("dial tcp: %w", &net.OpError{Op: "dial", Net: "tcp", Err: dnsErr}))
		if strings.Contains(err.Error(), server) || !strings.Contains(err.Error(), "lookup nope.invalid: no such host") {
			t.Errorf("%s: %q", server, err)
		}
		var got *net.DNSError
		if !errors.As(err, &got) || !got.IsNotFound {
			t.Errorf("%s: the DNS error is no longer in the chain", server)
		}
	}
	plain := errors.New("connection refused")
	if Hide(plain) != plain || Hide(nil) != nil {
		t.Error("errors without a resolver must come back unchanged")
	}
}
