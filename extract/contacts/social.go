package contacts

import (
	"net"
	"net/url"
	"regexp"
	"slices"
	"strings"
)

// Profile is one social-network profile.
type Profile struct {
	Network string `json:"network" enum:"linkedin,x,facebook,instagram,github,youtube,tiktok,mastodon,threads,bluesky,pinterest,reddit,telegram,whatsapp" doc:"The network." example:"x"`
	URL     string `json:"url" doc:"The profile's normalized URL: https, the network's canonical host, no query or fragment, lower-cased where the network ignores case." example:"https://x.com/example"`
	Handle  string `json:"handle,omitempty" doc:"The account name without a leading @: user@host on Mastodon, u/name or r/name on Reddit, +digits on WhatsApp, the slug on LinkedIn, the channel ID for YouTube /channel/ URLs." example:"example"`
	Count   int    `json:"count" doc:"How many times it occurs." example:"1"`
}

// network recognizes the profiles of one social network.
type network struct {
	name string
	host string // canonical
	// profile returns the canonical path and the handle of a profile URL
	// on the network, given its path segments and query.
	profile func(segs []string, q url.Values) (path, handle string, ok bool)
}

var (
	xHandleRe      = regexp.MustCompile(`^[A-Za-z0-9_]{1,15}$`)
	igHandleRe     = regexp.MustCompile(`^[A-Za-z0-9._]{1,30}$`)
	ghHandleRe     = regexp.MustCompile(`^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$`)
	fbNameRe       = regexp.MustCompile(`^[A-Za-z0-9.-]{2,80}$`)
	slugRe         = regexp.MustCompile(`^[\p{L}\p{N}_.%-]{2,100}$`)
	ytChannelRe    = regexp.MustCompile(`^UC[A-Za-z0-9_-]{22}$`)
	ytHandleRe     = regexp.MustCompile(`^@[\p{L}\p{N}_.-]{3,30}$`)
	tiktokHandleRe = regexp.MustCompile(`^[A-Za-z0-9_.]{2,24}$`)
	bskyHandleRe   = regexp.MustCompile(`^(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)+[A-Za-z]{2,}$|^did:plc:[a-z2-7]{24}$`)
	pinHandleRe    = regexp.MustCompile(`^[A-Za-z0-9_]{3,30}$`)
	redditNameRe   = regexp.MustCompile(`^[A-Za-z0-9_-]{2,21}$`)
	tgHandleRe     = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]{4,31}$`)
	digitsRe       = regexp.MustCompile(`^[0-9]{6,15}$`)
	mastodonUserRe = regexp.MustCompile(`^@[A-Za-z0-9_]{1,30}$`)
	// textURLRe finds URLs in text; known networks need no scheme there.
	textURLRe = regexp.MustCompile(`(?i)(?:https?://)?(?:` + label + `\.)+[a-z]{2,}(?::[0-9]{1,5})?/[^\s<>"'\x60{}|\\^\[\]]*`)
	// fediverseRe finds fediverse handles in text: @user@host.
	fediverseRe = regexp.MustCompile(`(?i)@([a-z0-9_]{1,30})@((?:` + label + `\.)+[a-z]{2,})`)
)

