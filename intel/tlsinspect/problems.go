package tlsinspect

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"slices"

	"github.com/webinfra/webinfra/intel/secheaders"
)

// Minimum key sizes: NIST SP 800-57 and the CA/Browser Forum's Baseline
// Requirements (RSA 2048, ECDSA P-256).
const (
	minRSABits   = 2048
	minECDSABits = 256
)

// weakSignatures are signature algorithms browsers no longer accept.
var weakSignatures = []x509.SignatureAlgorithm{
	x509.MD2WithRSA, x509.MD5WithRSA, x509.SHA1WithRSA, x509.DSAWithSHA1, x509.ECDSAWithSHA1,
}

// problems lists the findings of a report, most severe first. The codes:
//
//	certificate_expired        error    the leaf's not_after has passed
//	certificate_not_yet_valid  error    the leaf's not_before is in the future
//	certificate_expiring_soon  warning  the leaf expires within ExpiringSoon (30 days)
//	self_signed                error    the leaf is signed by its own key
//	untrusted_chain            error    the chain does not lead to a trusted root
//	hostname_mismatch          error    the leaf does not cover the domain
//	ocsp_revoked               error    the stapled OCSP response says revoked
//	weak_signature             error    a certificate (roots aside) signed with MD5 or SHA-1
//	weak_key                   error    RSA under 2048 bits or ECDSA under 256 (roots aside)
//	old_protocol               error    the handshake negotiated TLS 1.1 or older
//	legacy_protocol_accepted   warning  a handshake capped at TLS 1.1 succeeded
//	weak_cipher                warning  the negotiated suite is one Go calls insecure (RC4, 3DES, CBC-SHA256, RSA key exchange)
//	hsts_missing, hsts_invalid, hsts_disabled, hsts_short_max_age   warning  HSTS absent or under one year
//	hsts_no_include_subdomains info     HSTS without includeSubDomains
//	ocsp_invalid, ocsp_stale   warning  the staple does not parse, is not for this certificate, or is past next_update
//	ocsp_not_stapled           info     no OCSP response stapled (clients must ask the CA themselves)
func (o *options) problems(rep *Report, state tls.ConnectionState) []Problem {
	out := []Problem{}
	add := func(code, severity, format string, args ...any) {
		out = append(out, Problem{Code: code, Severity: severity, Message: fmt.Sprintf(format, args...)})
	}
	certs := state.PeerCertificates
	if len(certs) > 0 {
		o.certificateProblems(certs, add)
	}
	if !rep.Trusted && !rep.SelfSigned {
		add("untrusted_chain", SeverityError, "The chain does not lead to a trusted root: %s.", rep.VerifyError)
	}
	if len(certs) > 0 && !rep.HostnameMatch {
		add("hostname_mismatch", SeverityError, "The certificate does not cover %s (it names %s).", rep.Domain, namesOf(certs[0]))
	}
	if state.Version < tls.VersionTLS12 {
		add("old_protocol", SeverityError, "The server negotiated %s; TLS 1.2 is the minimum browsers accept.", rep.Protocol)
	}
	if l := rep.LegacyProtocols; l != nil && l.Accepted {
		add("legacy_protocol_accepted", SeverityWarning, "The server still accepts %s when a client offers nothing newer; turn off TLS 1.0 and 1.1 (RFC 8996).", l.Version)
	}
	if isInsecureSuite(state.CipherSuite) {
		add("weak_cipher", SeverityWarning, "The negotiated cipher suite %s is considered insecure; prefer AEAD suites with ECDHE.", rep.CipherSuite)
	}
	hstsProblems(rep.HSTS, add)
	ocspProblems(rep, add)
	slices.SortStableFunc(out, func(a, b Problem) int { return severityRank(a.Severity) - severityRank(b.Severity) })
	return out
}

