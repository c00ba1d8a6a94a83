package tlsinspect

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"errors"
	"time"
)

// maxChain is how many presented certificates are reported.
const maxChain = 10

// maxSANs is how many names of one certificate are reported.
const maxSANs = 500

// Certificate is one certificate of the presented chain.
type Certificate struct {
	Subject            string    `json:"subject" example:"CN=example.com"`
	Issuer             string    `json:"issuer" example:"CN=R3,O=Let's Encrypt,C=US"`
	Serial             string    `json:"serial" doc:"Serial number, lower-case hex."`
	NotBefore          time.Time `json:"not_before"`
	NotAfter           time.Time `json:"not_after"`
	DaysRemaining      int       `json:"days_remaining" doc:"Whole days until not_after; negative once expired."`
	SANs               []string  `json:"sans" doc:"Subject alternative names: DNS names, then IP addresses (at most 500)."`
	KeyAlgorithm       string    `json:"key_algorithm" enum:"RSA,ECDSA,Ed25519,unknown"`
	KeyBits            int       `json:"key_bits" doc:"RSA modulus or elliptic curve size in bits."`
	SignatureAlgorithm string    `json:"signature_algorithm" example:"SHA256-RSA"`
	SHA256Fingerprint  string    `json:"sha256_fingerprint" doc:"SHA-256 of the DER certificate, lower-case hex."`
	IsCA               bool      `json:"is_ca"`
}

func describe(c *x509.Certificate, now time.Time) Certificate {
	sum := sha256.Sum256(c.Raw)
	out := Certificate{
		Subject: c.Subject.String(), Issuer: c.Issuer.String(), Serial: serialHex(c),
		NotBefore: c.NotBefore.UTC(), NotAfter: c.NotAfter.UTC(), DaysRemaining: days(now, c.NotAfter),
		SANs: []string{}, SignatureAlgorithm: c.SignatureAlgorithm.String(),
		SHA256Fingerprint: hex.EncodeToString(sum[:]), IsCA: c.IsCA,
	}
	for _, n := range c.DNSNames {
		if len(out.SANs) < maxSANs {
			out.SANs = append(out.SANs, n)
		}
	}
	for _, ip := range c.IPAddresses {
		if len(out.SANs) < maxSANs {
			out.SANs = append(out.SANs, ip.String())
		}
	}
	out.KeyAlgorithm, out.KeyBits = keyInfo(c)
	return out
}

func serialHex(c *x509.Certificate) string {
	if c.SerialNumber == nil {
		return ""
	}
	return c.SerialNumber.Text(16)
}

func keyInfo(c *x509.Certificate) (string, int) {
	switch k := c.PublicKey.(type) {
	case *rsa.PublicKey:
		return "RSA", k.N.BitLen()
	case *ecdsa.PublicKey:
		return "ECDSA", k.Curve.Params().BitSize
	case ed25519.PublicKey:
		return "Ed25519", 256
	}
	return "unknown", 0
}

// isSelfSigned: issued by itself and signed by its own key. The
// signature is checked directly, not with CheckSignatureFrom, which also
// demands CA flags that many self-signed leaves lack.
func isSelfSigned(c *x509.Certificate) bool {
	return bytes.Equal(c.RawIssuer, c.RawSubject) && c.CheckSignature(c.SignatureAlgorithm, c.RawTBSCertificate, c.Signature) == nil
}

// judgeChain fills the chain, trust, name and expiry fields of rep.
func (o *options) judgeChain(rep *Report, certs []*x509.Certificate, host string) {
	now := o.Now()
	rep.Chain = []Certificate{}
	for i, c := range certs {
		if i == maxChain {
			break
		}
		rep.Chain = append(rep.Chain, describe(c, now))
	}
	if len(certs) == 0 {
		rep.VerifyError = "the server presented no certificate"
		return
	}
	leaf := certs[0]
	rep.HostnameMatch = leaf.VerifyHostname(host) == nil
	rep.SelfSigned = isSelfSigned(leaf)
	rep.ExpiresInDays = days(now, leaf.NotAfter)
	err := o.Verify(certs, host)
	var nameErr x509.HostnameError
	if err != nil && (errors.As(err, &nameErr) || !rep.HostnameMatch) {
		// The name is reported apart: is the chain itself trusted?
		if chainErr := o.Verify(certs, ""); chainErr == nil {
			rep.Trusted = true
		} else {
			err = chainErr
		}
	}
	if err == nil {
		rep.Trusted = true
	}
	if !rep.Trusted {
		rep.VerifyError = err.Error()
	} else if !rep.HostnameMatch {
		rep.VerifyError = leaf.VerifyHostname(host).Error()
	}
}

// issuerOf is the presented certificate that signed leaf, or nil.
func issuerOf(certs []*x509.Certificate) *x509.Certificate {
	if len(certs) < 2 {
		return nil
	}
	for _, c := range certs[1:] {
		if certs[0].CheckSignatureFrom(c) == nil {
			return c
		}
	}
	return nil
}
