package structured

import "strings"

// ogNamespaces are the prefixes of OpenGraph properties.
var ogNamespaces = map[string]bool{
	"og": true, "article": true, "product": true, "music": true,
	"video": true, "book": true, "profile": true,
}

// ogMedia are the structured properties that are always lists of objects,
// even without sub-properties.
var ogMedia = []string{"og:image", "og:video", "og:audio"}

// ogRepeatable are the OpenGraph properties that may have several values:
// they are always lists of strings.
var ogRepeatable = map[string]bool{
	"og:locale:alternate": true, "og:see_also": true,
	"article:author": true, "article:tag": true,
	"book:author": true, "book:tag": true,
	"music:musician": true, "music:creator": true,
	"video:director": true, "video:writer": true, "video:tag": true,
}

func isOpenGraph(key string) bool {
	ns, _, ok := strings.Cut(key, ":")
	return ok && ogNamespaces[ns]
}

// ogSub splits a structured property's sub-property ("og:image:width")
// into its root ("og:image") and its name ("width").
func ogSub(key string) (root, sub string, ok bool) {
	if ogRepeatable[key] {
		return "", "", false
	}
	ns, rest, _ := strings.Cut(key, ":")
	name, sub, ok := strings.Cut(rest, ":")
	if !ok || name == "" || sub == "" {
		return "", "", false
	}
	return ns + ":" + name, sub, true
}

// openGraph groups the OpenGraph properties. A structured property (a root
// such as og:image, or any property with sub-properties such as
// music:song:disc or product:price:amount) is a list of objects: the
// root's value starts an object under "url", and a sub-property goes into
// the latest object, starting a new one when that already has it. A
// repeatable property is a list of strings; any other keeps its first
// value.
func (b *builder) openGraph(tags []metaTag) map[string]any {
	roots := map[string]bool{}
	for _, r := range ogMedia {
		roots[r] = true
	}
	for _, t := range tags {
		if root, _, ok := ogSub(t.key); ok && isOpenGraph(t.key) {
			roots[root] = true
		}
	}
	og := map[string]any{}
	for _, t := range tags {
		if !isOpenGraph(t.key) {
			continue
		}
		root, sub, isSub := ogSub(t.key)
		key := t.key
		if isSub {
			key = root
		}
		if _, ok := og[key]; !ok && !b.room(len(og), "open_graph") {
			continue
		}
		switch {
		case isSub:
			b.setSub(og, root, sub, t.content, false)
		case roots[t.key]:
			b.setSub(og, t.key, "url", t.content, true)
		case ogRepeatable[t.key]:
			list, _ := og[t.key].([]string)
			if b.room(len(list), "open_graph") {
				og[t.key] = append(list, t.content)
			}
		default:
			if _, ok := og[t.key]; !ok {
				if t.key == "og:url" {
					t.content = b.abs(t.content)
				}
				og[t.key] = t.content
			}
		}
	}
	if len(og) == 0 {
		return nil
	}
	return og
}

// setSub sets sub to value in the latest object of root's list, starting
// a new object when start is set or the latest already has another value
// for sub. URLs are made absolute.
func (b *builder) setSub(og map[string]any, root, sub, value string, start bool) {
	if sub == "url" || sub == "secure_url" {
		value = b.abs(value)
	}
	list, _ := og[root].([]map[string]string)
	if n := len(list); n > 0 && !start {
		last := list[n-1]
		old, ok := last[sub]
		if !ok {
			last[sub] = value
		}
		if !ok || old == value {
			return
		}
	}
	if b.room(len(list), "open_graph") {
		og[root] = append(list, map[string]string{sub: value})
	}
}

// twitterURLs are the Twitter card properties whose values are URLs.
var twitterURLs = map[string]bool{
	"twitter:image": true, "twitter:image:src": true,
	"twitter:player": true, "twitter:player:stream": true,
}

// twitter returns the twitter:* properties, the first of each.
func (b *builder) twitter(tags []metaTag) map[string]string {
	tw := map[string]string{}
	for _, t := range tags {
		if _, ok := tw[t.key]; ok || !strings.HasPrefix(t.key, "twitter:") || !b.room(len(tw), "twitter") {
			continue
		}
		if twitterURLs[t.key] {
			t.content = b.abs(t.content)
		}
		tw[t.key] = t.content
	}
	if len(tw) == 0 {
		return nil
	}
	return tw
}
