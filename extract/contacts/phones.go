package contacts

import (
	"net/url"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/nyaruka/phonenumbers"
)

// Phone is one phone number.
type Phone struct {
	E164      string `json:"e164,omitempty" doc:"The number in E.164 form; empty when its country is unknown (written without a country code and no region was given or inferred)." example:"+442079460958"`
	Raw       string `json:"raw" doc:"The number as first written." example:"020 7946 0958"`
	Extension string `json:"extension,omitempty" doc:"The extension, when written." example:"12"`
	Region    string `json:"region,omitempty" doc:"ISO 3166-1 alpha-2 region of the number." example:"GB"`
	Type      string `json:"type,omitempty" enum:"fixed_line,mobile,fixed_line_or_mobile,toll_free,premium_rate,shared_cost,voip,personal_number,pager,uan,voicemail" doc:"The line type the numbering plan gives the number, when valid." example:"fixed_line"`
	Valid     bool   `json:"valid" doc:"Whether the number is valid by libphonenumber's metadata. Numbers of unknown country are never valid; every normalized number found in text is." example:"true"`
	Source    string `json:"source" enum:"tel_link,text" doc:"Where it was first found: a tel:, callto: or sms: link, or text." example:"text"`
	Count     int    `json:"count" doc:"How many times it occurs." example:"1"`
}

const phoneSep = `[ \t\x{a0}.\-\x{2010}-\x{2015}\x{2212}/()]`

var (
	// phoneRe finds candidates the way libphonenumber's matcher does:
	// digit blocks joined by a little punctuation, an optional leading
	// "+" or "(", and an optional extension.
	phoneRe = regexp.MustCompile(`((?:\+|\(\+?)?[0-9]+(?:` + phoneSep + `{1,3}[0-9]+)*)(?:` + blank + `*(?i:ext\.?|extension|x)` + blank + `*([0-9]{1,7}))?`)
	// Candidates that are something else.
	dateRe      = regexp.MustCompile(`^(?:[0-9]{4}[-./][01]?[0-9][-./][0-3]?[0-9]|[0-3]?[0-9][-./][0-3]?[0-9][-./](?:19|20)?[0-9]{2})(?:` + blank + `+[0-9]{1,2})?$`)
	yearRangeRe = regexp.MustCompile(`^(?:19|20)[0-9]{2}` + blank + `*[-\x{2010}-\x{2015}\x{2212}/]` + blank + `*(?:19|20)[0-9]{2}$`)
	dottedRe    = regexp.MustCompile(`^[0-9]{1,3}(?:\.[0-9]{1,3}){2,3}$`) // IPv4, versions
	// Labels just before a candidate.
	phoneLabelRe = regexp.MustCompile(`(?i)(?:(?:\b(?:tel|tél|t[eé]l[eé]phone|phone|telefon|tel[eé]fono|call|fax|mobile?|mob|cell|whatsapp|hotline|ph|tlf)\b|☎|📞)[^0-9]{0,16}|\b[tmfp]` + blank + `?:` + blank + `*)$`)
	idLabelRe    = regexp.MustCompile(`(?i)\b(?:id|no|nr|num|number|order|invoice|sku|ref|isbn|issn|vat|siret|siren|iban|account|acct|tax|ein|abn|reg|registration|case|ticket|serial|model|part|item)\b[^0-9]{0,6}$`)
	// innerSplitRe splits two numbers written as one candidate.
	innerSplitRe = regexp.MustCompile(blank + `*/` + blank + `*|` + blank + `{2,}`)
)

// parsesPerItem bounds, per item a list may hold, the distinct candidates
// parsed, the costly step: dense hostile input stays cheap.
const parsesPerItem = 10

// phoneFinder finds the phones of one document, memoizing candidates.
type phoneFinder struct {
	region    string
	budget    int  // distinct candidates left to parse
	exhausted bool // a candidate went unparsed for want of budget
	memo      map[string]phoneResult
}

type phoneResult struct {
	phone Phone
	ok    bool
}

// findPhones returns the phones of d and whether it stopped early, after
// parsing budget distinct candidates.
func findPhones(d *document, region string, budget int) ([]Phone, bool) {
	f := &phoneFinder{region: region, budget: budget, memo: map[string]phoneResult{}}
	var found []hit[Phone]
	for _, l := range d.links {
		target, ok := telTarget(l.href)
		if !ok {
			continue
		}
		if p, ok := f.resolve("tel:"+target, func() (Phone, bool) { return telPhone(target, region) }); ok {
			found = append(found, hit[Phone]{l.pos, p})
		}
	}
	found = append(found, f.scan(d.text)...)
	return tally(found, phoneKey, func(p *Phone) *int { return &p.Count }), f.exhausted
}

