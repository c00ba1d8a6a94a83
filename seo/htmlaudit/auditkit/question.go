package auditkit

import (
	"strings"
	"unicode"
)

// questionWords open a question in English, Spanish, French, German,
// Italian, Portuguese and Dutch. Words that also open ordinary English
// phrases too often ("come", "como", "as") are left out.
var questionWords = map[string]bool{
	// English
	"what": true, "why": true, "how": true, "when": true, "where": true, "who": true,
	"whom": true, "whose": true, "which": true, "can": true, "could": true, "should": true,
	"would": true, "will": true, "is": true, "are": true, "was": true, "were": true,
	"do": true, "does": true, "did": true, "has": true, "have": true,
	// Spanish
	"qué": true, "cómo": true, "cuándo": true, "dónde": true, "quién": true, "quiénes": true,
	"cuál": true, "cuáles": true, "cuánto": true, "cuánta": true, "cuántos": true, "cuántas": true,
	// French
	"comment": true, "pourquoi": true, "quand": true, "où": true, "qui": true, "quel": true,
	"quelle": true, "quels": true, "quelles": true, "combien": true, "est-ce": true,
	"qu'est-ce": true, "que": true,
	// German
	"warum": true, "wie": true, "wann": true, "wo": true, "wer": true, "welche": true,
	"welcher": true, "welches": true, "wieso": true, "weshalb": true,
	// Italian
	"perché": true, "cosa": true, "quando": true, "dove": true, "chi": true, "quale": true,
	"quali": true, "quanto": true,
	// Portuguese
	"porque": true, "onde": true, "quem": true, "qual": true, "quais": true,
	// Dutch
	"wat": true, "hoe": true, "waarom": true, "wanneer": true, "waar": true, "welk": true,
}

// IsQuestion reports whether a heading reads as a question: it ends with a
// question mark (ASCII, full-width or Arabic), opens with "¿", or its first
// word is an interrogative or an auxiliary verb that opens a question in
// English, Spanish, French, German, Italian, Portuguese or Dutch ("How to
// ...", "What is ...", "Is it ...", "Warum ...", "Pourquoi ...").
func IsQuestion(text string) bool {
	t := strings.TrimSpace(text)
	if t == "" {
		return false
	}
	t = strings.TrimRightFunc(t, func(r rune) bool { return unicode.IsSpace(r) || r == '.' || r == ':' })
	if strings.HasSuffix(t, "?") || strings.HasSuffix(t, "？") || strings.HasSuffix(t, "؟") || strings.HasPrefix(t, "¿") {
		return true
	}
	first, _, _ := strings.Cut(t, " ")
	first = strings.ToLower(strings.TrimFunc(first, func(r rune) bool {
		return !unicode.IsLetter(r) && r != '\'' && r != '-'
	}))
	first = strings.ReplaceAll(first, "’", "'")
	return questionWords[first]
}
