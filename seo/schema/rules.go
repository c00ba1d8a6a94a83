package schema

// The rule table: the required and recommended properties of each rich
// result as Google Search Central documents it (as of 2025), one row per
// type, each naming the page its lists come from. Google revises these
// pages, so the pages, not this table, are the authority.
//
// A property is a path ("author.name": the name of every author) or a
// choice of paths separated by "|" ("offers|review|aggregateRating": at
// least one). rootRequired applies only to an object that is not nested
// in another (a Review inside a Product needs no itemReviewed). values
// says what a property's value must look like when it is present.
// nested names the rule that objects under a property are checked with;
// a trailing "?" makes their missing required properties warnings (the
// property itself is only recommended). findNested: objects of the type
// found anywhere inside other items (a BreadcrumbList under
// WebPage.breadcrumb) are validated as rich results of their own, except
// under the properties in notRichResult. only: an object is a candidate
// for the rich result only when it has one of these properties (an
// ImageObject without licence information is just an image).

const docs = "https://developers.google.com/search/docs/appearance/structured-data/"

// notRichResult are the properties whose objects describe something other
// than the page's content (its publisher, the site it is part of, what an
// article is about) and so are not searched for nested rich results: a
// paywalled article's isPartOf {"@type": ["CreativeWork", "Product"]} is
// no product snippet.
var notRichResult = map[string]bool{"isPartOf": true, "publisher": true, "author": true, "creator": true,
	"contributor": true, "editor": true, "brand": true, "manufacturer": true, "seller": true, "provider": true,
	"sourceOrganization": true, "copyrightHolder": true, "about": true, "mentions": true, "isBasedOn": true,
	"citation": true, "sameAs": true, "parentOrganization": true, "subOrganization": true, "memberOf": true,
	"worksFor": true, "affiliation": true, "alumniOf": true, "itemReviewed": true, "hasCourseInstance": true}

