// Package schemacov scores how well a page's structured data covers the
// 12 schema.org types answer engines rely on, weighed by what kind of page
// it is. It backs POST /v1/aeo/schema-coverage: Input is the body, Report
// the answer.
//
//	r, err := schemacov.Check(ctx, schemacov.Input{HTML: page, URL: pageURL}, nil)
//	fmt.Println(r.Score, r.PageType, r.Missing)
//
// # The 12 types
//
// Each counts the schema.org types below it (subtypes included, per the
// hierarchy in seo/schema):
//
//	Organization            Organization and subtypes (Corporation, NewsMediaOrganization, LocalBusiness...)
//	WebSite                 WebSite
//	WebPage                 WebPage and subtypes (ItemPage, CollectionPage, FAQPage, ProfilePage...)
//	Article                 Article and subtypes (NewsArticle, BlogPosting, TechArticle...), forum posts aside
//	BreadcrumbList          BreadcrumbList
//	FAQPage                 FAQPage
//	HowTo                   HowTo and Recipe
//	Product                 Product and subtypes (ProductGroup, Vehicle...)
//	Review/AggregateRating  Review, AggregateRating and subtypes
//	Person                  Person (authors included: nested objects count)
//	LocalBusiness           LocalBusiness and subtypes (Restaurant, Store, Dentist...)
//	QAPage                  QAPage and DiscussionForumPosting
//
// They are found in JSON-LD, microdata and RDFa (extract/structured; each
// type says which sources it came from), nested objects included, so an
// Article's author Person counts. OpenGraph is reported beside them.
//
// # Score
//
// The page type decides what is expected: Input.PageType when given, else
// extract/content's PageType when the caller passes the article in
// Options.Page, else extract/pagetype's detection (the same model). Each
// type has a relevance to each page type (types.go): 3 expected for this
// kind of page (Article and Person on an article, Product and ratings on
// a product page, QAPage on a forum), 2 expected anyway (Organization,
// WebSite and WebPage everywhere, BreadcrumbList on most kinds), 1
// useful, 0 not relevant. The 12 types share 90 points in proportion to
// their relevance, and a type found earns its share; the five OpenGraph
// essentials (og:title, og:type, og:image, og:url, og:description) earn 2
// points each. Every expected type the page lacks is listed in Missing,
// most relevant first, with what to add.
//
// Nothing is validated here (seo/schema does that): a type present with
// errors still counts as present.
package schemacov