// resolve returns the memoized result for key, else parse's while the
// budget lasts.
func (f *phoneFinder) resolve(key string, parse func() (Phone, bool)) (Phone, bool) {
	if r, ok := f.memo[key]; ok {
		return r.phone, r.ok
	}
	if f.budget == 0 {
		f.exhausted = true
		return Phone{}, false
	}
	f.budget--
	p, ok := parse()
	f.memo[key] = phoneResult{p, ok}
	return p, ok
}

func phoneKey(p Phone) string {
	if p.E164 != "" {
		return p.E164 + ";ext=" + p.Extension
	}
	return "raw:" + phonenumbers.NormalizeDigitsOnly(p.Raw)
}

// telTarget returns the number of a tel:, callto: or sms: link,
// percent-decoded, without its query.
func telTarget(href string) (string, bool) {
	href = strings.TrimSpace(href)
	for _, scheme := range []string{"tel:", "callto:", "sms:"} {
		if rest, ok := cutPrefixFold(href, scheme); ok {
			rest, _, _ = strings.Cut(strings.TrimPrefix(rest, "//"), "?")
			if s, err := url.PathUnescape(rest); err == nil {
				rest = s
			}
			return strings.TrimSpace(rest), true
		}
	}
	return "", false
}

// telPhone reads the number of a link (RFC 3966 parameters included). Any
// number that is possible is kept, its validity reported; without a
// country it is kept raw.
func telPhone(target, region string) (Phone, bool) {
	main, params, _ := strings.Cut(target, ";")
	if n := countDigits(main); n < 3 || n > 17 {
		return Phone{}, false
	}
	number, intl := international(main)
	if !intl && region == "" && !strings.Contains(params, "phone-context=+") {
		ext, _ := strings.CutPrefix(params, "ext=")
		return Phone{Raw: target, Extension: ext, Source: SourceTelLink}, true
	}
	if params != "" {
		number += ";" + params
	}
	n, err := phonenumbers.ParseAndKeepRawInput(number, region)
	if err != nil || !phonenumbers.IsPossibleNumber(n) {
		return Phone{}, false
	}
	return phoneOf(n, target, SourceTelLink), true
}

// scan finds the phone numbers written in text. A candidate must
// stand alone (no letter, digit or currency sign against it), not look
// like a date, a range of years, an IP address or a version, and not
// follow an ID label ("Order no.", "VAT", "ISBN"). Then, with its country
// known, it must be valid (libphonenumber's VALID leniency) and either be
// written internationally, follow a phone label ("Tel:", "Fax", "☎") or be
// grouped as the numbering plan groups it. Without a country it is kept
// raw only after a phone label.
func (f *phoneFinder) scan(text string) []hit[Phone] {
	var found []hit[Phone]
	for offset, line := range lines(text, func(l string) bool { return countDigits(l) >= 7 }) {
		for _, m := range phoneRe.FindAllStringSubmatchIndex(line, -1) {
			for i := range m {
				if m[i] >= 0 {
					m[i] += offset
				}
			}
			found = append(found, f.match(text, m)...)
		}
	}
	return found
}

// match returns the phones of text at the phoneRe match m: none,
// one, or two when two numbers run together ("020 7946 0958 / 020 7946
// 0959").
func (f *phoneFinder) match(text string, m []int) []hit[Phone] {
	start, end := m[0], m[1]
	main, ext := text[m[2]:m[3]], ""
	if m[4] >= 0 {
		ext = text[m[4]:m[5]]
	}
	if countDigits(main) < 7 || !standsAlone(text, start, end) {
		return nil
	}
	if !strings.Contains(main, ")") {
		main = strings.TrimPrefix(main, "(")
	}
	if strings.Count(main, "(") != strings.Count(main, ")") ||
		dateRe.MatchString(main) || yearRangeRe.MatchString(main) || dottedRe.MatchString(main) {
		return nil
	}
	// Labels are followed by no digit: look only after the last one.
	before := text[max(0, start-32):start]
	before = before[strings.LastIndexAny(before, "0123456789")+1:]
	labeled := phoneLabelRe.MatchString(before)
	if !labeled && idLabelRe.MatchString(before) {
		return nil
	}
	if p, ok := f.text(main, ext, text[start:end], labeled); ok {
		return []hit[Phone]{{start, p}}
	}
	seps := innerSplitRe.FindAllStringIndex(main, -1)
	if len(seps) == 0 {
		return nil
	}
	var found []hit[Phone]
	from := 0
	for _, sep := range append(seps, []int{len(main), len(main)}) {
		part := main[from:sep[0]]
		if p, ok := f.text(part, "", part, labeled); ok {
			found = append(found, hit[Phone]{start + from, p})
		}
		from = sep[1]
	}
	return found
}

