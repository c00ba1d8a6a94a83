// Package golden compares an AEO audit's report with its golden JSON file
// under testdata, for the audits' tests: go test -update rewrites the
// files (each test package declares the flag and passes it).
package golden
