package schemacov

import (
	"github.com/webinfra/webinfra/extract/pagetype"
	"github.com/webinfra/webinfra/seo/schema"
)

// aeoType is one of the 12 AEO-critical types: which schema.org types
// count as it, how relevant it is to each page type, and what to do when
// it is missing.
type aeoType struct {
	name      string
	matches   func(t string) bool
	relevance map[pagetype.Type]int // 0 not relevant, 1 useful, 2 expected site-wide, 3 expected for this kind of page
	advice    string
}

// Relevance levels: a type of relevance 2 or 3 is expected on the page.
const (
	notRelevant = 0
	useful      = 1
	siteWide    = 2
	core        = 3
)

func is(ancestor string) func(string) bool {
	return func(t string) bool { return schema.Is(t, ancestor) }
}

// rel builds a relevance row in the order of pagetype.Types: article,
// forum, product, collection, listing, documentation, service.
func rel(article, forum, product, collection, listing, documentation, service int) map[pagetype.Type]int {
	return map[pagetype.Type]int{pagetype.Article: article, pagetype.Forum: forum, pagetype.Product: product,
		pagetype.Collection: collection, pagetype.Listing: listing, pagetype.Documentation: documentation,
		pagetype.Service: service}
}

// aeoTypes are the 12 types, in report order. The relevance table is the
// whole of the score's judgement: the publisher and site (Organization,
// WebSite, WebPage) are expected everywhere; each kind of page expects
// its own entity and what answer engines cite from it.
var aeoTypes = []aeoType{
	{"Organization", is("Organization"), rel(2, 2, 2, 2, 2, 2, 3),
		"Add an Organization (name, url, logo, sameAs links to official profiles) so answer engines can attribute the page to its publisher."},
	{"WebSite", func(t string) bool { return t == "WebSite" }, rel(2, 2, 2, 2, 2, 2, 2),
		"Add a WebSite item (name, url, publisher) to name the site the page belongs to."},
	{"WebPage", is("WebPage"), rel(2, 2, 2, 2, 2, 2, 2),
		"Describe the page itself with WebPage or a subtype (ItemPage, CollectionPage, AboutPage...), with its name, description and mainEntity."},
	{"Article", func(t string) bool { return schema.Is(t, "Article") && !schema.Is(t, "DiscussionForumPosting") },
		rel(3, 0, 0, 0, 0, 2, 0),
		"Mark the article up as Article, NewsArticle, BlogPosting or TechArticle with headline, author, datePublished, dateModified and image."},
	{"BreadcrumbList", is("BreadcrumbList"), rel(2, 2, 3, 3, 3, 3, 1),
		"Add a BreadcrumbList giving the page's place in the site (name and item URL for each level)."},
	{"FAQPage", is("FAQPage"), rel(1, 1, 1, 1, 0, 1, 2),
		"If the page answers common questions, mark them up as FAQPage with Question and acceptedAnswer pairs; answer engines quote them directly."},
	{"HowTo", is("HowTo"), rel(1, 0, 0, 0, 0, 2, 0),
		"For step-by-step instructions, mark the steps up as HowTo (HowToStep with text), or Recipe for a recipe."},
	{"Product", is("Product"), rel(0, 0, 3, 1, 0, 0, 1),
		"Mark the product up as Product with name, image, description, brand and offers (price, priceCurrency, availability)."},
	{"Review/AggregateRating", func(t string) bool { return schema.Is(t, "Review") || schema.Is(t, "AggregateRating") },
		rel(0, 0, 3, 0, 0, 0, 1),
		"Add aggregateRating (ratingValue, reviewCount) or review to the product or service so its ratings can be cited."},
	{"Person", is("Person"), rel(3, 2, 0, 0, 0, 1, 0),
		"Name the author as a Person (name, url, sameAs) on the author property: answer engines weigh who wrote the page."},
	{"LocalBusiness", is("LocalBusiness"), rel(0, 0, 0, 0, 0, 0, 1),
		"If the business serves customers at a place, add LocalBusiness with address, telephone, geo and openingHoursSpecification."},
	{"QAPage", func(t string) bool { return t == "QAPage" || schema.Is(t, "DiscussionForumPosting") },
		rel(0, 3, 0, 0, 0, 0, 0),
		"Mark the thread up as QAPage (a Question with its answers) or DiscussionForumPosting (author, datePublished, text, comments)."},
}

// openGraphEssentials are the OpenGraph properties the score counts.
var openGraphEssentials = []string{"og:title", "og:type", "og:image", "og:url", "og:description"}
