// Package redistest gives tests the Redis named by WEBINFRA_TEST_REDIS_URL
// and a key prefix of their own. Without the variable the test skips with
// a message; when it is set but Redis cannot be reached, the test fails.
package redistest
