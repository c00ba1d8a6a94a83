package robots

import (
	"strings"
	"testing"
)

// decisionCase is one row of the decision tables: robots.txt, a crawler
// and a URL, the decision and the line of the deciding rule (0: none).
// ref names where the expectation comes from: an RFC 9309 section, a test
// of Google's parser (google/robotstxt robots_test.cc), or Google's
// documentation (developers.google.com/search/docs/crawling-indexing/robots).
type decisionCase struct {
	ref     string
	robots  string
	agent   string
	url     string
	allowed bool
	line    int
}

// runDecisions runs a decision table.
func runDecisions(t *testing.T, cases []decisionCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.ref+" "+tc.agent+" "+tc.url, func(t *testing.T) {
			t.Parallel()
			d := Parse([]byte(tc.robots)).Test(tc.agent, tc.url)
			line := 0
			if d.MatchedRule != nil {
				line = d.MatchedRule.Line
				if d.Allowed != (d.MatchedRule.Directive == Allow) {
					t.Errorf("allowed %v by rule %+v", d.Allowed, *d.MatchedRule)
				}
			}
			if d.Allowed != tc.allowed || line != tc.line {
				t.Errorf("Test(%q, %q) = allowed %v by line %d, want %v by line %d\nrobots.txt:\n%s", tc.agent, tc.url, d.Allowed, line, tc.allowed, tc.line, tc.robots)
			}
		})
	}
}

// Robots files shared by several rows.
const (
	googleGroups = "allow: /foo/bar/\n\nuser-agent: FooBot\ndisallow: /\nallow: /x/\nuser-agent: BarBot\ndisallow: /\nallow: /y/\n\n\nallow: /w/\nuser-agent: BazBot\n\nuser-agent: FooBot\nallow: /z/\ndisallow: /\n"
	fooDisallow  = "user-agent: FooBot\ndisallow: /\n"
	fish         = "user-agent: FooBot\ndisallow: /\nallow: /fish\n"
	fishSlash    = "user-agent: FooBot\ndisallow: /\nallow: /fish/\n"
	php          = "user-agent: FooBot\ndisallow: /\nallow: /*.php\n"
	phpEnd       = "user-agent: FooBot\ndisallow: /\nallow: /*.php$\n"
	specialStar  = "User-agent: FooBot\nDisallow: /foo/bar/quz\nAllow: /foo/*/qux\n"
	specialEnd   = "User-agent: FooBot\nDisallow: /foo/bar$\nAllow: /foo/bar/qux\n"
	indexHTML    = "User-Agent: *\nAllow: /allowed-slash/index.html\nDisallow: /\n"
	lineEnds     = "User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\nDisallow: /"
)

// longLine is a disallow line longer than a line may be: Google's parser
// (and Parse) keep its first 16,663 bytes, "disallow: /x/aaa…a/".
var longLine = "disallow: /x/" + strings.Repeat("a", 16649) + "/qux\n"

// TestMatchingRules: how patterns match and which rule decides.
func TestMatchingRules(t *testing.T) {
	t.Parallel()
	runDecisions(t, matchingCases)
}

