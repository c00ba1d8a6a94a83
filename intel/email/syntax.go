package email

import (
	"net/mail"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/webinfra/webinfra/intel/resolver"
)

// Address limits (RFC 5321 §4.5.3.1).
const (
	// MaxLength bounds the input: a 64-byte local part, "@" and a
	// 255-byte domain, with room for quotes.
	MaxLength = 320
	// MaxLocalPart is the longest local part.
	MaxLocalPart = 64
)

// address is an address that passed the syntax check.
type address struct {
	local  string // as given, unquoted
	domain string // lower-case A-labels
}

// parse checks s as a bare address (addr-spec, RFC 5322 §3.4.1, with
// UTF-8 allowed as RFC 6532 does) and returns it, or why it is not one.
// The grammar is net/mail's; the length rules and the domain (a DNS host
// name, not an address literal) are checked here.
func parse(s string) (address, string) {
	if reason := precheck(s); reason != "" {
		return address{}, reason
	}
	parsed, err := mail.ParseAddress(s)
	if err != nil {
		return address{}, reasonOf(err)
	}
	if parsed.Name != "" {
		return address{}, "give the bare address (user@example.com), without a display name"
	}
	at := strings.LastIndexByte(parsed.Address, '@')
	local, domain := parsed.Address[:at], parsed.Address[at+1:]
	switch {
	case local == "":
		return address{}, "the local part (before @) is empty"
	case len(local) > MaxLocalPart:
		return address{}, "the local part (before @) is longer than 64 bytes"
	case strings.HasPrefix(domain, "["):
		return address{}, "address literals ([192.0.2.1]) cannot be verified: give an address at a domain"
	}
	canonical, err := resolver.Canonical("email", domain)
	if err != nil {
		return address{}, "the domain is not valid: " + strings.TrimPrefix(err.Error(), "email: ")
	}
	if !strings.Contains(canonical, ".") {
		return address{}, "the domain has no dot: addresses on the internet are at a domain such as example.com"
	}
	return address{local: local, domain: canonical}, ""
}

// precheck names the common mistakes plainly; net/mail's errors come
// from its last attempt (a display name with an angle address) and
// mislead ("no angle-addr").
func precheck(s string) string {
	at := strings.LastIndexByte(s, '@')
	quoted := strings.HasPrefix(s, `"`)
	switch {
	case !utf8.ValidString(s):
		return "not valid UTF-8"
	case strings.ContainsFunc(s, unicode.IsControl):
		return "has control characters (line breaks, tabs)"
	case strings.ContainsAny(s, "<>"):
		return "give the bare address (user@example.com), without a name or angle brackets"
	case at < 0:
		return "no @: an address is local-part@domain"
	case at == 0:
		return "the local part (before @) is empty"
	case at == len(s)-1:
		return "the domain (after @) is empty"
	case strings.ContainsAny(s[at+1:], " \t"):
		return "the domain (after @) has a space"
	case quoted:
		return ""
	case strings.ContainsAny(s[:at], " \t"):
		return "the local part has a space: it must be quoted"
	case strings.HasPrefix(s, ".") || strings.HasSuffix(s[:at], ".") || strings.Contains(s[:at], ".."):
		return "the local part starts or ends with a dot, or has two in a row"
	case strings.Contains(s[:at], "@"):
		return "more than one @: an @ in the local part must be quoted"
	}
	return ""
}

// reasonOf turns net/mail's error into a reason.
func reasonOf(err error) string {
	msg := strings.TrimPrefix(err.Error(), "mail: ")
	if strings.Contains(msg, "angle-addr") {
		msg = "characters that are not allowed unquoted"
	}
	return "not an address (RFC 5322): " + msg
}

// normalized is the address with its domain in lower-case A-labels; the
// local part keeps its case (RFC 5321 lets the mailbox's server decide)
// and is quoted when it needs to be.
func (a address) normalized() string {
	s := (&mail.Address{Address: a.local + "@" + a.domain}).String() // "<local@domain>"
	return strings.TrimSuffix(strings.TrimPrefix(s, "<"), ">")
}
