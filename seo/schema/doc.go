// Package schema validates a page's JSON-LD against the required and
// recommended properties of Google's rich results, and says which rich
// results the page is eligible for. It backs POST /v1/seo/schema-validate:
// Input is the body, Report the answer.
//
//	r, err := schema.Validate(ctx, schema.Input{HTML: page, URL: pageURL}, nil)
//	fmt.Println(r.Eligible, r.Errors, r.Warnings)
//	for _, p := range r.Problems { fmt.Println(p.Severity, p.Path, p.Message) }
//
// The JSON-LD is read by extract/structured (blocks repaired, arrays and
// @graph flattened; a block it cannot read is an invalid_json_ld error);
// a caller that has structured.Extract's result passes it in
// Options.Structured and nothing is parsed again.
//
// # The rule table
//
// rules.go holds the table as data, one row per type with the Google
// Search Central page its lists come from (under
// https://developers.google.com/search/docs/appearance/structured-data/):
//
//	Article, NewsArticle, BlogPosting   article
//	BreadcrumbList (+ ListItem)         breadcrumb
//	Course                              course
//	Dataset                             dataset
//	DiscussionForumPosting (+ Comment)  discussion-forum
//	EmployerAggregateRating             employer-rating
//	Event                               event
//	FAQPage (+ Question, Answer)        faqpage
//	HowTo                               how-to (retired by Google in 2023)
//	ImageObject                         image-license-metadata
//	JobPosting                          job-posting
//	LocalBusiness                       local-business
//	Movie                               movie
//	Organization                        organization
//	Product, Offer, AggregateOffer      product-snippet
//	Review, AggregateRating (+ Rating)  review-snippet
//	Recipe                              recipe
//	QAPage (+ Question, Answer)         qapage
//	SoftwareApplication                 software-app
//	VideoObject                         video
//	ProfilePage (+ Person/Organization) profile-page
//	ClaimReview                         factcheck
//	SpeakableSpecification              speakable
//
// 26 types from 23 pages; Rules lists the table. Subtypes count where the
// row says so (a Restaurant is checked as a LocalBusiness, a TechArticle
// as an Article), and an object is checked by its most specific row only.
//
// # What is checked
//
//   - required properties (missing_required, error), including paths
//     into nested objects ("author.name": every author) and choices
//     (missing_one_of, error): a Product needs one of offers, review or
//     aggregateRating; an Offer price or priceSpecification.price;
//   - recommended properties (missing_recommended, warning);
//   - value shapes (invalid_value): dates ISO 8601 (see ParseDate),
//     durations ISO 8601 (PT1H30M), URLs absolute http(s), prices and
//     ratings plain numbers ("$10" and "10,00" are not), counts whole
//     numbers, currencies the ISO 4217 shape (three capitals). An invalid
//     value is an error on a required property, a warning otherwise;
//   - ratings within worstRating and bestRating (1 and 5 when absent, as
//     Google assumes): rating_out_of_range, error;
//   - every breadcrumb but the last has an item URL;
//   - a top-level item has a schema.org @context (missing_context, error).
//
// Nested objects are checked with their own rows: a Product's offers as
// Offer (or AggregateOffer), review as Review (no itemReviewed needed
// inside a Product), aggregateRating as AggregateRating; an FAQPage's
// mainEntity as Question with acceptedAnswer.text. Objects under a
// property that is only recommended (an Event's offers, a Recipe's video)
// are checked leniently: their errors count as warnings. A reference
// {"@id": ...} is followed to the @graph item with that id. Rich-result
// types found nested elsewhere (WebPage.breadcrumb, a ListItem's Movie)
// are validated as entities of their own, except under properties that
// describe something else than the page (publisher, author, isPartOf,
// about, itemReviewed...: see notRichResult). An ImageObject is an image
// metadata candidate only when it carries licence information.
//
// # Paths, severities, eligibility
//
// A problem's path starts at $[i], the i-th JSON-LD item as
// extract/structured lists them (json_ld.items), then property names and
// list indexes: $[0].offers[1].price. A missing property's path is where
// it should be. Errors make an entity ineligible; Report.Eligible lists
// the rule types with at least one entity without errors. Google's own
// tool has further rules (content policies, image sizes, merchant
// listing fields); eligibility here is the structural part.
//
// Only JSON-LD is validated (Google's preferred format); microdata and
// RDFa are counted by aeo/schemacov.
//
// # Limits
//
// At most Options.MaxProblems problems (500) and MaxEntities entities
// (200) are listed, nesting is followed 12 levels deep and at most
// 200,000 JSON values are visited; Truncated says when anything was cut.
package schema