// Paths that are features of a network, not accounts.
var (
	xReserved = set("about", "account", "compose", "download", "explore", "hashtag", "home", "i",
		"intent", "jobs", "login", "logout", "messages", "notifications", "privacy", "search",
		"settings", "share", "signup", "tos", "widgets")
	fbReserved = set("about", "ads", "bookmarks", "business", "dialog", "events", "friends",
		"fundraisers", "gaming", "groups", "hashtag", "help", "home.php", "l.php", "legal", "login",
		"marketplace", "media", "messages", "notes", "pages", "people", "permalink.php", "pg",
		"photo", "photo.php", "photos", "plugins", "policies", "privacy", "profile.php", "reel",
		"reels", "search", "settings", "share", "share.php", "sharer", "sharer.php", "signup",
		"stories", "story.php", "tr", "video.php", "watch")
	igReserved = set("about", "accounts", "developer", "direct", "explore", "legal", "p", "reel",
		"reels", "stories", "tv", "web")
	ghReserved = set("about", "account", "apps", "codespaces", "collections", "contact", "copilot",
		"customer-stories", "dashboard", "discussions", "education", "enterprise", "events",
		"explore", "features", "home", "issues", "join", "login", "logout", "marketplace", "mobile",
		"new", "nonprofit", "notifications", "organizations", "orgs", "pricing", "pulls",
		"readme", "resources", "search", "security", "sessions", "settings", "signup", "site",
		"solutions", "sponsors", "stars", "team", "topics", "trending")
	pinReserved = set("about", "business", "categories", "explore", "homefeed", "ideas", "login",
		"news_hub", "pin", "search", "settings", "today", "topics", "videos")
	tgReserved = set("addstickers", "addtheme", "joinchat", "login", "proxy", "setlanguage",
		"share", "socks")
	// notFediverse are hosts whose /@name paths are not Mastodon accounts.
	notFediverse = set("medium.com", "substack.com", "snapchat.com", "vimeo.com", "twitch.tv",
		"dev.to", "hashnode.com", "npmjs.com", "behance.net", "dribbble.com", "soundcloud.com")
)

var networks = []struct {
	hosts []string // after www., m., mobile. or web. is dropped
	network
}{
	{[]string{"linkedin.com"}, network{"linkedin", "www.linkedin.com", linkedinProfile}},
	{[]string{"x.com", "twitter.com"}, network{"x", "x.com", oneSegment(xHandleRe, xReserved)}},
	{[]string{"facebook.com", "fb.com"}, network{"facebook", "www.facebook.com", facebookProfile}},
	{[]string{"instagram.com"}, network{"instagram", "www.instagram.com", oneSegment(igHandleRe, igReserved)}},
	{[]string{"github.com"}, network{"github", "github.com", githubProfile}},
	{[]string{"youtube.com"}, network{"youtube", "www.youtube.com", youtubeProfile}},
	{[]string{"tiktok.com"}, network{"tiktok", "www.tiktok.com", atSegment(tiktokHandleRe)}},
	{[]string{"threads.com", "threads.net"}, network{"threads", "www.threads.com", atSegment(igHandleRe)}},
	{[]string{"bsky.app"}, network{"bluesky", "bsky.app", blueskyProfile}},
	{[]string{"pinterest.com"}, network{"pinterest", "www.pinterest.com", oneSegment(pinHandleRe, pinReserved)}},
	{[]string{"reddit.com", "old.reddit.com", "new.reddit.com"}, network{"reddit", "www.reddit.com", redditProfile}},
	{[]string{"t.me", "telegram.me"}, network{"telegram", "t.me", telegramProfile}},
	{[]string{"wa.me", "api.whatsapp.com", "whatsapp.com"}, network{"whatsapp", "wa.me", whatsappProfile}},
}

func findProfiles(d *document) []Profile {
	var found []hit[Profile]
	for _, l := range d.links {
		if p, ok := profileOf(d.resolve(l.href)); ok {
			found = append(found, hit[Profile]{l.pos, p})
		}
	}
	for offset, line := range lines(d.text, func(l string) bool { return strings.IndexByte(l, '/') >= 0 }) {
		for _, m := range textURLRe.FindAllStringIndex(line, -1) {
			if p, ok := textProfile(line[m[0]:m[1]]); ok {
				found = append(found, hit[Profile]{offset + m[0], p})
			}
		}
	}
	for offset, line := range lines(d.text, func(l string) bool { return strings.Count(l, "@") >= 2 }) {
		for _, m := range fediverseRe.FindAllStringSubmatchIndex(line, -1) {
			u := &url.URL{Scheme: "https", Host: line[m[4]:m[5]], Path: "/@" + line[m[2]:m[3]]}
			if p, ok := profileOf(u); ok && p.Network == "mastodon" && validDomain(strings.ToLower(u.Host)) {
				found = append(found, hit[Profile]{offset + m[0], p})
			}
		}
	}
	return tally(found, func(p Profile) string { return strings.ToLower(p.URL) }, func(p *Profile) *int { return &p.Count })
}

