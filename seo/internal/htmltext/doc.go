// Package htmltext turns an HTML document into the blocks of text a reader
// sees, for the text audits under seo/ (readability, keywords).
//
// Script, style, noscript, template, head (title and meta included) and
// elements with the hidden attribute are skipped. Every block-level element
// (p, div, li, h1-h6, td, br, ...) closes the current block, so text from
// two paragraphs, two list items or two table cells is never run together
// into one sentence or one phrase. Inside a block, runs of white space
// collapse to one space. Character references are decoded by the parser.
package htmltext
