package pagetype

// The word groups the features count. Each group is a set of words that
// signal one kind of page wherever they occur: in class and id
// attributes, in the URL's path, in schema.org types, in the text. None
// names a site. Which group points to which type, and how strongly, the
// model learns; the groups only say which words mean the same.

// classGroups match class and id tokens (split at non-letters, so
// "product-card__price" is product, card and price) by prefix: "comment"
// also matches "comments" and "commentlist".
var classGroups = []wordGroup{
	{"post", []string{"post", "message", "reply", "replies", "thread", "topic", "forum", "bbcode", "quote", "signature", "avatar", "username", "userinfo", "vote", "answer", "question", "upvote", "poster"}},
	{"comment", []string{"comment", "discussion"}},
	{"product", []string{"product", "sku", "variant", "quantity", "qty", "addtocart", "cart", "basket", "checkout", "purchase", "stock", "swatch", "wishlist", "pdp"}},
	{"price", []string{"price", "amount", "currency", "sale", "discount", "msrp", "money"}},
	{"rating", []string{"rating", "review", "stars"}},
	{"grid", []string{"grid", "tile", "card", "item", "result", "listing"}},
	{"facet", []string{"facet", "filter", "refine", "sort", "pagination", "pager", "paging", "loadmore"}},
	{"category", []string{"category", "categories", "collection", "catalog", "plp", "breadcrumb"}},
	{"docs", []string{"doc", "toc", "api", "method", "param", "admonition", "sphinx", "reference", "sourcecode", "codehilite", "md", "markdown", "wiki", "mw", "headerlink", "anchor", "version"}},
	{"code", []string{"code", "pre", "highlight", "hljs", "prism", "syntax", "language", "token", "shiki"}},
	{"service", []string{"hero", "feature", "benefit", "testimonial", "cta", "plan", "pricing", "logo", "trusted", "customer", "solution", "integration", "demo", "signup", "trial", "landing", "service"}},
	{"article", []string{"article", "entry", "byline", "author", "dateline", "published", "story", "headline", "share", "social", "related", "tag", "newsletter", "blog", "excerpt"}},
	{"nav", []string{"nav", "menu", "header", "footer", "sidebar"}},
}

// pathGroups match the URL path's segments (split at / - _ . ? = &)
// exactly.
var pathGroups = []wordGroup{
	{"article", []string{"blog", "blogs", "news", "article", "articles", "post", "posts", "story", "stories", "insights", "magazine", "journal", "notebook", "resources", "learn"}},
	{"forum", []string{"forum", "forums", "thread", "threads", "t", "topic", "topics", "viewtopic", "showthread", "questions", "community", "discussion", "discussions", "board", "boards", "r", "comments", "discuss"}},
	{"product", []string{"product", "products", "p", "dp", "item", "itm", "app", "buy", "shop", "store", "pd"}},
	{"collection", []string{"c", "category", "categories", "collections", "collection", "catalog", "browse", "department", "cat", "catpage", "shop", "all"}},
	{"listing", []string{"list", "lists", "best", "top", "directory", "index", "search", "tag", "tags", "courses", "subject", "recent", "paths", "browse"}},
	{"docs", []string{"docs", "doc", "documentation", "api", "reference", "ref", "manual", "guide", "guides", "tutorial", "library", "wiki", "kb", "help", "handbook", "spec", "sdk", "concepts", "html", "latest", "stable", "current", "en"}},
	{"service", []string{"services", "service", "solutions", "solution", "features", "feature", "pricing", "platform", "enterprise", "plans", "company", "about", "contact", "work", "software", "agency", "consulting"}},
}

// schemaGroups match schema.org type names (JSON-LD @type, microdata
// itemtype, og:type) exactly.
var schemaGroups = []wordGroup{
	{"article", []string{"Article", "NewsArticle", "BlogPosting", "Report", "ScholarlyArticle", "OpinionNewsArticle", "AnalysisNewsArticle", "ReviewNewsArticle", "LiveBlogPosting", "Blog", "article"}},
	{"techarticle", []string{"TechArticle", "APIReference", "HowTo", "Course"}},
	{"product", []string{"Product", "Offer", "ProductGroup", "IndividualProduct", "ProductModel", "product", "og:product", "product.item"}},
	{"aggregateoffer", []string{"AggregateOffer", "OfferCatalog"}},
	{"rating", []string{"AggregateRating", "Review", "Rating"}},
	{"list", []string{"ItemList", "CollectionPage", "SearchResultsPage", "ListItem", "product.group"}},
	{"forum", []string{"DiscussionForumPosting", "QAPage", "Question", "Answer", "Comment", "SocialMediaPosting", "InteractionCounter"}},
	{"org", []string{"Organization", "LocalBusiness", "Service", "ProfessionalService", "FAQPage", "WebApplication", "SoftwareApplication", "Corporation", "MedicalOrganization", "Offer", "ContactPoint", "PostalAddress"}},
	{"person", []string{"Person", "ProfilePage"}},
	{"breadcrumb", []string{"BreadcrumbList"}},
	{"website", []string{"WebSite", "WebPage", "website", "SiteNavigationElement"}},
}

// platformGroups match the page's generator, asset URLs and class names
// as substrings: the software a site runs on says what kind of pages it
// serves (a forum engine, a documentation generator, a shop).
var platformGroups = []wordGroup{
	{"blog", []string{"wordpress", "wp-content", "ghost", "hugo", "jekyll", "blogger", "substack", "medium.com", "squarespace", "wix"}},
	{"forum", []string{"discourse", "phpbb", "vbulletin", "xenforo", "invision", "simple machines", "flarum", "nodebb", "lemmy", "mybb", "vanilla"}},
	{"docs", []string{"sphinx", "mkdocs", "docusaurus", "gitbook", "vitepress", "docsy", "mediawiki", "readthedocs", "antora", "jsdoc", "docfx", "nextra", "mintlify", "starlight"}},
	{"shop", []string{"shopify", "magento", "woocommerce", "prestashop", "bigcommerce", "demandware", "salesforce commerce", "cdn.shopify", "opencart"}},
}

// textGroups match the lowercased visible text as substrings (phrases,
// mostly English: the set's pages are).
var textGroups = []wordGroup{
	{"cart", []string{"add to cart", "add to bag", "add to basket", "buy now", "in stock", "out of stock", "add to wishlist", "free shipping", "free delivery", "quantity", "sku", "free returns", "ships in", "pre-order"}},
	{"forum", []string{"reply", "replies", "joined", "posts:", "quote", "registered", "member", "posted", "upvote", "answered", "asked", "thread", "original poster", "likes", "messages:", "reaction"}},
	{"service", []string{"get started", "free trial", "request a demo", "book a demo", "contact us", "sign up", "contact sales", "our services", "get a quote", "learn more", "trusted by", "schedule a", "call us", "our team", "customers", "try it free", "start for free"}},
	{"listing", []string{"results", "showing", "sort by", "filter", "view all", "load more", "next page", "items", "products", "compare", "show more", "per page"}},
	{"article", []string{"min read", "minute read", "posted on", "published", "updated", "written by", "share this", "related articles", "read more", "related posts", "leave a comment", "table of contents", "subscribe"}},
	{"docs", []string{"example", "parameters", "returns", "note:", "warning", "see also", "deprecated", "syntax", "version", "arguments", "function", "class ", "import ", "install", "default"}},
}

// wordGroup is a named set of words.
type wordGroup struct {
	name  string
	words []string
}