var rules = []rule{
	{id: "Article", types: []string{"Article", "NewsArticle", "BlogPosting"}, subtypes: true, findNested: true,
		richResult: "Article", doc: docs + "article",
		recommended: []string{"author", "author.name", "author.url", "dateModified", "datePublished", "headline", "image"},
		values:      map[string]kind{"datePublished": kindDate, "dateModified": kindDate, "image": kindURL, "author.url": kindURL},
		nested:      map[string]string{"speakable": "SpeakableSpecification?"},
		note:        "Google lists no required property; the recommended ones decide how the result looks."},

	{id: "BreadcrumbList", types: []string{"BreadcrumbList"}, findNested: true, breadcrumb: true,
		richResult: "Breadcrumb", doc: docs + "breadcrumb",
		required: []string{"itemListElement"},
		nested:   map[string]string{"itemListElement": "ListItem"}},
	{id: "ListItem", types: []string{"ListItem"},
		required: []string{"position", "name|item.name"},
		values:   map[string]kind{"position": kindInteger, "item": kindURL}},

	{id: "Course", types: []string{"Course"}, findNested: true,
		richResult: "Course list", doc: docs + "course",
		required:    []string{"description", "name"},
		recommended: []string{"provider"},
		note:        "Google retired Course info rich results in 2025; the course list carousel remains documented."},

	{id: "Dataset", types: []string{"Dataset"}, findNested: true,
		richResult: "Dataset", doc: docs + "dataset",
		required: []string{"description", "name"},
		recommended: []string{"creator", "citation", "identifier", "keywords", "license", "url", "version",
			"isAccessibleForFree", "sameAs", "spatialCoverage", "temporalCoverage", "variableMeasured"},
		values: map[string]kind{"url": kindURL, "sameAs": kindURL}},

	{id: "DiscussionForumPosting", types: []string{"DiscussionForumPosting"}, findNested: true,
		richResult: "Discussion forum", doc: docs + "discussion-forum",
		required: []string{"author", "author.name", "datePublished", "text|image|video"},
		recommended: []string{"author.url", "comment", "dateModified", "headline", "interactionStatistic",
			"mainEntityOfPage", "url"},
		values: map[string]kind{"datePublished": kindDate, "dateModified": kindDate, "url": kindURL, "author.url": kindURL},
		nested: map[string]string{"comment": "Comment"}},
	{id: "Comment", types: []string{"Comment"},
		required:    []string{"author", "author.name", "datePublished", "text|image|video"},
		recommended: []string{"author.url", "dateModified", "url"},
		values:      map[string]kind{"datePublished": kindDate, "dateModified": kindDate, "url": kindURL},
		nested:      map[string]string{"comment": "Comment"}},

	{id: "EmployerAggregateRating", types: []string{"EmployerAggregateRating"}, findNested: true, rating: true,
		richResult: "Employer aggregate rating", doc: docs + "employer-rating",
		required:    []string{"itemReviewed", "itemReviewed.name", "ratingValue", "ratingCount|reviewCount"},
		recommended: []string{"bestRating", "worstRating"},
		values: map[string]kind{"ratingValue": kindNumber, "ratingCount": kindInteger, "reviewCount": kindInteger,
			"bestRating": kindNumber, "worstRating": kindNumber}},

	{id: "Event", types: []string{"Event"}, subtypes: true, findNested: true,
		richResult: "Event", doc: docs + "event",
		required: []string{"location", "name", "startDate"},
		recommended: []string{"description", "endDate", "eventAttendanceMode", "eventStatus", "image", "offers",
			"organizer", "performer"},
		values: map[string]kind{"startDate": kindDate, "endDate": kindDate, "previousStartDate": kindDate, "image": kindURL},
		nested: map[string]string{"offers": "Offer?"}},

	{id: "FAQPage", types: []string{"FAQPage"}, findNested: true,
		richResult: "FAQ", doc: docs + "faqpage",
		required: []string{"mainEntity"},
		nested:   map[string]string{"mainEntity": "FAQQuestion"},
		note:     "Since August 2023 Google shows FAQ rich results only for well-known government and health sites."},
	{id: "FAQQuestion", types: []string{"Question"},
		required: []string{"name", "acceptedAnswer", "acceptedAnswer.text"}},

	{id: "HowTo", types: []string{"HowTo"}, findNested: true,
		richResult: "How-to", doc: docs + "how-to",
		required:    []string{"name", "step"},
		recommended: []string{"estimatedCost", "image", "supply", "tool", "totalTime"},
		values:      map[string]kind{"totalTime": kindDuration, "image": kindURL},
		note:        "Google stopped showing how-to rich results in September 2023 and has since removed the page."},

	{id: "ImageObject", types: []string{"ImageObject"},
		richResult: "Image metadata", doc: docs + "image-license-metadata",
		only:         []string{"creator", "creditText", "copyrightNotice", "license", "acquireLicensePage"},
		required:     []string{"contentUrl|url"},
		rootRequired: []string{"creator|creditText|copyrightNotice|license"},
		recommended:  []string{"acquireLicensePage", "creator", "creditText", "copyrightNotice", "license"},
		values:       map[string]kind{"contentUrl": kindURL, "url": kindURL, "acquireLicensePage": kindURL, "license": kindURL}},

	{id: "JobPosting", types: []string{"JobPosting"}, findNested: true,
		richResult: "Job posting", doc: docs + "job-posting",
		required: []string{"datePosted", "description", "hiringOrganization", "title",
			"jobLocation|applicantLocationRequirements"},
		recommended: []string{"baseSalary", "directApply", "employmentType", "identifier", "validThrough"},
		values:      map[string]kind{"datePosted": kindDate, "validThrough": kindDate},
		note:        "A remote job (jobLocationType TELECOMMUTE) gives applicantLocationRequirements instead of jobLocation."},

	{id: "LocalBusiness", types: []string{"LocalBusiness"}, subtypes: true,
		richResult: "Local business", doc: docs + "local-business",
		required: []string{"address", "name"},
		recommended: []string{"aggregateRating", "geo", "openingHoursSpecification", "priceRange", "review",
			"telephone", "url"},
		values: map[string]kind{"url": kindURL, "image": kindURL},
		nested: map[string]string{"aggregateRating": "AggregateRating", "review": "Review"}},

	{id: "Movie", types: []string{"Movie"}, findNested: true,
		richResult: "Movie carousel", doc: docs + "movie",
		required:    []string{"image", "name"},
		recommended: []string{"aggregateRating", "dateCreated", "director", "review"},
		values:      map[string]kind{"image": kindURL, "dateCreated": kindDate},
		nested:      map[string]string{"aggregateRating": "AggregateRating", "review": "Review"}},

	{id: "Organization", types: []string{"Organization"}, subtypes: true,
		richResult: "Organization", doc: docs + "organization",
		recommended: []string{"name", "url", "logo", "sameAs", "description", "address", "telephone", "email"},
		values:      map[string]kind{"url": kindURL, "logo": kindURL, "sameAs": kindURL},
		note:        "Google lists no required property; logo and the others feed the knowledge panel."},

	{id: "Product", types: []string{"Product"}, subtypes: true, findNested: true,
		richResult: "Product snippet", doc: docs + "product-snippet",
		required:    []string{"name", "offers|review|aggregateRating"},
		recommended: []string{"image", "description", "brand", "sku"},
		values:      map[string]kind{"image": kindURL},
		nested:      map[string]string{"offers": "Offer", "review": "Review", "aggregateRating": "AggregateRating"},
		note:        "image, description, brand and sku are recommended for merchant listings (merchant-listing page)."},
	{id: "Offer", types: []string{"Offer"},
		richResult: "Product snippet (offer)", doc: docs + "product-snippet",
		required:    []string{"price|priceSpecification.price"},
		recommended: []string{"priceCurrency|priceSpecification.priceCurrency", "availability", "priceValidUntil"},
		values: map[string]kind{"price": kindNumber, "priceSpecification.price": kindNumber,
			"priceCurrency": kindCurrency, "priceSpecification.priceCurrency": kindCurrency,
			"priceValidUntil": kindDate, "url": kindURL}},
	{id: "AggregateOffer", types: []string{"AggregateOffer"},
		richResult: "Product snippet (offer)", doc: docs + "product-snippet",
		required:    []string{"lowPrice", "priceCurrency"},
		recommended: []string{"highPrice", "offerCount"},
		values: map[string]kind{"lowPrice": kindNumber, "highPrice": kindNumber, "priceCurrency": kindCurrency,
			"offerCount": kindInteger}},

	{id: "Review", types: []string{"Review"}, subtypes: true,
		richResult: "Review snippet", doc: docs + "review-snippet",
		required:     []string{"author", "author.name", "reviewRating", "reviewRating.ratingValue"},
		rootRequired: []string{"itemReviewed", "itemReviewed.name"},
		recommended:  []string{"datePublished"},
		values:       map[string]kind{"datePublished": kindDate},
		nested:       map[string]string{"reviewRating": "Rating"}},
	{id: "AggregateRating", types: []string{"AggregateRating"}, rating: true,
		richResult: "Review snippet (aggregate rating)", doc: docs + "review-snippet",
		required:     []string{"ratingValue", "ratingCount|reviewCount"},
		rootRequired: []string{"itemReviewed", "itemReviewed.name"},
		recommended:  []string{"bestRating", "worstRating"},
		values: map[string]kind{"ratingValue": kindNumber, "ratingCount": kindInteger, "reviewCount": kindInteger,
			"bestRating": kindNumber, "worstRating": kindNumber}},
	{id: "Rating", types: []string{"Rating"}, rating: true,
		required:    []string{"ratingValue"},
		recommended: []string{"bestRating", "worstRating"},
		values:      map[string]kind{"ratingValue": kindNumber, "bestRating": kindNumber, "worstRating": kindNumber}},

	{id: "Recipe", types: []string{"Recipe"}, findNested: true,
		richResult: "Recipe", doc: docs + "recipe",
		required: []string{"image", "name"},
		recommended: []string{"aggregateRating", "author", "cookTime", "datePublished", "description", "keywords",
			"nutrition.calories", "prepTime", "recipeCategory", "recipeCuisine", "recipeIngredient",
			"recipeInstructions", "recipeYield", "totalTime", "video"},
		values: map[string]kind{"image": kindURL, "cookTime": kindDuration, "prepTime": kindDuration,
			"totalTime": kindDuration, "datePublished": kindDate},
		nested: map[string]string{"aggregateRating": "AggregateRating", "video": "VideoObject?"}},

	{id: "QAPage", types: []string{"QAPage"}, findNested: true,
		richResult: "Q&A", doc: docs + "qapage",
		required: []string{"mainEntity"},
		nested:   map[string]string{"mainEntity": "QAQuestion"}},
	{id: "QAQuestion", types: []string{"Question"},
		required:    []string{"name", "answerCount", "acceptedAnswer|suggestedAnswer"},
		recommended: []string{"author", "datePublished", "text", "upvoteCount"},
		values:      map[string]kind{"answerCount": kindInteger, "datePublished": kindDate, "upvoteCount": kindInteger},
		nested:      map[string]string{"acceptedAnswer": "QAAnswer", "suggestedAnswer": "QAAnswer"}},
	{id: "QAAnswer", types: []string{"Answer"},
		required:    []string{"text"},
		recommended: []string{"author", "datePublished", "upvoteCount", "url"},
		values:      map[string]kind{"datePublished": kindDate, "upvoteCount": kindInteger, "url": kindURL}},

	{id: "SoftwareApplication", types: []string{"SoftwareApplication"}, subtypes: true, findNested: true,
		richResult: "Software app", doc: docs + "software-app",
		required:    []string{"name", "offers", "offers.price", "aggregateRating|review"},
		recommended: []string{"applicationCategory", "operatingSystem"},
		nested:      map[string]string{"offers": "Offer", "aggregateRating": "AggregateRating", "review": "Review"}},

	{id: "VideoObject", types: []string{"VideoObject"}, findNested: true,
		richResult: "Video", doc: docs + "video",
		required:    []string{"name", "thumbnailUrl", "uploadDate"},
		recommended: []string{"contentUrl|embedUrl", "description", "duration", "interactionStatistic"},
		values: map[string]kind{"uploadDate": kindDate, "expires": kindDate, "duration": kindDuration,
			"thumbnailUrl": kindURL, "contentUrl": kindURL, "embedUrl": kindURL}},

	{id: "ProfilePage", types: []string{"ProfilePage"}, findNested: true,
		richResult: "Profile page", doc: docs + "profile-page",
		required:    []string{"mainEntity"},
		recommended: []string{"dateCreated", "dateModified"},
		values:      map[string]kind{"dateCreated": kindDate, "dateModified": kindDate},
		nested:      map[string]string{"mainEntity": "ProfileEntity"}},
	{id: "ProfileEntity", types: []string{"Person", "Organization"},
		required:    []string{"name"},
		recommended: []string{"alternateName", "identifier", "description", "image", "sameAs"},
		values:      map[string]kind{"image": kindURL, "sameAs": kindURL}},

	{id: "ClaimReview", types: []string{"ClaimReview"}, findNested: true,
		richResult: "Fact check", doc: docs + "factcheck",
		required:    []string{"claimReviewed", "reviewRating", "reviewRating.alternateName", "url"},
		recommended: []string{"author", "datePublished", "itemReviewed"},
		values:      map[string]kind{"url": kindURL, "datePublished": kindDate},
		note:        "Google phased out fact check rich results in 2025; ClaimReview is still read by fact-check tools."},

	{id: "SpeakableSpecification", types: []string{"SpeakableSpecification"},
		richResult: "Speakable", doc: docs + "speakable",
		required: []string{"cssSelector|xpath"},
		note:     "Beta: read by the Google Assistant for English news publishers in the US."},
}