var matchingCases = []decisionCase{
	// Rule syntax (RFC 9309 §2.1; Google ID_LineSyntax_Line, GoogleOnly_SystemTest).
	{"ID_LineSyntax_Line", fooDisallow, "FooBot", "http://foo.bar/x/y", false, 2},
	{"ID_LineSyntax_Line", "foo: FooBot\nbar: /\n", "FooBot", "http://foo.bar/x/y", true, 0},
	{"ID_LineSyntax_Line no colon", "user-agent FooBot\ndisallow /\n", "FooBot", "http://foo.bar/x/y", false, 2},
	{"no colon, three words: not a rule", "user-agent FooBot\ndisallow / x\n", "FooBot", "http://foo.bar/x/y", true, 0},
	{"GoogleOnly_SystemTest empty robots", "", "FooBot", "", true, 0},
	{"GoogleOnly_SystemTest empty URL is /", fooDisallow, "FooBot", "", false, 2},
	{"ID_REPLineNamesCaseInsensitive", "USER-AGENT: FooBot\nALLOW: /x/\nDISALLOW: /\n", "FooBot", "http://foo.bar/x/y", true, 2},
	{"ID_REPLineNamesCaseInsensitive", "uSeR-aGeNt: FooBot\nAlLoW: /x/\ndIsAlLoW: /\n", "FooBot", "http://foo.bar/a/b", false, 3},
	{"§2.2.2 an empty disallow allows all", "user-agent: *\ndisallow:\n", "FooBot", "/anything", true, 0},
	{"§2.2.2 an empty disallow, specific group", "user-agent: FooBot\ndisallow:\n\nuser-agent: *\ndisallow: /\n", "FooBot", "/x", true, 0},
	{"§2.2.2 /robots.txt is always allowed", "user-agent: *\ndisallow: /\n", "FooBot", "http://foo.bar/robots.txt", true, 0},
	{"§2.2.2 /robots.txt with a query too", "user-agent: *\ndisallow: /robots\n", "FooBot", "/robots.txt?x=1", true, 0},
	{"but not /robots.txt.bak", "user-agent: *\ndisallow: /robots\n", "FooBot", "/robots.txt.bak", false, 2},
	{"rules are case-sensitive (ID_AllowDisallow_Value_CaseSensitive)", "user-agent: FooBot\ndisallow: /x/\n", "FooBot", "http://foo.bar/x/y", false, 2},
	{"ID_AllowDisallow_Value_CaseSensitive", "user-agent: FooBot\ndisallow: /X/\n", "FooBot", "http://foo.bar/x/y", true, 0},
	{"a pattern not starting with / matches nothing", "user-agent: *\ndisallow: foo\n", "a", "/foo", true, 0},

	// Longest match wins, allow wins a tie (RFC 9309 §2.2.2; Google ID_LongestMatch).
	{"ID_LongestMatch", "user-agent: FooBot\ndisallow: /x/page.html\nallow: /x/\n", "FooBot", "http://foo.bar/x/page.html", false, 2},
	{"ID_LongestMatch", "user-agent: FooBot\nallow: /x/page.html\ndisallow: /x/\n", "FooBot", "http://foo.bar/x/page.html", true, 2},
	{"ID_LongestMatch", "user-agent: FooBot\nallow: /x/page.html\ndisallow: /x/\n", "FooBot", "http://foo.bar/x/", false, 3},
	{"ID_LongestMatch empty patterns tie", "user-agent: FooBot\ndisallow: \nallow: \n", "FooBot", "http://foo.bar/x/page.html", true, 0},
	{"ID_LongestMatch tie: allow", "user-agent: FooBot\ndisallow: /\nallow: /\n", "FooBot", "http://foo.bar/x/page.html", true, 3},
	{"ID_LongestMatch", "user-agent: FooBot\ndisallow: /x\nallow: /x/\n", "FooBot", "http://foo.bar/x", false, 2},
	{"ID_LongestMatch", "user-agent: FooBot\ndisallow: /x\nallow: /x/\n", "FooBot", "http://foo.bar/x/", true, 3},
	{"ID_LongestMatch tie: allow", "user-agent: FooBot\ndisallow: /x/page.html\nallow: /x/page.html\n", "FooBot", "http://foo.bar/x/page.html", true, 3},
	{"ID_LongestMatch wildcard", "user-agent: FooBot\nallow: /page\ndisallow: /*.html\n", "FooBot", "http://foo.bar/page.html", false, 3},
	{"ID_LongestMatch wildcard", "user-agent: FooBot\nallow: /page\ndisallow: /*.html\n", "FooBot", "http://foo.bar/page", true, 2},
	{"ID_LongestMatch wildcard", "user-agent: FooBot\nallow: /x/page.\ndisallow: /*.html\n", "FooBot", "http://foo.bar/x/page.html", true, 2},
	{"ID_LongestMatch wildcard", "user-agent: FooBot\nallow: /x/page.\ndisallow: /*.html\n", "FooBot", "http://foo.bar/x/y.html", false, 3},
	{"ID_LongestMatch specific group", "User-agent: *\nDisallow: /x/\nUser-agent: FooBot\nDisallow: /y/\n", "FooBot", "http://foo.bar/x/page", true, 0},
	{"ID_LongestMatch specific group", "User-agent: *\nDisallow: /x/\nUser-agent: FooBot\nDisallow: /y/\n", "FooBot", "http://foo.bar/y/page", false, 4},
	{"length counts * and $", "user-agent: a\nallow: /a$\ndisallow: /a\n", "a", "/a", true, 2},
	{"length counts * and $", "user-agent: a\nallow: /a\ndisallow: /a*\n", "a", "/ab", false, 3},
	{"equal rules: the first decides", "user-agent: a\ndisallow: /a\ndisallow: /a\n", "a", "/ab", false, 2},
	{"Google docs precedence", "user-agent: FooBot\nallow: /p\ndisallow: /\n", "FooBot", "http://example.com/page", true, 2},
	{"Google docs precedence", "user-agent: FooBot\nallow: /folder\ndisallow: /folder\n", "FooBot", "http://example.com/folder/page", true, 2},
	{"Google docs precedence", "user-agent: FooBot\nallow: /page\ndisallow: /*.htm\n", "FooBot", "http://example.com/page.htm", false, 3},
	{"Google docs precedence", "user-agent: FooBot\nallow: /$\ndisallow: /\n", "FooBot", "http://example.com/", true, 2},
	{"Google docs precedence", "user-agent: FooBot\nallow: /$\ndisallow: /\n", "FooBot", "http://example.com/page.html", false, 3},

	// * and $ (RFC 9309 §2.2.3; Google ID_SpecialCharacters, DocumentationChecks).
	{"ID_SpecialCharacters", specialStar, "FooBot", "http://foo.bar/foo/bar/quz", false, 2},
	{"ID_SpecialCharacters", specialStar, "FooBot", "http://foo.bar/foo/quz", true, 0},
	{"ID_SpecialCharacters", specialStar, "FooBot", "http://foo.bar/foo//quz", true, 0},
	{"ID_SpecialCharacters", specialStar, "FooBot", "http://foo.bar/foo/bax/quz", true, 0},
	{"ID_SpecialCharacters $", specialEnd, "FooBot", "http://foo.bar/foo/bar", false, 2},
	{"ID_SpecialCharacters $", specialEnd, "FooBot", "http://foo.bar/foo/bar/qux", true, 3},
	{"ID_SpecialCharacters $", specialEnd, "FooBot", "http://foo.bar/foo/bar/", true, 0},
	{"ID_SpecialCharacters $", specialEnd, "FooBot", "http://foo.bar/foo/bar/baz", true, 0},
	{"ID_SpecialCharacters #", "User-agent: FooBot\n# Disallow: /\nDisallow: /foo/quz#qux\nAllow: /\n", "FooBot", "http://foo.bar/foo/bar", true, 4},
	{"ID_SpecialCharacters #", "User-agent: FooBot\n# Disallow: /\nDisallow: /foo/quz#qux\nAllow: /\n", "FooBot", "http://foo.bar/foo/quz", false, 3},
	{"$ inside a pattern is literal", "user-agent: a\ndisallow: /a$b\n", "a", "/a$b", false, 2},
	{"$ inside a pattern is literal", "user-agent: a\ndisallow: /a$b\n", "a", "/a", true, 0},
	{"only the last $ anchors", "user-agent: a\ndisallow: /a$$\n", "a", "/a$", false, 2},
	{"only the last $ anchors", "user-agent: a\ndisallow: /a$$\n", "a", "/a$x", true, 0},
	{"$ alone matches no path", "user-agent: a\ndisallow: $\n", "a", "/", true, 0},
	{"* alone matches all", "user-agent: a\ndisallow: *\n", "a", "/x", false, 2},
	{"many stars", "user-agent: a\ndisallow: /*a*b*c$\n", "a", "/xaybzc", false, 2},
	{"many stars", "user-agent: a\ndisallow: /*a*b*c$\n", "a", "/xaybzcd", true, 0},
	{"many stars, leftmost is not last", "user-agent: a\ndisallow: /*ab*ab$\n", "a", "/abab", false, 2},
	{"stars and anchor overlap", "user-agent: a\ndisallow: /*aa$\n", "a", "/a", true, 0},
	{"consecutive stars", "user-agent: a\ndisallow: /**x**\n", "a", "/yyx", false, 2},
	{"*.pdf$", "user-agent: a\ndisallow: /*.pdf$\n", "a", "/doc/file.pdf", false, 2},
	{"*.pdf$", "user-agent: a\ndisallow: /*.pdf$\n", "a", "/doc/file.pdf?x", true, 0},
	{"docs /fish", fish, "FooBot", "http://foo.bar/bar", false, 2},
	{"docs /fish", fish, "FooBot", "http://foo.bar/fish.html?id=anything", true, 3},
	{"docs /fish", fish, "FooBot", "http://foo.bar/fishheads/yummy.html", true, 3},
	{"docs /fish", fish, "FooBot", "http://foo.bar/Fish.asp", false, 2},
	{"docs /fish", fish, "FooBot", "http://foo.bar/catfish", false, 2},
	{"docs /fish", fish, "FooBot", "http://foo.bar/?id=fish", false, 2},
	{"docs /fish* is /fish", "user-agent: FooBot\ndisallow: /\nallow: /fish*\n", "FooBot", "http://foo.bar/fish/salmon.html", true, 3},
	{"docs /fish* is /fish", "user-agent: FooBot\ndisallow: /\nallow: /fish*\n", "FooBot", "http://foo.bar/catfish", false, 2},
	{"docs /fish/", fishSlash, "FooBot", "http://foo.bar/fish/?salmon", true, 3},
	{"docs /fish/", fishSlash, "FooBot", "http://foo.bar/fish", false, 2},
	{"docs /fish/", fishSlash, "FooBot", "http://foo.bar/Fish/Salmon.html", false, 2},
	{"docs /*.php", php, "FooBot", "http://foo.bar//folder/any.php.file.html", true, 3},
	{"docs /*.php", php, "FooBot", "http://foo.bar/index?f=filename.php/", true, 3},
	{"docs /*.php", php, "FooBot", "http://foo.bar/index?php", false, 2},
	{"docs /*.php", php, "FooBot", "http://foo.bar/windows.PHP", false, 2},
	{"docs /*.php$", phpEnd, "FooBot", "http://foo.bar/folder/filename.php", true, 3},
	{"docs /*.php$", phpEnd, "FooBot", "http://foo.bar/filename.php?parameters", false, 2},
	{"docs /*.php$", phpEnd, "FooBot", "http://foo.bar/filename.php5", false, 2},
	{"docs /fish*.php", "user-agent: FooBot\ndisallow: /\nallow: /fish*.php\n", "FooBot", "http://foo.bar/fishheads/catfish.php?parameters", true, 3},
	{"docs /fish*.php", "user-agent: FooBot\ndisallow: /\nallow: /fish*.php\n", "FooBot", "http://foo.bar/Fish.PHP", false, 2},

	// Google: an allowed index.html allows its directory (GoogleOnly_IndexHTMLisDirectory).
	{"GoogleOnly_IndexHTMLisDirectory", indexHTML, "foobot", "http://foo.com/allowed-slash/", true, 2},
	{"GoogleOnly_IndexHTMLisDirectory", indexHTML, "foobot", "http://foo.com/allowed-slash/index.htm", false, 3},
	{"GoogleOnly_IndexHTMLisDirectory", indexHTML, "foobot", "http://foo.com/allowed-slash/index.html", true, 2},
	{"GoogleOnly_IndexHTMLisDirectory", indexHTML, "foobot", "http://foo.com/anyother-url", false, 3},

	// The path matched (RFC 9309 §2.2.2; Google TestGetPathParamsQuery).
	{"the query is matched", "user-agent: a\ndisallow: /a?b\n", "a", "http://x.example/a?b=1", false, 2},
	{"the query is matched", "user-agent: a\ndisallow: /a?b\n", "a", "http://x.example/a", true, 0},
	{"any query", "user-agent: a\ndisallow: /*?\n", "a", "/list?page=2", false, 2},
	{"the fragment is not", "user-agent: a\ndisallow: /a$\n", "a", "http://x.example/a#top", false, 2},
	{"no path is /", "user-agent: a\ndisallow: /$\n", "a", "http://x.example", false, 2},
	{"a query without a path", "user-agent: a\ndisallow: /?\n", "a", "http://x.example?q", false, 2},
	{"parameters", "user-agent: a\ndisallow: /a;b\n", "a", "example.com/a;b#c", false, 2},
	{"a path", "user-agent: a\ndisallow: /a\n", "a", "/a/b", false, 2},
	{"scheme-relative", "user-agent: a\ndisallow: /b/c\n", "a", "//a/b/c", false, 2},

	// Percent-encoding (RFC 9309 §2.2.2; Google ID_Encoding).
	{"ID_Encoding URL in the query stays", "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar?qux=taz&baz=http://foo.bar?tar&par\n", "FooBot", "http://foo.bar/foo/bar?qux=taz&baz=http://foo.bar?tar&par", true, 3},
	{"ID_Encoding UTF-8 pattern", "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/ツ\n", "FooBot", "http://foo.bar/foo/bar/%E3%83%84", true, 3},
	// Google leaves a raw URL to its caller and so disallows this; RFC
	// 9309 §2.2.2 says to percent-encode both sides, which Test does.
	{"§2.2.2 UTF-8 URL is encoded too", "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/ツ\n", "FooBot", "http://foo.bar/foo/bar/ツ", true, 3},
	{"ID_Encoding encoded pattern", "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%E3%83%84\n", "FooBot", "http://foo.bar/foo/bar/%E3%83%84", true, 3},
	{"ID_Encoding unreserved escapes are not decoded", "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%62%61%7A\n", "FooBot", "http://foo.bar/foo/bar/baz", false, 2},
	{"ID_Encoding unreserved escapes are not decoded", "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%62%61%7A\n", "FooBot", "http://foo.bar/foo/bar/%62%61%7A", true, 3},
	{"escapes compared in upper case", "user-agent: a\ndisallow: /a%2fb\n", "a", "/a%2Fb", false, 2},
	{"escapes compared in upper case", "user-agent: a\ndisallow: /a%2Fb\n", "a", "/a%2fb", false, 2},
	{"%2F is not /", "user-agent: a\ndisallow: /a%2Fb\n", "a", "/a/b", true, 0},
	{"%2F is not /", "user-agent: a\ndisallow: /a/b\n", "a", "/a%2Fb", true, 0},
	{"non-ASCII pattern, escaped URL", "user-agent: a\ndisallow: /café\n", "a", "/caf%c3%a9/menu", false, 2},
	{"length after normalisation: a tie", "user-agent: a\nallow: /é\ndisallow: /%c3%a9\n", "a", "/%C3%A9", true, 2},
	{"length after normalisation", "user-agent: a\nallow: /é\ndisallow: /%C3%A9*\n", "a", "/%C3%A9", false, 3},

	// Lines too long (GoogleOnly_LineTooLong).
	{"GoogleOnly_LineTooLong", "user-agent: FooBot\n" + longLine, "FooBot", "http://foo.bar/fux", true, 0},
	{"GoogleOnly_LineTooLong", "user-agent: FooBot\n" + longLine, "FooBot", "http://foo.bar/x/" + strings.Repeat("a", 16649) + "/fux", false, 2},
}

