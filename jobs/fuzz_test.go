package jobs

import (
	"encoding/hex"
	"strconv"
	"strings"
	"testing"
	"time"
)

// FuzzVerifySignature: any header parses or fails without a panic, and a
// header verifies only if it carries the true HMAC of its own timestamp
// and the body: no malformed header is ever mistaken for a signature.
func FuzzVerifySignature(f *testing.F) {
	now := time.Unix(1_790_000_000, 0)
	secret := "whsec_" + strings.Repeat("ab", 32)
	f.Add(Sign([]byte(`{"job_id":"job_1"}`), secret, now), []byte(`{"job_id":"job_1"}`))
	f.Add("t=1790000000,v1=00,v0=zz", []byte("x"))
	f.Add(" t = 1790000000 , v1="+strings.Repeat("0", 64), []byte(""))
	f.Add("t=-1,v1=", []byte("{}"))
	f.Add("v1=abc,t=99999999999999999999", []byte("{}"))
	f.Fuzz(func(t *testing.T, header string, body []byte) {
		if VerifySignatureAt(header, body, secret, time.Hour, now) != nil {
			return
		}
		sh, err := parseSignatureHeader(header)
		if err != nil {
			t.Fatalf("%q verified but does not parse: %v", header, err)
		}
		want := hex.EncodeToString(computeSignature(strconv.FormatInt(sh.unix, 10), body, secret))
		if !strings.Contains(strings.ToLower(header), want) {
			t.Fatalf("%q verified without the body's signature %s", header, want)
		}
	})
}
