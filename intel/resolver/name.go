package resolver

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"

	"github.com/webinfra/webinfra/errs"
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
	return out, nil
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
