// Package pagedata gives the AEO audits (aeo/schemacov, aeo/freshness,
// aeo/citation) one page read once: the input checked the same way, the
// HTML parsed once, and the extractors (extract/structured,
// extract/content) run only when the caller has not already run them.
// A caller that audits a page several ways (the page audit) builds one
// Page and hands it to each audit through its Options.
package pagedata
