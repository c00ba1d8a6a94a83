package keywords

import (
	"embed"
	"sort"
	"strings"
	"sync"
)

// stopFiles holds one stop list per language, a word per line:
//
//   - en.txt: the SMART stop list (Salton 1971; 571 entries, "would" twice,
//     as in the original ftp.cs.cornell.edu/pub/smart/english.stop), the
//     list the widely used reference implementation of RAKE
//     (github.com/aneesha/RAKE, SmartStoplist.txt, MIT) ships;
//   - da, de, es, fi, fr, hu, it, nb, nl, pt, ru, sv: the Snowball project's
//     stop lists (snowballstem.org, algorithms/<language>/stop.txt, 3-clause
//     BSD licence, copyright Dr Martin Porter and Richard Boulton), comments
//     removed; see stopwords/SOURCES.md.
//
//go:embed stopwords/*.txt
var stopFiles embed.FS

// stopListNames says where each language's list comes from.
var stopListNames = map[string]string{
	"en": "smart",
	"da": "snowball", "de": "snowball", "es": "snowball", "fi": "snowball",
	"fr": "snowball", "hu": "snowball", "it": "snowball", "nb": "snowball",
	"nl": "snowball", "pt": "snowball", "ru": "snowball", "sv": "snowball",
}

var (
	stopMu    sync.Mutex
	stopCache = map[string]map[string]bool{}
)

// Languages lists the language codes that have a built-in stop list.
func Languages() []string {
	out := make([]string, 0, len(stopListNames))
	for l := range stopListNames {
		out = append(out, l)
	}
	sort.Strings(out)
	return out
}

// stopList returns the built-in stop list of lang, or nil when there is
// none.
func stopList(lang string) map[string]bool {
	if _, ok := stopListNames[lang]; !ok {
		return nil
	}
	stopMu.Lock()
	defer stopMu.Unlock()
	if s, ok := stopCache[lang]; ok {
		return s
	}
	raw, err := stopFiles.ReadFile("stopwords/" + lang + ".txt")
	if err != nil {
		return nil
	}
	s := makeStopSet(strings.Split(string(raw), "\n"))
	stopCache[lang] = s
	return s
}

// makeStopSet folds words as the tokenizer folds text: lower case, and
// typographic apostrophes as "'".
func makeStopSet(words []string) map[string]bool {
	s := make(map[string]bool, len(words))
	for _, w := range words {
		if w = strings.TrimSpace(w); w != "" && !strings.HasPrefix(w, "#") {
			s[fold(w)] = true
		}
	}
	return s
}
