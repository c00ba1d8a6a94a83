package redistest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"testing"

	"github.com/redis/go-redis/v9"
)

// EnvVar names the Redis the tests use.
const EnvVar = "WEBINFRA_TEST_REDIS_URL"

// URL returns the test Redis's URL, or skips the test.
func URL(tb testing.TB) string {
	tb.Helper()
	u := os.Getenv(EnvVar)
	if u == "" {
		tb.Skipf("Redis tests need %s (e.g. redis://127.0.0.1:6379/0); .ci/run sets it", EnvVar)
	}
	return u
}

// Client returns a client of the test Redis (closed when tb ends) and a
// fresh key prefix, so tests running at once never share a bucket.
func Client(tb testing.TB) (*redis.Client, string) {
	tb.Helper()
	opts, err := redis.ParseURL(URL(tb))
	if err != nil {
		tb.Fatalf("%s: %v", EnvVar, err)
	}
	c := redis.NewClient(opts)
	tb.Cleanup(func() { c.Close() })
	if err := c.Ping(context.Background()).Err(); err != nil {
		tb.Fatalf("%s is set but Redis cannot be reached: %v", EnvVar, err)
	}
	b := make([]byte, 6)
	rand.Read(b)
	return c, "test:" + hex.EncodeToString(b) + ":"
}