// textProfile reads a URL found in text. Known networks need no scheme
// there; Mastodon, on any host, does.
func textProfile(s string) (Profile, bool) {
	s = strings.TrimRight(s, ".,;:!?)'\"")
	schemeless := !strings.Contains(s[:min(len(s), 8)], "://")
	if schemeless {
		s = "https://" + s
	}
	u, err := url.Parse(s)
	if err != nil {
		return Profile{}, false
	}
	p, ok := profileOf(u)
	return p, ok && !(schemeless && p.Network == "mastodon")
}

// profileOf returns the profile u points to, if it is one: share links,
// posts, videos, repositories and site pages are not.
func profileOf(u *url.URL) (Profile, bool) {
	if u == nil || (u.Scheme != "http" && u.Scheme != "https") {
		return Profile{}, false
	}
	full := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	host := full
	for _, prefix := range []string{"www.", "m.", "mobile.", "web."} {
		if h, ok := strings.CutPrefix(host, prefix); ok {
			host = h
			break
		}
	}
	segs := strings.FieldsFunc(u.Path, func(r rune) bool { return r == '/' })
	q := u.Query()
	for _, n := range networks {
		if !slices.Contains(n.hosts, host) && !regionalHost(n.name, host) {
			continue
		}
		path, handle, ok := n.profile(segs, q)
		if !ok {
			return Profile{}, false
		}
		return Profile{Network: n.name, URL: "https://" + n.host + path, Handle: handle}, true
	}
	return mastodonProfile(full, segs)
}

// regionalHost reports whether host is a country version of a network:
// uk.linkedin.com, de.pinterest.com, pinterest.co.uk.
func regionalHost(network, host string) bool {
	switch network {
	case "linkedin":
		return strings.HasSuffix(host, ".linkedin.com")
	case "pinterest":
		return strings.HasSuffix(host, ".pinterest.com") || strings.HasPrefix(host, "pinterest.")
	}
	return false
}

// oneSegment matches /name, for networks whose profiles sit at the root.
func oneSegment(handle *regexp.Regexp, reserved map[string]bool) func([]string, url.Values) (string, string, bool) {
	return func(segs []string, _ url.Values) (string, string, bool) {
		if len(segs) != 1 || !handle.MatchString(segs[0]) || reserved[strings.ToLower(segs[0])] {
			return "", "", false
		}
		h := strings.ToLower(segs[0])
		return "/" + h, h, true
	}
}

// atSegment matches /@name.
func atSegment(handle *regexp.Regexp) func([]string, url.Values) (string, string, bool) {
	return func(segs []string, _ url.Values) (string, string, bool) {
		if len(segs) != 1 || !strings.HasPrefix(segs[0], "@") || !handle.MatchString(segs[0][1:]) {
			return "", "", false
		}
		h := strings.ToLower(segs[0][1:])
		return "/@" + h, h, true
	}
}

func linkedinProfile(segs []string, _ url.Values) (string, string, bool) {
	if len(segs) < 2 || !slugRe.MatchString(segs[1]) {
		return "", "", false
	}
	switch kind := strings.ToLower(segs[0]); kind {
	case "in", "company", "school", "showcase":
		h := strings.ToLower(segs[1])
		return "/" + kind + "/" + h, h, true
	}
	return "", "", false
}

