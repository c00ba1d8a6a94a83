package jobs_test

import (
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stripe/stripe-go/v85/webhook"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/jobs"
)

const (
	sigTestSecret = "whsec_5f2b7c9d0e1a"
	sigTestBody   = `{"job_id":"job_123","result":{"status":"done"}}`
	sigTestUnix   = 1700000000
	// sigTestV1 was computed independently (Python's hmac module) over
	// "1700000000." + sigTestBody with sigTestSecret as key.
	sigTestV1 = "29220ee3e01bb6446f8d19262814044df3df946efbb86a8cedf0046237c1bd20"
)

// sigTestV1For returns the hex v1 signature of body signed with secret at t.
func sigTestV1For(t *testing.T, body, secret string, at time.Time) string {
	t.Helper()
	_, v1, ok := strings.Cut(jobs.Sign([]byte(body), secret, at), ",v1=")
	if !ok {
		t.Fatal("Sign output has no v1 part")
	}
	return v1
}

func TestSignKnownVector(t *testing.T) {
	t.Parallel()
	got := jobs.Sign([]byte(sigTestBody), sigTestSecret, time.Unix(sigTestUnix, 0))
	want := "t=1700000000,v1=" + sigTestV1
	if got != want {
		t.Fatalf("Sign = %q\nwant   %q", got, want)
	}
	// Sub-second parts of the time are dropped, as the header holds seconds.
	if again := jobs.Sign([]byte(sigTestBody), sigTestSecret, time.Unix(sigTestUnix, 999_999_999)); again != want {
		t.Fatalf("Sign with nanoseconds = %q, want %q", again, want)
	}
}

