// Package corpus holds no code: its tests run the four page audits
// (seo/schema, aeo/schemacov, aeo/freshness, aeo/citation) over every page
// of the shared test corpus (../shared/testdata: the 181-page article
// extraction benchmark and the 1,497-page WCXB development split) as a
// robustness test, and its benchmarks report each audit's median time per
// page:
//
//	go test -run TestCorpus ./aeo/internal/corpus/
//	go test -run '^$' -bench . -benchtime 1x ./aeo/internal/corpus/
package corpus