// TestFileSyntax: groups, line ends, BOM, directive spellings.
func TestFileSyntax(t *testing.T) {
	t.Parallel()
	runDecisions(t, syntaxCases)
}

var syntaxCases = []decisionCase{
	// Groups (RFC 9309 §2.1; Google ID_LineSyntax_Groups).
	{"ID_LineSyntax_Groups", googleGroups, "FooBot", "http://foo.bar/x/b", true, 5},
	{"ID_LineSyntax_Groups", googleGroups, "FooBot", "http://foo.bar/z/d", true, 15},
	{"ID_LineSyntax_Groups", googleGroups, "FooBot", "http://foo.bar/y/c", false, 4},
	{"ID_LineSyntax_Groups", googleGroups, "BarBot", "http://foo.bar/y/c", true, 8},
	{"ID_LineSyntax_Groups", googleGroups, "BarBot", "http://foo.bar/w/a", true, 11},
	{"ID_LineSyntax_Groups", googleGroups, "BarBot", "http://foo.bar/z/d", false, 7},
	{"ID_LineSyntax_Groups", googleGroups, "BazBot", "http://foo.bar/z/d", true, 15},
	{"ID_LineSyntax_Groups rules before a group", googleGroups, "FooBot", "http://foo.bar/foo/bar/", false, 4},
	{"ID_LineSyntax_Groups rules before a group", googleGroups, "BarBot", "http://foo.bar/foo/bar/", false, 7},
	{"ID_LineSyntax_Groups rules before a group", googleGroups, "BazBot", "http://foo.bar/foo/bar/", false, 16},
	{"ID_LineSyntax_Groups_OtherRules sitemap", "User-agent: BarBot\nSitemap: https://foo.bar/sitemap\nUser-agent: *\nDisallow: /\n", "FooBot", "http://foo.bar/", false, 4},
	{"ID_LineSyntax_Groups_OtherRules sitemap", "User-agent: BarBot\nSitemap: https://foo.bar/sitemap\nUser-agent: *\nDisallow: /\n", "BarBot", "http://foo.bar/", false, 4},
	{"ID_LineSyntax_Groups_OtherRules unknown", "User-agent: FooBot\nInvalid-Unknown-Line: unknown\nUser-agent: *\nDisallow: /\n", "FooBot", "http://foo.bar/", false, 4},
	{"crawl-delay does not end a group", "user-agent: a\ncrawl-delay: 1\nuser-agent: b\ndisallow: /\n", "a", "/x", false, 4},
	{"§2.1 a user-agent line after a rule starts a group", "user-agent: a\ndisallow: /x\nuser-agent: b\ndisallow: /y\n", "a", "/y", true, 0},
	{"§2.2.1 groups for one agent are merged", "user-agent: a\ndisallow: /x\n\nuser-agent: b\ndisallow: /y\n\nuser-agent: a\nallow: /x/ok\n", "a", "/x/ok", true, 8},
	{"§2.2.1 groups for one agent are merged", "user-agent: a\ndisallow: /x\n\nuser-agent: b\ndisallow: /y\n\nuser-agent: a\nallow: /x/ok\n", "a", "/x/no", false, 2},
	{"§2.2.1 groups for one agent are merged", "user-agent: a\ndisallow: /x\n\nuser-agent: b\ndisallow: /y\n\nuser-agent: a\nallow: /x/ok\n", "a", "/y", true, 0},
	{"§2.2.1 * groups are merged", "user-agent: *\ndisallow: /x\n\nuser-agent: b\ndisallow: /y\n\nuser-agent: *\ndisallow: /z\n", "c", "/z", false, 8},
	{"a group naming an agent and *", "user-agent: a\nuser-agent: *\ndisallow: /x\n\nuser-agent: b\ndisallow: /y\n", "c", "/x", false, 3},
	{"a group naming an agent and *", "user-agent: a\nuser-agent: *\ndisallow: /x\n\nuser-agent: b\ndisallow: /y\n", "b", "/x", true, 0},
	{"a group naming an agent and *", "user-agent: a\nuser-agent: *\ndisallow: /x\n\nuser-agent: b\ndisallow: /y\n", "a", "/x", false, 3},

	// Line ends, BOM (Google ID_LinesNumbersAreCountedCorrectly, ID_UTF8ByteOrderMarkIsSkipped).
	{"LF", lineEnds, "bar", "/x", false, 6},
	{"CRLF", strings.ReplaceAll(lineEnds, "\n", "\r\n"), "bar", "/x", false, 6},
	{"CR", strings.ReplaceAll(lineEnds, "\n", "\r"), "bar", "/x", false, 6},
	{"mixed", "User-Agent: foo\nAllow: /some/path\r\nUser-Agent: bar\n\r\n\nDisallow: /", "bar", "/x", false, 6},
	{"mixed", "User-Agent: foo\nAllow: /some/path\r\nUser-Agent: bar\n\r\n\nDisallow: /", "foo", "/x", true, 0},
	{"BOM", "\xEF\xBB\xBFUser-Agent: foo\nDisallow: /\n", "foo", "/x", false, 2},
	{"partial BOM", "\xEF\xBBUser-Agent: foo\nDisallow: /\n", "foo", "/x", false, 2},
	{"partial BOM", "\xEFUser-Agent: foo\nDisallow: /\n", "foo", "/x", false, 2},
	{"broken BOM: a garbage line", "\xEF\x11\xBFUser-Agent: foo\nDisallow: /\n", "foo", "/x", true, 0},
	{"BOM in the middle: a garbage line", "User-Agent: foo\n\xEF\xBB\xBFDisallow: /\n", "foo", "/x", true, 0},
	{"comment after a value", "user-agent: a # the a bot\ndisallow: /x # secret\n", "a", "/x", false, 2},
	{"whitespace around the colon", "user-agent \t:\t a\n disallow :  /x  \n", "a", "/x", false, 2},

	// Directive spellings Google accepts (robots.cc KeyIs*).
	{"dissallow", "user-agent: a\ndissallow: /\n", "a", "/x", false, 2},
	{"dissalow", "user-agent: a\ndissalow: /\n", "a", "/x", false, 2},
	{"disalow", "user-agent: a\ndisalow: /\n", "a", "/x", false, 2},
	{"diasllow", "user-agent: a\ndiasllow: /\n", "a", "/x", false, 2},
	{"disallaw", "user-agent: a\ndisallaw: /\n", "a", "/x", false, 2},
	{"useragent", "useragent: a\ndisallow: /\n", "a", "/x", false, 2},
	{"user agent", "user agent: a\ndisallow: /\n", "a", "/x", false, 2},
	{"a key is read by its prefix", "User-agents: a\nDisallowed: /\n", "a", "/x", false, 2},
	{"allow takes no misspelling", "user-agent: a\ndisallow: /\nalow: /x\n", "a", "/x", false, 2},
}