func TestVerifySignatureAt(t *testing.T) {
	t.Parallel()
	now := time.Unix(sigTestUnix, 0)
	body := sigTestBody
	ts := strconv.FormatInt(sigTestUnix, 10)
	good := "t=" + ts + ",v1=" + sigTestV1
	otherSecretV1 := sigTestV1For(t, body, "whsec_old", now)
	at := func(d time.Duration) string { return jobs.Sign([]byte(body), sigTestSecret, now.Add(d)) }

	tests := []struct {
		name      string
		header    string
		body      string
		secret    string
		tolerance time.Duration
		want      error
	}{
		{name: "valid", header: good},
		{name: "valid with uppercase hex", header: "t=" + ts + ",v1=" + strings.ToUpper(sigTestV1)},
		{name: "spaces around parts", header: " t=" + ts + " , v1=" + sigTestV1 + " "},
		{name: "parts in any order", header: "v1=" + sigTestV1 + ",t=" + ts},
		{name: "tampered body", header: good, body: body + " ", want: jobs.ErrSignatureMismatch},
		{name: "tampered body value", header: good, body: strings.Replace(body, "done", "dona", 1), want: jobs.ErrSignatureMismatch},
		{name: "wrong secret", header: good, secret: "whsec_other", want: jobs.ErrSignatureMismatch},
		{name: "secret without prefix is a different key", header: good, secret: strings.TrimPrefix(sigTestSecret, "whsec_"), want: jobs.ErrSignatureMismatch},
		{name: "timestamp changed after signing", header: "t=" + strconv.Itoa(sigTestUnix+1) + ",v1=" + sigTestV1, want: jobs.ErrSignatureMismatch},
		{name: "old timestamp", header: at(-6 * time.Minute), want: jobs.ErrTimestampOutOfTolerance},
		{name: "very old timestamp", header: "t=0,v1=" + sigTestV1, want: jobs.ErrTimestampOutOfTolerance},
		{name: "future timestamp", header: at(6 * time.Minute), want: jobs.ErrTimestampOutOfTolerance},
		{name: "far future timestamp", header: "t=999999999999999999,v1=" + sigTestV1, want: jobs.ErrTimestampOutOfTolerance},
		{name: "exactly at the past edge", header: at(-5 * time.Minute)},
		{name: "exactly at the future edge", header: at(5 * time.Minute)},
		{name: "one second past the edge", header: at(-5*time.Minute - time.Second), want: jobs.ErrTimestampOutOfTolerance},
		{name: "custom tolerance allows older", header: at(-6 * time.Minute), tolerance: 10 * time.Minute},
		{name: "custom tolerance rejects", header: at(-2 * time.Minute), tolerance: time.Minute, want: jobs.ErrTimestampOutOfTolerance},
		{name: "negative tolerance means default", header: at(-4 * time.Minute), tolerance: -time.Second},
		{name: "several v1, right one last", header: "t=" + ts + ",v1=" + otherSecretV1 + ",v1=" + sigTestV1},
		{name: "several v1, right one first", header: "t=" + ts + ",v1=" + sigTestV1 + ",v1=" + otherSecretV1},
		{name: "several v1, verified with the old secret", header: "t=" + ts + ",v1=" + sigTestV1 + ",v1=" + otherSecretV1, secret: "whsec_old"},
		{name: "several v1, none match", header: "t=" + ts + ",v1=" + otherSecretV1 + ",v1=" + strings.Repeat("0", 64), want: jobs.ErrSignatureMismatch},
		{name: "bad v1 ignored when another is good", header: "t=" + ts + ",v1=zz,v1=" + sigTestV1},
		{name: "unknown scheme ignored", header: "t=" + ts + ",v0=" + sigTestV1 + "ff,v1=" + sigTestV1 + ",v2=x"},
		{name: "only an unknown scheme", header: "t=" + ts + ",v0=" + sigTestV1, want: jobs.ErrNoSignature},
		{name: "empty header", header: "", want: jobs.ErrNoSignature},
		{name: "blank header", header: "   ", want: jobs.ErrNoSignature},
		{name: "timestamp only", header: "t=" + ts, want: jobs.ErrNoSignature},
		{name: "missing t", header: "v1=" + sigTestV1, want: jobs.ErrMalformedSignature},
		{name: "empty t", header: "t=,v1=" + sigTestV1, want: jobs.ErrMalformedSignature},
		{name: "non-numeric t", header: "t=yesterday,v1=" + sigTestV1, want: jobs.ErrMalformedSignature},
		{name: "signed t", header: "t=+" + ts + ",v1=" + sigTestV1, want: jobs.ErrMalformedSignature},
		{name: "negative t", header: "t=-1,v1=" + sigTestV1, want: jobs.ErrMalformedSignature},
		{name: "overflowing t", header: "t=99999999999999999999999,v1=" + sigTestV1, want: jobs.ErrMalformedSignature},
		{name: "repeated t", header: "t=" + ts + ",t=" + ts + ",v1=" + sigTestV1, want: jobs.ErrMalformedSignature},
		{name: "garbage", header: "garbage", want: jobs.ErrMalformedSignature},
		{name: "garbage with commas", header: ",,,", want: jobs.ErrMalformedSignature},
		{name: "part without key", header: "t=" + ts + ",=abc,v1=" + sigTestV1, want: jobs.ErrMalformedSignature},
		{name: "bare hex", header: sigTestV1, want: jobs.ErrMalformedSignature},
		{name: "v1 not hex", header: "t=" + ts + ",v1=not-hex", want: jobs.ErrMalformedSignature},
		{name: "v1 too short", header: "t=" + ts + ",v1=" + sigTestV1[:62], want: jobs.ErrMalformedSignature},
		{name: "v1 too long", header: "t=" + ts + ",v1=" + sigTestV1 + "00", want: jobs.ErrMalformedSignature},
		{name: "v1 empty", header: "t=" + ts + ",v1=", want: jobs.ErrMalformedSignature},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b, secret := tc.body, tc.secret
			if b == "" {
				b = body
			}
			if secret == "" {
				secret = sigTestSecret
			}
			err := jobs.VerifySignatureAt(tc.header, []byte(b), secret, tc.tolerance, now)
			if !errors.Is(err, tc.want) || (tc.want == nil && err != nil) {
				t.Fatalf("VerifySignatureAt(%q) = %v, want %v", tc.header, err, tc.want)
			}
			if err != nil && errs.KindOf(err) != errs.KindUnauthenticated {
				t.Fatalf("kind = %q, want unauthenticated", errs.KindOf(err))
			}
		})
	}
}

func TestVerifySignatureUsesTheWallClock(t *testing.T) {
	t.Parallel()
	body := []byte(sigTestBody)
	if err := jobs.VerifySignature(jobs.Sign(body, sigTestSecret, time.Now()), body, sigTestSecret, 0); err != nil {
		t.Fatalf("fresh signature: %v", err)
	}
	old := jobs.Sign(body, sigTestSecret, time.Now().Add(-10*time.Minute))
	if err := jobs.VerifySignature(old, body, sigTestSecret, 0); !errors.Is(err, jobs.ErrTimestampOutOfTolerance) {
		t.Fatalf("10-minute-old signature: %v, want ErrTimestampOutOfTolerance", err)
	}
}