func facebookProfile(segs []string, q url.Values) (string, string, bool) {
	switch {
	case len(segs) == 1 && segs[0] == "profile.php" && digitsRe.MatchString(q.Get("id")):
		return "/profile.php?id=" + q.Get("id"), q.Get("id"), true
	case len(segs) == 1 && fbNameRe.MatchString(segs[0]) && !fbReserved[strings.ToLower(segs[0])] && !strings.HasSuffix(segs[0], ".php"):
		h := strings.ToLower(segs[0])
		return "/" + h, h, true
	case len(segs) >= 2 && segs[0] == "pg" && fbNameRe.MatchString(segs[1]):
		h := strings.ToLower(segs[1])
		return "/" + h, h, true
	case len(segs) >= 3 && (segs[0] == "people" || segs[0] == "pages") && digitsRe.MatchString(segs[2]):
		return "/" + segs[0] + "/" + strings.ToLower(segs[1]) + "/" + segs[2], segs[2], true
	}
	return "", "", false
}

func githubProfile(segs []string, q url.Values) (string, string, bool) {
	if len(segs) == 2 && segs[0] == "orgs" {
		segs = segs[1:]
	}
	return oneSegment(ghHandleRe, ghReserved)(segs, q)
}

// youtubeProfile matches /@handle, /channel/ID, /c/name and /user/name,
// with or without a tab after them (/videos, /about).
func youtubeProfile(segs []string, _ url.Values) (string, string, bool) {
	switch {
	case len(segs) >= 1 && ytHandleRe.MatchString(segs[0]):
		h := strings.ToLower(segs[0])
		return "/" + h, h[1:], true
	case len(segs) >= 2 && segs[0] == "channel" && ytChannelRe.MatchString(segs[1]):
		return "/channel/" + segs[1], segs[1], true
	case len(segs) >= 2 && (segs[0] == "c" || segs[0] == "user") && slugRe.MatchString(segs[1]):
		h := strings.ToLower(segs[1])
		return "/" + segs[0] + "/" + h, h, true
	}
	return "", "", false
}

func blueskyProfile(segs []string, _ url.Values) (string, string, bool) {
	if len(segs) != 2 || segs[0] != "profile" || !bskyHandleRe.MatchString(segs[1]) {
		return "", "", false
	}
	h := strings.ToLower(segs[1])
	return "/profile/" + h, h, true
}

// redditProfile matches users (/user/name, /u/name) and subreddits
// (/r/name), not their posts.
func redditProfile(segs []string, _ url.Values) (string, string, bool) {
	if len(segs) != 2 || !redditNameRe.MatchString(segs[1]) {
		return "", "", false
	}
	h := strings.ToLower(segs[1])
	switch segs[0] {
	case "user", "u":
		return "/user/" + h, "u/" + h, true
	case "r":
		return "/r/" + h, "r/" + h, true
	}
	return "", "", false
}

// telegramProfile matches /name and its web preview /s/name, not posts,
// invites or share links.
func telegramProfile(segs []string, q url.Values) (string, string, bool) {
	if len(segs) == 2 && segs[0] == "s" {
		segs = segs[1:]
	}
	return oneSegment(tgHandleRe, tgReserved)(segs, q)
}

// whatsappProfile matches wa.me/digits and api.whatsapp.com/send?phone=,
// not share links (wa.me/?text=).
func whatsappProfile(segs []string, q url.Values) (string, string, bool) {
	digits := ""
	switch {
	case len(segs) == 1 && digitsRe.MatchString(segs[0]):
		digits = segs[0]
	case len(segs) == 1 && segs[0] == "send":
		digits = strings.TrimLeft(q.Get("phone"), "+ ") // a raw "+" decodes to " "
	}
	if !digitsRe.MatchString(digits) {
		return "", "", false
	}
	return "/" + digits, "+" + digits, true
}

// mastodonProfile matches https://host/@user on any other host.
func mastodonProfile(host string, segs []string) (Profile, bool) {
	if len(segs) != 1 || !mastodonUserRe.MatchString(segs[0]) || notFediverse[host] ||
		!strings.Contains(host, ".") || net.ParseIP(host) != nil {
		return Profile{}, false
	}
	user := strings.ToLower(segs[0][1:])
	return Profile{Network: "mastodon", URL: "https://" + host + "/@" + user, Handle: user + "@" + host}, true
}

func set(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}
