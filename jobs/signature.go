package jobs

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
	"time"

	"github.com/webinfra/webinfra/errs"
)

// Webhook headers (SPEC §6, with the product name in place of "Service").
const (
	// SignatureHeader carries "t=<unix seconds>,v1=<hex HMAC-SHA256>".
	SignatureHeader = "X-Webinfra-Signature"
	// EventIDHeader carries the event id: the job id of a completion callback.
	EventIDHeader = "X-Webinfra-Event-ID"
)

// DefaultTolerance is how far a signature's timestamp may be from the
// receiver's clock, in the past or the future, when a verifier is given no
// tolerance of its own.
const DefaultTolerance = 5 * time.Minute

// signatureScheme is the only signing scheme: HMAC-SHA256 over "<t>.<body>".
const signatureScheme = "v1"

// Errors returned by VerifySignature. They are errs.KindUnauthenticated
// errors: the request cannot be shown to come from Webinfra. Compare with
// errors.Is.
var (
	// ErrNoSignature: the header is empty or holds no v1 signature.
	ErrNoSignature = &errs.Error{Kind: errs.KindUnauthenticated,
		Message: "webhook signature: no " + signatureScheme + " signature in the " + SignatureHeader + " header"}
	// ErrMalformedSignature: the header cannot be parsed (a part without
	// "=", a missing, repeated or non-numeric t, or no v1 value that is
	// hex-encoded SHA-256).
	ErrMalformedSignature = &errs.Error{Kind: errs.KindUnauthenticated,
		Message: "webhook signature: malformed " + SignatureHeader + " header"}
	// ErrTimestampOutOfTolerance: t is too far in the past (a replay) or in
	// the future.
	ErrTimestampOutOfTolerance = &errs.Error{Kind: errs.KindUnauthenticated,
		Message: "webhook signature: timestamp outside the tolerance window"}
	// ErrSignatureMismatch: no v1 value matches the body under this secret.
	ErrSignatureMismatch = &errs.Error{Kind: errs.KindUnauthenticated,
		Message: "webhook signature: no signature matches the body and secret"}
)

// Sign returns the SignatureHeader value for body signed with secret at
// time t: "t=<unix>,v1=<hex>", where v1 is the hex HMAC-SHA256 of the bytes
// "<unix>.<body>" keyed with the whole secret string ("whsec_..." included),
// the scheme Stripe uses, so Stripe's verifiers accept it too.
func Sign(body []byte, secret string, t time.Time) string {
	ts := strconv.FormatInt(t.Unix(), 10)
	return "t=" + ts + "," + signatureScheme + "=" + hex.EncodeToString(computeSignature(ts, body, secret))
}

// VerifySignature checks a SignatureHeader value against the raw request
// body and the account's webhook secret, as a Go receiver should before it
// trusts a callback:
//
//	body, _ := io.ReadAll(r.Body)
//	err := jobs.VerifySignature(r.Header.Get(jobs.SignatureHeader), body, secret, 0)
//
// A tolerance <= 0 means DefaultTolerance. The header's timestamp must be
// within tolerance of now, in the past or the future. The header may carry
// several v1 values (during a secret rotation); one match is enough.
// Signatures are compared in constant time; unknown schemes such as v0 are
// ignored. The error is one of ErrNoSignature, ErrMalformedSignature,
// ErrTimestampOutOfTolerance or ErrSignatureMismatch.
func VerifySignature(header string, body []byte, secret string, tolerance time.Duration) error {
	return VerifySignatureAt(header, body, secret, tolerance, time.Now())
}

// VerifySignatureAt is VerifySignature with the receiver's clock reading
// given as now.
func VerifySignatureAt(header string, body []byte, secret string, tolerance time.Duration, now time.Time) error {
	if tolerance <= 0 {
		tolerance = DefaultTolerance
	}
	sh, err := parseSignatureHeader(header)
	if err != nil {
		return err
	}
	signedAt := time.Unix(sh.unix, 0)
	if age := now.Sub(signedAt); age > tolerance || age < -tolerance {
		return ErrTimestampOutOfTolerance
	}
	want := computeSignature(strconv.FormatInt(sh.unix, 10), body, secret)
	matched := false
	for _, sig := range sh.signatures {
		// Check every value without an early exit, so timing does not
		// tell which position matched.
		if hmac.Equal(want, sig) {
			matched = true
		}
	}
	if !matched {
		return ErrSignatureMismatch
	}
	return nil
}

// computeSignature is HMAC-SHA256(key = secret, message = "<ts>.<body>").
func computeSignature(ts string, body []byte, secret string) []byte {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(ts))
	mac.Write([]byte{'.'})
	mac.Write(body)
	return mac.Sum(nil)
}

// signatureHeader is a parsed SignatureHeader value.
type signatureHeader struct {
	unix       int64
	signatures [][]byte // decoded v1 values, each sha256.Size bytes
}

// parseSignatureHeader parses "t=<unix>,v1=<hex>[,v1=<hex>...][,v0=...]".
// Spaces around parts are tolerated; parts of unknown schemes are skipped.
func parseSignatureHeader(header string) (signatureHeader, error) {
	var sh signatureHeader
	header = strings.TrimSpace(header)
	if header == "" {
		return sh, ErrNoSignature
	}
	haveTime, sawV1 := false, false
	for part := range strings.SplitSeq(header, ",") {
		key, value, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok || key == "" {
			return sh, ErrMalformedSignature
		}
		switch key {
		case "t":
			unix, ok := parseUnix(value)
			if !ok || haveTime {
				return sh, ErrMalformedSignature
			}
			sh.unix, haveTime = unix, true
		case signatureScheme:
			sawV1 = true
			sig, err := hex.DecodeString(value)
			if err != nil || len(sig) != sha256.Size {
				continue // a bad value cannot match; others may
			}
			sh.signatures = append(sh.signatures, sig)
		}
	}
	switch {
	case !haveTime:
		return sh, ErrMalformedSignature
	case !sawV1:
		return sh, ErrNoSignature
	case len(sh.signatures) == 0:
		return sh, ErrMalformedSignature
	}
	return sh, nil
}

// parseUnix parses a timestamp of decimal digits only (no sign, no spaces).
func parseUnix(s string) (int64, bool) {
	if s == "" || len(s) > 18 {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil
}