// TestStripeVerifierAcceptsOurSignatures checks our headers with a
// third-party implementation of the same scheme: stripe-go's webhook package.
func TestStripeVerifierAcceptsOurSignatures(t *testing.T) {
	t.Parallel()
	body := []byte(sigTestBody)
	header := jobs.Sign(body, sigTestSecret, time.Now())
	if err := webhook.ValidatePayloadWithTolerance(body, header, sigTestSecret, jobs.DefaultTolerance); err != nil {
		t.Fatalf("stripe rejects our header %q: %v", header, err)
	}
	if err := webhook.ValidatePayloadWithTolerance(append(body, ' '), header, sigTestSecret, jobs.DefaultTolerance); err == nil {
		t.Fatal("stripe accepts our header for a tampered body")
	}
	if err := webhook.ValidatePayloadWithTolerance(body, header, "whsec_other", jobs.DefaultTolerance); err == nil {
		t.Fatal("stripe accepts our header under the wrong secret")
	}
	old := jobs.Sign(body, sigTestSecret, time.Now().Add(-10*time.Minute))
	if err := webhook.ValidatePayloadWithTolerance(body, old, sigTestSecret, jobs.DefaultTolerance); !errors.Is(err, webhook.ErrTooOld) {
		t.Fatalf("stripe on a 10-minute-old header: %v, want ErrTooOld", err)
	}
	at := time.Unix(sigTestUnix, 0)
	if got, want := sigTestV1For(t, sigTestBody, sigTestSecret, at), hex.EncodeToString(webhook.ComputeSignature(at, body, sigTestSecret)); got != want {
		t.Fatalf("v1 = %s, stripe computes %s", got, want)
	}
}

// TestWeAcceptStripeSignedPayloads checks the other direction: headers made
// by stripe-go's test helper verify with ours.
func TestWeAcceptStripeSignedPayloads(t *testing.T) {
	t.Parallel()
	now := time.Unix(sigTestUnix, 0)
	body := []byte(sigTestBody)
	sp := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: body, Secret: sigTestSecret, Timestamp: now})
	if err := jobs.VerifySignatureAt(sp.Header, body, sigTestSecret, 0, now.Add(time.Minute)); err != nil {
		t.Fatalf("our verifier rejects stripe's header %q: %v", sp.Header, err)
	}
	if sp.Header != jobs.Sign(body, sigTestSecret, now) {
		t.Fatalf("stripe header %q differs from ours %q", sp.Header, jobs.Sign(body, sigTestSecret, now))
	}
	// Stripe's v0 scheme is not ours: a header with only v0 has no signature.
	v0 := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: body, Secret: sigTestSecret, Timestamp: now, Scheme: "v0"})
	if err := jobs.VerifySignatureAt(v0.Header, body, sigTestSecret, 0, now); !errors.Is(err, jobs.ErrNoSignature) {
		t.Fatalf("v0-only header: %v, want ErrNoSignature", err)
	}
	if err := jobs.VerifySignatureAt(sp.Header, body, "whsec_other", 0, now); !errors.Is(err, jobs.ErrSignatureMismatch) {
		t.Fatalf("wrong secret: %v, want ErrSignatureMismatch", err)
	}
}

func ExampleSign() {
	body := []byte(`{"job_id":"job_123","result":{"status":"done"}}`)
	secret := "whsec_5f2b7c9d0e1a"
	signedAt := time.Unix(1700000000, 0)

	header := jobs.Sign(body, secret, signedAt)
	fmt.Println(jobs.SignatureHeader + ": " + header)

	// A receiver checks the header against the raw body (here with its
	// clock reading one minute later).
	err := jobs.VerifySignatureAt(header, body, secret, jobs.DefaultTolerance, signedAt.Add(time.Minute))
	fmt.Println("verified:", err == nil)

	err = jobs.VerifySignatureAt(header, []byte(`{"job_id":"job_999"}`), secret, 0, signedAt)
	fmt.Println(errors.Is(err, jobs.ErrSignatureMismatch))
	// Output:
	// X-Webinfra-Signature: t=1700000000,v1=29220ee3e01bb6446f8d19262814044df3df946efbb86a8cedf0046237c1bd20
	// verified: true
	// true
}