// TestUserAgents: product tokens (RFC 9309 §2.2.1).
func TestUserAgents(t *testing.T) {
	t.Parallel()
	runDecisions(t, agentCases)
}

const (
	fooBarGroup    = "User-Agent: *\nDisallow: /\nUser-Agent: Foo Bar\nAllow: /x/\nDisallow: /\n"
	globalFallback = "user-agent: *\nallow: /\nuser-agent: FooBot\ndisallow: /\n"
	onlySpecific   = "user-agent: FooBot\nallow: /\nuser-agent: BarBot\ndisallow: /\nuser-agent: BazBot\ndisallow: /\n"
	googlebot21    = "User-agent: Googlebot/2.1\nDisallow: /\n"
)

var agentCases = []decisionCase{
	{"ID_UserAgentValueCaseInsensitive", "User-Agent: FOO BAR\nAllow: /x/\nDisallow: /\n", "Foo", "http://foo.bar/x/y", true, 2},
	{"ID_UserAgentValueCaseInsensitive", "User-Agent: FoO bAr\nAllow: /x/\nDisallow: /\n", "foo", "http://foo.bar/a/b", false, 3},
	{"GoogleOnly_AcceptUserAgentUpToFirstSpace", fooBarGroup, "Foo", "http://foo.bar/x/y", true, 4},
	// Google compares a caller's "Foo Bar" whole (and so disallows);
	// Test reduces it to its product token "Foo" first.
	{"caller's agent reduced to its token", fooBarGroup, "Foo Bar", "http://foo.bar/x/y", true, 4},
	{"ID_GlobalGroups_Secondary", "", "FooBot", "http://foo.bar/x/y", true, 0},
	{"ID_GlobalGroups_Secondary", globalFallback, "FooBot", "http://foo.bar/x/y", false, 4},
	{"ID_GlobalGroups_Secondary", globalFallback, "BarBot", "http://foo.bar/x/y", true, 2},
	{"ID_GlobalGroups_Secondary", onlySpecific, "QuxBot", "http://foo.bar/x/y", true, 0},
	{"GoogleOnly_SystemTest empty agent", fooDisallow, "", "", true, 0},
	{"empty agent gets the * group", "user-agent: *\ndisallow: /\n", "", "/x", false, 2},
	{"a UA line is cut at /", googlebot21, "Googlebot", "/x", false, 2},
	{"a UA line is cut at /", googlebot21, "googlebot", "/x", false, 2},
	{"the caller's agent is cut at /", googlebot21, "Googlebot/2.1", "/x", false, 2},
	{"the caller's header is read", googlebot21, "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "/x", false, 2},
	{"tokens match whole", googlebot21, "Googlebot-Image", "/x", true, 0},
	{"tokens match whole", "user-agent: Googlebot-Image\ndisallow: /\n", "Googlebot", "/x", true, 0},
	{"- and _ belong to tokens", "user-agent: Google-Extended\ndisallow: /\n", "google-extended", "/x", false, 2},
	{"* then words is *", "user-agent: * (everyone)\ndisallow: /\n", "a", "/x", false, 2},
	{"*bot names nobody", "user-agent: *bot\ndisallow: /\n", "a", "/x", true, 0},
	{"an empty UA line names nobody", "user-agent:\ndisallow: /\n", "", "/x", true, 0},
	{"§2.2.1 * only when no group names the agent", "user-agent: *\ndisallow: /\n\nuser-agent: a\ndisallow: /private\n", "a", "/public", true, 0},
	{"§2.2.1 * only when no group names the agent", "user-agent: *\ndisallow: /\n\nuser-agent: a\ndisallow: /private\n", "b", "/public", false, 2},
	{"a group without rules allows all", "user-agent: *\ndisallow: /\n\nuser-agent: a\n", "a", "/x", true, 0},
	{"§2.1 rules before any user-agent are ignored", "disallow: /\nuser-agent: *\ndisallow: /x\n", "a", "/y", true, 0},
	{"§2.1 consecutive user-agent lines are one group", "user-agent: a\nuser-agent: b\ndisallow: /\n", "b", "/x", false, 3},
	{"blank lines inside a group", "user-agent: a\n\nuser-agent: b\n\ndisallow: /\n", "a", "/x", false, 5},
}
