// Package auditkit holds what every HTML audit under seo/htmlaudit and
// aeo/ shares, so each is written once: the Finding every audit reports
// (code, severity, message, the element's tag and attribute, the URL and a
// short snippet), the A-F grade of a 0-100 score, a bounded walk over a
// parsed page, the visible text and the accessible name of an element, a
// word count, and the test for a question-shaped heading.
//
// Everything here is a pure function over a tree parsed with
// golang.org/x/net/html; nothing is fetched.
package auditkit
