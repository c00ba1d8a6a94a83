package whois

import (
	"encoding/json"
	"strings"
	"unicode/utf8"
)

// Caps on what one vCard may cost: properties read and characters kept.
const (
	maxVCardProperties = 256
	maxFieldLength     = 256
)

// vCard is a jCard (RFC 7095), the contact format of RDAP entities:
// ["vcard", [[name, params, type, value...], ...]]. No library here reads
// jCard and RDAP needs four of its properties, so it is read by hand.
type vCard []vCardProperty

type vCardProperty struct {
	name   string
	params map[string]json.RawMessage
	values []json.RawMessage
}

// parseVCard reads a vcardArray; anything malformed is skipped.
func parseVCard(raw json.RawMessage) vCard {
	var outer []json.RawMessage
	if len(raw) == 0 || json.Unmarshal(raw, &outer) != nil || len(outer) < 2 {
		return nil
	}
	var props []json.RawMessage
	if json.Unmarshal(outer[1], &props) != nil {
		return nil
	}
	var card vCard
	for _, p := range props[:min(len(props), maxVCardProperties)] {
		var parts []json.RawMessage
		if json.Unmarshal(p, &parts) != nil || len(parts) < 4 {
			continue
		}
		var prop vCardProperty
		if json.Unmarshal(parts[0], &prop.name) != nil {
			continue
		}
		prop.name = strings.ToLower(prop.name)
		_ = json.Unmarshal(parts[1], &prop.params)
		prop.values = parts[3:]
		card = append(card, prop)
	}
	return card
}

// text is the first non-empty value of the named property as text; a
// structured value (an "org" with units) is joined with spaces.
func (c vCard) text(name string) string {
	for _, p := range c {
		if p.name != name || len(p.values) == 0 {
			continue
		}
		if s := jsonText(p.values[0]); s != "" {
			return s
		}
	}
	return ""
}

// country is the country of the first "adr": the "cc" parameter (RFC
// 8605) or else the address's last component, the country name.
func (c vCard) country() string {
	for _, p := range c {
		if p.name != "adr" {
			continue
		}
		if cc := jsonText(p.params["cc"]); cc != "" {
			return strings.ToUpper(cc)
		}
		var parts []json.RawMessage
		if len(p.values) > 0 && json.Unmarshal(p.values[0], &parts) == nil && len(parts) == 7 {
			return jsonText(parts[6])
		}
	}
	return ""
}

// jsonText is a JSON string, or the non-empty strings of a JSON array
// joined with spaces, trimmed and cut at maxFieldLength.
func jsonText(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		var list []string
		if json.Unmarshal(raw, &list) != nil {
			return ""
		}
		s = strings.Join(strings.Fields(strings.Join(list, " ")), " ")
	}
	return cut(strings.TrimSpace(s), maxFieldLength)
}

// cut shortens s to at most n bytes on a rune boundary.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
