package pageinfo

import "regexp"

// The technology rules: one table, each technology with the signals that
// give it away. A rule is specific to the technology (a header only it
// sends, a path only it serves, an attribute only it writes), never a
// common word; the first group of a pattern that matched text, when
// present, is the version. Written here because no Go library carries
// such a table (Wappalyzer's is JSON under a restrictive licence and
// needs a JavaScript engine for half its rules).
var technologies = []techRule{
	// Content management and site builders.
	{name: "WordPress", category: "cms", implies: []string{"PHP"}, rules: []rule{
		meta("generator", `^WordPress(?:\s+(\d+(?:\.\d+)+))?`),
		script(`/wp-(?:content|includes)/`),
		stylesheet(`/wp-(?:content|includes)/`),
		header("Link", `rel="?https://api\.w\.org/`),
		header("X-Pingback", `/xmlrpc\.php`),
		cookie(`^(?:wordpress_test_cookie|wordpress_logged_in_[0-9a-f]+|wp-settings-(?:time-)?\d+)$`),
	}},
	{name: "WooCommerce", category: "ecommerce", implies: []string{"WordPress"}, rules: []rule{
		meta("generator", `^WooCommerce\s+(\d+(?:\.\d+)+)`),
		script(`/wp-content/plugins/woocommerce/`),
		stylesheet(`/wp-content/plugins/woocommerce/`),
	}},
	{name: "Drupal", category: "cms", implies: []string{"PHP"}, rules: []rule{
		meta("generator", `^Drupal(?:\s+(\d+))?`),
		header("X-Generator", `^Drupal(?:\s+(\d+))?`),
		present("X-Drupal-Cache"),
		present("X-Drupal-Dynamic-Cache"),
		script(`/(?:core/)?misc/drupal\.js|/sites/(?:default|all)/(?:files|modules|themes)/`),
		stylesheet(`/sites/(?:default|all)/(?:files|themes|modules)/`),
		attr("data-drupal-selector", ``),
	}},
	{name: "Joomla", category: "cms", implies: []string{"PHP"}, rules: []rule{
		meta("generator", `^Joomla!?\s*(\d+(?:\.\d+)+)?`),
		script(`/media/(?:jui|system)/js/`),
		class("joomla-script-options", `^joomla-script-options$`),
	}},
	{name: "Shopify", category: "ecommerce", rules: []rule{
		script(`//cdn\.shopify\.com/`),
		stylesheet(`//cdn\.shopify\.com/`),
		present("X-ShopId"),
		present("X-Shopify-Stage"),
		header("Powered-By", `^Shopify$`),
		cookie(`^_shopify_(?:y|s|sa_t|sa_p)$`),
		inline(`Shopify\.shop\s*=`),
		meta("shopify-digital-wallet", ``),
	}},
	{name: "Wix", category: "cms", rules: []rule{
		meta("generator", `^Wix\.com`),
		script(`//static\.parastorage\.com/`),
		present("X-Wix-Request-Id"),
	}},
	{name: "Squarespace", category: "cms", rules: []rule{
		script(`//(?:static1|assets)\.squarespace\.com/`),
		stylesheet(`//(?:static1|assets)\.squarespace\.com/`),
		header("Server", `^Squarespace`),
		inline(`Static\.SQUARESPACE_CONTEXT`),
	}},
	{name: "Ghost", category: "cms", rules: []rule{
		meta("generator", `^Ghost(?:\s+(\d+(?:\.\d+)+))?`),
		script(`/ghost/portal@|/ghost/sodo-search@`),
		attr("data-ghost", ``),
	}},
	{name: "Webflow", category: "cms", rules: []rule{
		meta("generator", `^Webflow`),
		attr("data-wf-site", ``),
		attr("data-wf-page", ``),
	}},
	{name: "HubSpot CMS", category: "cms", rules: []rule{
		meta("generator", `^HubSpot$`),
	}},
	{name: "Discourse", category: "cms", rules: []rule{
		meta("generator", `^Discourse(?:\s+(\d+(?:\.\d+)+))?`),
	}},
	{name: "MediaWiki", category: "cms", implies: []string{"PHP"}, rules: []rule{
		meta("generator", `^MediaWiki\s+(\d+(?:\.\d+)+)`),
	}},

	// Static site generators and web frameworks.
	{name: "Hugo", category: "framework", rules: []rule{
		meta("generator", `^Hugo\s+(\d+(?:\.\d+)+)`),
	}},
	{name: "Jekyll", category: "framework", rules: []rule{
		meta("generator", `^Jekyll(?:\s+v?(\d+(?:\.\d+)+))?`),
	}},
	{name: "Docusaurus", category: "framework", implies: []string{"React"}, rules: []rule{
		meta("generator", `^Docusaurus(?:\s+v?(\d+(?:\.\d+)+))?`),
	}},
	{name: "Next.js", category: "framework", implies: []string{"React"}, rules: []rule{
		id("__next"),
		id("__NEXT_DATA__"),
		script(`/_next/static/`),
		header("X-Powered-By", `^Next\.js(?:\s+(\d+(?:\.\d+)+))?`),
		present("X-Nextjs-Cache"),
	}},
	{name: "Nuxt", category: "framework", implies: []string{"Vue"}, rules: []rule{
		id("__nuxt"),
		script(`/_nuxt/`),
		inline(`window\.__NUXT__`),
		header("X-Powered-By", `^Nuxt`),
		attr("data-n-head", ``),
	}},
	{name: "Gatsby", category: "framework", implies: []string{"React"}, rules: []rule{
		meta("generator", `^Gatsby\s+(\d+(?:\.\d+)+)`),
		id("___gatsby"),
	}},
	{name: "Astro", category: "framework", rules: []rule{
		meta("generator", `^Astro\s+v?(\d+(?:\.\d+)+)`),
		tag("astro-island"),
		script(`/_astro/`),
		stylesheet(`/_astro/`),
	}},
	{name: "Angular", category: "framework", rules: []rule{
		attr("ng-version", `^(\d+(?:\.\d+)+)`),
	}},
	{name: "AngularJS", category: "framework", rules: []rule{
		attr("ng-app", ``),
		attr("data-ng-app", ``),
		script(`(?:^|/)angular(?:\.min)?\.js(?:$|\?)|/angular\.js/(\d+(?:\.\d+)+)/`),
	}},
	{name: "ASP.NET", category: "framework", rules: []rule{
		header("X-Powered-By", `^ASP\.NET`),
		header("X-AspNet-Version", `^(\d+(?:\.\d+)+)`),
		cookie(`^(?:ASP\.NET_SessionId|\.AspNetCore\.[A-Za-z.]+)$`),
		attr("name", `^__VIEWSTATE$`),
	}},
	{name: "Express", category: "framework", rules: []rule{
		header("X-Powered-By", `^Express$`),
		cookie(`^connect\.sid$`),
	}},
	{name: "Laravel", category: "framework", implies: []string{"PHP"}, rules: []rule{
		cookie(`^laravel_session$`),
	}},
	{name: "Django", category: "framework", rules: []rule{
		attr("name", `^csrfmiddlewaretoken$`),
	}},
	{name: "Ruby on Rails", category: "framework", rules: []rule{
		meta("csrf-param", `^authenticity_token$`),
	}},

	// Front-end libraries.
	{name: "React", category: "library", rules: []rule{
		attr("data-reactroot", ``),
		attr("data-reactid", ``),
		script(`/react(?:-dom)?[@/](\d+\.\d+\.\d+)/|(?:^|/)react(?:-dom)?(?:\.production|\.development)?(?:\.min)?\.js(?:$|\?)`),
	}},
	{name: "Vue", category: "library", rules: []rule{
		attrName(`^data-v-[0-9a-f]{8}$`),
		attr("data-server-rendered", ``),
		script(`/vue@(\d+\.\d+\.\d+)/|/vue/(\d+\.\d+\.\d+)/|(?:^|/)vue(?:\.global|\.runtime)?(?:\.prod)?(?:\.min)?\.js(?:$|\?)`),
	}},
	{name: "Svelte", category: "library", rules: []rule{
		class("svelte-", `^svelte-[a-z0-9]{5,8}$`),
		attr("data-svelte-h", ``),
		attr("data-sveltekit-preload-data", ``),
	}},
	{name: "jQuery", category: "library", rules: []rule{
		script(`(?:^|/)jquery(?:[.-](\d+\.\d+\.\d+))?(?:\.slim)?(?:\.min)?\.js(?:\?ver=(\d+\.\d+\.\d+))?|/jquery@(\d+\.\d+\.\d+)/|/jquery/(\d+\.\d+\.\d+)/`),
	}},
	{name: "Bootstrap", category: "library", rules: []rule{
		script(`(?:^|/)bootstrap(?:\.bundle)?(?:\.min)?\.js|/bootstrap@(\d+\.\d+\.\d+)/|/twitter-bootstrap/(\d+\.\d+\.\d+)/`),
		stylesheet(`(?:^|/)bootstrap(?:\.min)?\.css|/bootstrap@(\d+\.\d+\.\d+)/|/twitter-bootstrap/(\d+\.\d+\.\d+)/`),
	}},
	{name: "Tailwind CSS", category: "library", rules: []rule{
		inline(`tailwindcss v(\d+\.\d+\.\d+)`),
		inline(`--tw-(?:ring-offset-shadow|translate-x|border-spacing-x)\s*:`),
		script(`//cdn\.tailwindcss\.com`),
		stylesheet(`/tailwindcss@(\d+\.\d+\.\d+)/|(?:^|/)tailwind(?:css)?(?:\.min)?\.css`),
	}},

	// Analytics and marketing.
	{name: "Google Analytics", category: "analytics", rules: []rule{
		script(`google-analytics\.com/(?:analytics|ga|urchin)\.js|googletagmanager\.com/gtag/js\?(?:.*&)?id=UA-`),
		inline(`google-analytics\.com/(?:analytics|ga)\.js`),
		inline(`_gaq\.push\(`),
		inline(`ga\(\s*['"]create['"]\s*,\s*['"]UA-`),
	}},
	{name: "Google Analytics 4", category: "analytics", rules: []rule{
		script(`googletagmanager\.com/gtag/js\?(?:.*&)?id=G-`),
		inline(`gtag\(\s*['"]config['"]\s*,\s*['"]G-[A-Z0-9]+`),
	}},
	{name: "Google Tag Manager", category: "analytics", rules: []rule{
		script(`googletagmanager\.com/gtm\.js`),
		inline(`googletagmanager\.com/gtm\.js`),
		iframe(`googletagmanager\.com/ns\.html\?id=GTM-`),
	}},
	{name: "Plausible", category: "analytics", rules: []rule{
		script(`//plausible\.io/js/|/js/plausible(?:\.[a-z-]+)*\.js`),
	}},
	{name: "Matomo", category: "analytics", rules: []rule{
		script(`(?:^|/)(?:matomo|piwik)\.js`),
		inline(`_paq\.push\(`),
		cookie(`^_pk_(?:id|ses)\.`),
	}},
	{name: "HubSpot", category: "marketing", rules: []rule{
		script(`//js\.(?:hs-scripts\.com|hs-analytics\.net|hsforms\.net|hs-banner\.com)/`),
		inline(`_hsq\.push\(`),
		cookie(`^(?:hubspotutk|__hstc|__hssc)$`),
	}},
	{name: "Intercom", category: "marketing", rules: []rule{
		script(`//(?:widget\.intercom\.io|js\.intercomcdn\.com)/`),
		inline(`intercomSettings\s*=`),
		inline(`widget\.intercom\.io/`),
	}},
	{name: "Stripe.js", category: "ecommerce", rules: []rule{
		script(`//js\.stripe\.com/`),
	}},

	// CDNs and hosts.
	{name: "Cloudflare", category: "cdn", rules: []rule{
		header("Server", `^cloudflare$`),
		present("CF-Ray"),
		present("CF-Cache-Status"),
		cookie(`^(?:__cf_bm|__cfruid|cf_clearance|_cfuvid)$`),
		script(`/cdn-cgi/(?:challenge-platform|scripts|rum)/`),
	}},
	{name: "Cloudflare Web Analytics", category: "analytics", rules: []rule{
		script(`//static\.cloudflareinsights\.com/beacon`),
	}},
	{name: "Fastly", category: "cdn", rules: []rule{
		header("X-Served-By", `^cache-[a-z0-9-]+`),
		present("Fastly-Restarts"),
		present("X-Fastly-Request-Id"),
	}},
	{name: "Akamai", category: "cdn", rules: []rule{
		header("Server", `^AkamaiGHost`),
		present("X-Akamai-Transformed"),
		present("Akamai-GRN"),
		present("Akamai-Cache-Status"),
	}},
	{name: "CloudFront", category: "cdn", rules: []rule{
		present("X-Amz-Cf-Id"),
		present("X-Amz-Cf-Pop"),
		header("Via", `\(CloudFront\)`),
		header("Server", `^CloudFront$`),
	}},
	{name: "Varnish", category: "cdn", rules: []rule{
		header("Via", `(?i)varnish`),
		present("X-Varnish"),
	}},
	{name: "Vercel", category: "hosting", rules: []rule{
		header("Server", `^Vercel$`),
		present("X-Vercel-Id"),
		present("X-Vercel-Cache"),
	}},
	{name: "Netlify", category: "hosting", rules: []rule{
		header("Server", `^Netlify$`),
		present("X-Nf-Request-Id"),
	}},
	{name: "GitHub Pages", category: "hosting", rules: []rule{
		header("Server", `^GitHub\.com$`),
	}},
	{name: "Amazon S3", category: "hosting", rules: []rule{
		header("Server", `^AmazonS3$`),
	}},

	// Web servers and languages.
	{name: "nginx", category: "server", rules: []rule{
		header("Server", `^nginx(?:/(\d+(?:\.\d+)+))?`),
	}},
	{name: "OpenResty", category: "server", rules: []rule{
		header("Server", `^openresty(?:/(\d+(?:\.\d+)+))?`),
	}},
	{name: "Apache", category: "server", rules: []rule{
		header("Server", `^Apache(?:/(\d+(?:\.\d+)+))?(?:\s|$)`),
	}},
	{name: "IIS", category: "server", rules: []rule{
		header("Server", `^Microsoft-IIS(?:/(\d+(?:\.\d+)+))?`),
	}},
	{name: "LiteSpeed", category: "server", rules: []rule{
		header("Server", `^LiteSpeed`),
		present("X-LiteSpeed-Cache"),
		header("X-Turbo-Charged-By", `^LiteSpeed`),
	}},
	{name: "Caddy", category: "server", rules: []rule{
		header("Server", `^Caddy`),
	}},
	{name: "PHP", category: "language", rules: []rule{
		header("X-Powered-By", `PHP(?:/(\d+(?:\.\d+)+))?`),
		cookie(`^PHPSESSID$`),
	}},
}

