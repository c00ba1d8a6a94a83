// Package pagetype tells what kind of page a page is: an article, a
// forum thread, a product, a shop's collection, a listing, documentation
// or a service (marketing) page, with a confidence.
//
// Detect reads generic signals only, never a site's name: the markup's
// shape (paragraphs, lists, code, runs of alike items such as product
// cards or posts), the words of class names, schema.org types (JSON-LD,
// microdata, og:type), the software that made the page, phrases of the
// text ("add to cart", "replies") and the URL's path. A multinomial
// logistic regression (Model) weighs them; the shipped weights
// (model.json) were trained on the WCXB development set, and the
// package's tests report its accuracy there, both of the shipped model
// and cross-validated with the sites held out.
//
// A program with pages of its own labelled can train its own model:
// Features is the vector Train fits (ShippedTraining, the shipped
// model's options, is a good start), and Model.Detect uses the result
// (extract/content takes one as Options.TypeModel).
package pagetype
