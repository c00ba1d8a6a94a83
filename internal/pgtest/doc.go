// Package pgtest gives tests a fresh PostgreSQL database: a schema of its
// own on the server named by WEBINFRA_TEST_POSTGRES_URL, dropped when the
// test ends. Without the variable the test skips with a message; when the
// variable is set but the server cannot be reached, the test fails (CI
// sets it, so a missing service can never pass as a skip).
package pgtest