// certificateProblems judges the leaf's dates and every presented
// certificate's signature and key.
func (o *options) certificateProblems(certs []*x509.Certificate, add func(code, severity, format string, args ...any)) {
	now, leaf := o.Now(), certs[0]
	switch left := leaf.NotAfter.Sub(now); {
	case left < 0:
		add("certificate_expired", SeverityError, "The certificate expired %s ago (%s).", plural(-days(now, leaf.NotAfter), "day"), leaf.NotAfter.UTC().Format("2006-01-02"))
	case now.Before(leaf.NotBefore):
		add("certificate_not_yet_valid", SeverityError, "The certificate is not valid before %s.", leaf.NotBefore.UTC().Format("2006-01-02 15:04 MST"))
	case left < o.ExpiringSoon:
		add("certificate_expiring_soon", SeverityWarning, "The certificate expires in %s (%s); renew it.", plural(days(now, leaf.NotAfter), "day"), leaf.NotAfter.UTC().Format("2006-01-02"))
	}
	if isSelfSigned(leaf) {
		add("self_signed", SeverityError, "The certificate is self-signed: no browser trusts it.")
	}
	for i, c := range certs {
		if i == maxChain {
			break
		}
		if i > 0 && isSelfSigned(c) {
			continue // a root's own signature and key are not what clients rely on
		}
		if slices.Contains(weakSignatures, c.SignatureAlgorithm) {
			add("weak_signature", SeverityError, "Certificate %d (%s) is signed with %s, which browsers reject.", i, c.Subject.CommonName, c.SignatureAlgorithm)
		}
		switch alg, bits := keyInfo(c); {
		case alg == "RSA" && bits < minRSABits, alg == "ECDSA" && bits < minECDSABits:
			add("weak_key", SeverityError, "Certificate %d (%s) has a %d-bit %s key; use RSA 2048 or ECDSA P-256 at least.", i, c.Subject.CommonName, bits, alg)
		}
	}
}

func hstsProblems(h HSTS, add func(code, severity, format string, args ...any)) {
	if !h.Checked {
		return
	}
	result, _, code, reason := secheaders.HSTSAdvice(h.HSTS)
	switch {
	case code == "":
	case result == secheaders.Fail || code == secheaders.HSTSShort:
		add(code, SeverityWarning, "%s", reason)
	default:
		add(code, SeverityInfo, "%s", reason)
	}
}

func ocspProblems(rep *Report, add func(code, severity, format string, args ...any)) {
	switch s := rep.OCSP; {
	case s == nil:
		add("ocsp_not_stapled", SeverityInfo, "No OCSP response is stapled: clients that check revocation must ask the CA themselves, which is slower and leaks the visit.")
	case s.Status == "revoked":
		add("ocsp_revoked", SeverityError, "The stapled OCSP response says the certificate is revoked.")
	case s.Status == "invalid":
		add("ocsp_invalid", SeverityWarning, "The stapled OCSP response cannot be used: %s.", s.Error)
	case s.Stale:
		add("ocsp_stale", SeverityWarning, "The stapled OCSP response is past its next update (%s).", s.NextUpdate.Format("2006-01-02 15:04 MST"))
	}
}

func isInsecureSuite(id uint16) bool {
	for _, s := range tls.InsecureCipherSuites() {
		if s.ID == id {
			return true
		}
	}
	return false
}

func severityRank(s string) int {
	switch s {
	case SeverityError:
		return 0
	case SeverityWarning:
		return 1
	}
	return 2
}

// namesOf lists a certificate's names for a message, at most five.
func namesOf(c *x509.Certificate) string {
	var names []string
	names = append(names, c.DNSNames...)
	for _, ip := range c.IPAddresses {
		names = append(names, ip.String())
	}
	if len(names) == 0 && c.Subject.CommonName != "" {
		names = append(names, c.Subject.CommonName)
	}
	switch {
	case len(names) == 0:
		return "no names"
	case len(names) > 5:
		return fmt.Sprintf("%v and %d more", names[:5], len(names)-5)
	}
	return fmt.Sprintf("%v", names)
}