// standsAlone reports whether text[start:end] is not part of a word, a
// longer number, a price or a path.
func standsAlone(text string, start, end int) bool {
	before, _ := utf8.DecodeLastRuneInString(text[:start])
	if unicode.IsLetter(before) || unicode.IsDigit(before) || strings.ContainsRune("_$€£¥₹.,/=#@&%+-", before) {
		return false
	}
	after, size := utf8.DecodeRuneInString(text[end:])
	if unicode.IsLetter(after) || unicode.IsDigit(after) || strings.ContainsRune("%$€£¥₹°", after) {
		return false
	}
	if strings.ContainsRune(",.:", after) {
		next, _ := utf8.DecodeRuneInString(text[end+size:])
		return !unicode.IsDigit(next)
	}
	return true
}

// text turns a candidate found in text into a Phone, if it is one.
func (f *phoneFinder) text(main, ext, raw string, labeled bool) (Phone, bool) {
	key := "text:" + raw
	if labeled {
		key = "labeled:" + raw
	}
	return f.resolve(key, func() (Phone, bool) { return textPhone(main, ext, raw, f.region, labeled) })
}

func textPhone(main, ext, raw, region string, labeled bool) (Phone, bool) {
	digits := countDigits(main)
	if digits < 7 || digits > 17 {
		return Phone{}, false
	}
	number, intl := international(main)
	if !intl && region == "" {
		if !labeled || digits > 15 {
			return Phone{}, false
		}
		return Phone{Raw: raw, Extension: ext, Source: SourceText}, true
	}
	input := number
	if ext != "" {
		input += " ext. " + ext
	}
	n, err := phonenumbers.ParseAndKeepRawInput(input, region)
	if err != nil || !phonenumbers.VALID.Verify(n, number) {
		return Phone{}, false
	}
	if !intl && !labeled && !keepsGroups(n, main) {
		return Phone{}, false
	}
	return phoneOf(n, raw, SourceText), true
}

// international reports whether s is written with a country code ("+44"
// or "0044"), returning it with a "+".
func international(s string) (string, bool) {
	t := strings.TrimLeft(s, "(")
	switch {
	case strings.HasPrefix(t, "+"):
		return s, true
	case strings.HasPrefix(t, "00"):
		return "+" + t[2:], true
	}
	return s, false
}

// keepsGroups reports whether the digit groups of written are groups of
// the number's standard format, or runs of them, the first possibly led by
// a national prefix: for 20 7946 0958, "020 7946 0958" and "020 79460958"
// keep them, "0207 946 0958" and "02079460958" do not. This is
// libphonenumber's STRICT_GROUPING, which the Go port lacks.
func keepsGroups(n *phonenumbers.PhoneNumber, written string) bool {
	got := strings.FieldsFunc(written, func(r rune) bool { return r < '0' || r > '9' })
	if len(got) < 2 {
		return false
	}
	want := formatGroups(n)
	i := len(want)
	for j := len(got) - 1; j >= 0 && i > 0; j-- {
		g := got[j]
		for g != "" && i > 0 && strings.HasSuffix(g, want[i-1]) {
			g = g[:len(g)-len(want[i-1])]
			i--
		}
		if g != "" && i > 0 {
			return false
		}
	}
	return i == 0
}

// formatGroups returns the digit groups of the national number as its
// plan formats it: ["20", "7946", "0958"] for +44 20 7946 0958.
func formatGroups(n *phonenumbers.PhoneNumber) []string {
	s, _, _ := strings.Cut(phonenumbers.Format(n, phonenumbers.RFC3966), ";")
	groups := strings.Split(s, "-")
	if len(groups) < 2 {
		return []string{phonenumbers.GetNationalSignificantNumber(n)}
	}
	return groups[1:]
}

func phoneOf(n *phonenumbers.PhoneNumber, raw, source string) Phone {
	p := Phone{
		E164:      phonenumbers.Format(n, phonenumbers.E164),
		Raw:       raw,
		Extension: n.GetExtension(),
		Region:    phonenumbers.GetRegionCodeForNumber(n),
		Valid:     phonenumbers.IsValidNumber(n),
		Source:    source,
	}
	if p.Valid {
		p.Type = typeName(phonenumbers.GetNumberType(n))
	}
	return p
}

func typeName(t phonenumbers.PhoneNumberType) string {
	switch t {
	case phonenumbers.FIXED_LINE:
		return "fixed_line"
	case phonenumbers.MOBILE:
		return "mobile"
	case phonenumbers.FIXED_LINE_OR_MOBILE:
		return "fixed_line_or_mobile"
	case phonenumbers.TOLL_FREE:
		return "toll_free"
	case phonenumbers.PREMIUM_RATE:
		return "premium_rate"
	case phonenumbers.SHARED_COST:
		return "shared_cost"
	case phonenumbers.VOIP:
		return "voip"
	case phonenumbers.PERSONAL_NUMBER:
		return "personal_number"
	case phonenumbers.PAGER:
		return "pager"
	case phonenumbers.UAN:
		return "uan"
	case phonenumbers.VOICEMAIL:
		return "voicemail"
	}
	return ""
}

func countDigits(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if '0' <= s[i] && s[i] <= '9' {
			n++
		}
	}
	return n
}