// categoryOrder sorts Report.Technologies.
var categoryOrder = []string{"cms", "ecommerce", "framework", "library", "analytics", "marketing", "cdn", "hosting", "server", "language"}

// techRule is one technology and its rules.
type techRule struct {
	name, category string
	implies        []string // technologies it runs on (WordPress: PHP)
	rules          []rule
}

// signal is where a rule looks.
type signal uint8

const (
	inHeader     signal = iota // key: a header; pattern on its values (nil: present)
	inCookie                   // pattern on the name of a Set-Cookie
	inMeta                     // key: a <meta name>; pattern on content (nil: present)
	inScript                   // pattern on a <script src> URL
	inStylesheet               // pattern on a <link rel=stylesheet> URL
	inIframe                   // pattern on an <iframe src> URL
	inInline                   // pattern on inline script and style text; start it with a literal, which the matcher finds fast
	inAttr                     // key: an attribute; pattern on its value (nil: present)
	inAttrName                 // pattern on attribute names
	inTag                      // key: an element name
	inID                       // key: an id value
	inClass                    // key: a class name's prefix; pattern on the class name
)

// rule is one signal of a technology.
type rule struct {
	where   signal
	key     string
	pattern *regexp.Regexp
}

func compile(pattern string) *regexp.Regexp {
	if pattern == "" {
		return nil
	}
	return regexp.MustCompile(pattern)
}

func header(name, pattern string) rule {
	return rule{where: inHeader, key: name, pattern: compile(pattern)}
}
func present(name string) rule   { return rule{where: inHeader, key: name} }
func cookie(pattern string) rule { return rule{where: inCookie, pattern: compile(pattern)} }
func meta(name, pattern string) rule {
	return rule{where: inMeta, key: name, pattern: compile(pattern)}
}
func script(pattern string) rule     { return rule{where: inScript, pattern: compile(pattern)} }
func stylesheet(pattern string) rule { return rule{where: inStylesheet, pattern: compile(pattern)} }
func iframe(pattern string) rule     { return rule{where: inIframe, pattern: compile(pattern)} }
func inline(pattern string) rule     { return rule{where: inInline, pattern: compile(pattern)} }
func attr(name, pattern string) rule {
	return rule{where: inAttr, key: name, pattern: compile(pattern)}
}
func attrName(pattern string) rule { return rule{where: inAttrName, pattern: compile(pattern)} }
func tag(name string) rule         { return rule{where: inTag, key: name} }
func id(value string) rule         { return rule{where: inID, key: value} }
func class(prefix, pattern string) rule {
	return rule{where: inClass, key: prefix, pattern: compile(pattern)}
}
