package dnsmsg

import (
	"errors"
	"net"
	"strings"
)

// Hide returns err with the resolver address removed from its message
// ("lookup x: no such host"); errors.As still finds the *net.DNSError.
// Errors without a DNS error, or one without a server, come back as they
// are.
func Hide(err error) error {
	var dnsErr *net.DNSError
	if err == nil || !errors.As(err, &dnsErr) || dnsErr.Server == "" {
		return err
	}
	return &hidden{err: err, msg: strings.ReplaceAll(err.Error(), " on "+dnsErr.Server, "")}
}

type hidden struct {
	err error
	msg string
}

func (h *hidden) Error() string { return h.msg }
func (h *hidden) Unwrap() error { return h.err }
