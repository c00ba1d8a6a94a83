package resolver

import (
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/internal/special"
)

// Name limits (RFC 1035 §2.3.4).
const (
	MaxNameLength  = 253
	MaxLabelLength = 63
)

// maxRawName bounds what is read of a name before any work on it.
const maxRawName = 1024

// dotsFolded are the full stops IDNA treats as label separators.
var dotsFolded = strings.NewReplacer("\u3002", ".", "\uff0e", ".", "\uff61", ".")

// Canonical checks a domain name and returns it in lower-case A-labels,
// without the trailing dot: " Bücher.Example. " → "xn--bcher-kva.example".
// Labels are letters, digits and hyphens (not first or last), or
// underscores (service labels such as _dmarc, _25._tcp), 63 bytes at most;
// the name is 253 at most. Labels outside ASCII go through IDNA 2008
// (golang.org/x/net/idna, the lookup profile). A bad name is
// errs.KindInvalid naming field.
func Canonical(field, name string) (string, error) {
	name = strings.TrimSpace(name)
	if len(name) > maxRawName {
		return "", errs.Invalid(field, "longer than %d bytes", MaxNameLength)
	}
	name = strings.TrimSuffix(dotsFolded.Replace(name), ".")
	if name == "" {
		return "", errs.Invalid(field, "a domain name is required")
	}
	if !utf8.ValidString(name) {
		return "", errs.Invalid(field, "not valid UTF-8")
	}
	labels := strings.Split(name, ".")
	for i, label := range labels {
		ascii, err := asciiLabel(label)
		if err != nil {
			return "", errs.Invalid(field, "%s", err.Error())
		}
		labels[i] = ascii
	}
	out := strings.Join(labels, ".")
	if len(out) > MaxNameLength {
		return "", errs.Invalid(field, "longer than %d bytes (in A-labels)", MaxNameLength)
	}
	if err := checkPublic(field, out); err != nil {
		return "", err
	}
	return out, nil
}

// checkPublic refuses names the public DNS does not hold (.local,
// .internal, home.arpa, ...) and reverse names of special-purpose
// addresses: the server's resolver may answer them from the operator's
// own network, which callers must not read.
func checkPublic(field, name string) error {
	if why, ok := special.Name(name); ok {
		return errs.Invalid(field, "%s is %s: not asked about, so the server's own network stays private", name, why)
	}
	for _, zone := range []string{"in-addr.arpa", "ip6.arpa"} {
		if !strings.HasSuffix(name, "."+zone) {
			continue
		}
		addr, ok := reverseToAddr(name)
		if !ok {
			return errs.Invalid(field, "%s is a partial reverse name: give the IP address instead", name)
		}
		return checkAddr(field, addr)
	}
	return nil
}

// checkAddr refuses a special-purpose address (private, loopback,
// documentation, ...) whose reverse name would be asked.
func checkAddr(field string, addr netip.Addr) error {
	if r, ok := special.IP(addr); ok {
		return errs.Invalid(field, "%s is %s (%s, %s): not asked about, so the server's own network stays private", addr, r.What, r.Prefix, r.RFC)
	}
	return nil
}

// reverseToAddr reads the address of a full reverse name
// (4.3.2.1.in-addr.arpa, or 32 nibbles under ip6.arpa).
func reverseToAddr(name string) (netip.Addr, bool) {
	if v4, ok := strings.CutSuffix(name, ".in-addr.arpa"); ok {
		labels := strings.Split(v4, ".")
		if len(labels) != 4 {
			return netip.Addr{}, false
		}
		slices.Reverse(labels)
		addr, err := netip.ParseAddr(strings.Join(labels, "."))
		return addr, err == nil && addr.Is4()
	}
	v6, _ := strings.CutSuffix(name, ".ip6.arpa")
	nibbles := strings.Split(v6, ".")
	if len(nibbles) != 32 {
		return netip.Addr{}, false
	}
	slices.Reverse(nibbles)
	var b strings.Builder
	for i, n := range nibbles {
		if len(n) != 1 {
			return netip.Addr{}, false
		}
		if i > 0 && i%4 == 0 {
			b.WriteByte(':')
		}
		b.WriteString(n)
	}
	addr, err := netip.ParseAddr(b.String())
	return addr, err == nil && addr.Is6()
}

type nameError string

func (e nameError) Error() string { return string(e) }

// asciiLabel returns one label in lower-case ASCII, converting a Unicode
// label to its A-label.
func asciiLabel(label string) (string, error) {
	if label == "" {
		return "", nameError("has an empty label (two dots in a row, or a leading dot)")
	}
	if !isASCII(label) {
		a, err := idna.Lookup.ToASCII(label)
		if err != nil {
			return "", nameError("label " + quote(label) + " is not a valid internationalized name")
		}
		label = a
	}
	label = strings.ToLower(label)
	if len(label) > MaxLabelLength {
		return "", nameError("label " + quote(label) + " is longer than 63 bytes")
	}
	for i := 0; i < len(label); i++ {
		c := label[i]
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '_':
		case c == '-' && i > 0 && i < len(label)-1:
		case c == '-':
			return "", nameError("label " + quote(label) + " starts or ends with a hyphen")
		default:
			return "", nameError("label " + quote(label) + " has a character other than letters, digits, hyphens and underscores")
		}
	}
	return label, nil
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// quote quotes a label for a message, cut to 70 bytes.
func quote(s string) string { return strconv.Quote(clip(s, 70)) }
