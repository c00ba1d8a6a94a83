// Package wcxb loads the WCXB development split (the Web Content
// eXtraction Benchmark, 1,497 pages of seven labelled page types, in
// ../shared/testdata/wcxb-dev) and scores extractions the way its README
// says: a bag-of-words F1 per page, averaged, and the shares of `with`
// snippets found and `without` snippets found. It serves the extraction
// quality tests and benchmarks; nothing in the product imports it.
package wcxb
