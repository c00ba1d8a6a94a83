package htmlaudit

import (
	"strings"
	"unicode"
)

// GenericAnchors are the anchor texts AnchorText flags as generic: they say
// nothing about the page they lead to. A link's text matches when, lower
// case with white space collapsed and leading and trailing punctuation and
// symbols ("»", "→", "...", ">") removed, it equals one of these. English
// first, then Spanish, Portuguese, French, German, Italian and Dutch
// (Lighthouse's link-text audit lists the same idea for more languages).
var GenericAnchors = []string{
	// English
	"click here", "click", "click this", "here", "right here", "go", "go here", "this", "this link",
	"link", "this page", "page", "read more", "read", "more", "learn more", "more info",
	"more information", "information", "info", "details", "more details", "see more", "see details",
	"view more", "view", "view details", "show more", "continue", "continue reading", "keep reading",
	"find out more", "start", "website", "web site", "site", "url", "article", "download",
	"full story", "full article", "read article", "read full article", "visit", "visit site",
	"check it out",
	// Spanish
	"haz clic aquí", "haga clic aquí", "clic aquí", "click aquí", "pincha aquí", "aquí", "aqui", "más",
	"leer más", "ver más", "más información", "mas informacion", "seguir leyendo", "enlace", "este enlace",
	// Portuguese
	"clique aqui", "leia mais", "saiba mais", "mais", "veja mais", "ver mais", "mais informações",
	"continue lendo",
	// French
	"cliquez ici", "ici", "lire la suite", "en savoir plus", "plus", "voir plus", "suite", "lien",
	"ce lien", "plus d'informations", "lire plus",
	// German
	"hier klicken", "klicken sie hier", "hier", "mehr", "weiterlesen", "mehr erfahren", "mehr lesen",
	"mehr infos", "mehr informationen", "dieser link",
	// Italian
	"clicca qui", "qui", "leggi di più", "leggi tutto", "scopri di più", "altro", "continua a leggere",
	"di più",
	// Dutch
	"klik hier", "lees meer", "meer", "meer informatie", "meer info", "verder lezen",
}

var genericSet = func() map[string]bool {
	m := make(map[string]bool, len(GenericAnchors))
	for _, g := range GenericAnchors {
		m[g] = true
	}
	return m
}()

// isGeneric reports whether an anchor text is on GenericAnchors.
func isGeneric(text string) bool {
	return genericSet[normalizeAnchor(text)]
}

// normalizeAnchor is text lower case, white space collapsed, without
// leading and trailing punctuation or symbols.
func normalizeAnchor(text string) string {
	t := strings.TrimFunc(text, func(r rune) bool {
		return unicode.IsSpace(r) || unicode.IsPunct(r) || unicode.IsSymbol(r)
	})
	return strings.ToLower(strings.Join(strings.Fields(t), " "))
}
