package whois

import (
	"encoding/json"
	"errors"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// rdapDomain is the part of an RFC 9083 domain object read here.
type rdapDomain struct {
	ObjectClassName string       `json:"objectClassName"`
	LDHName         string       `json:"ldhName"`
	Status          []string     `json:"status"`
	Events          []rdapEvent  `json:"events"`
	Entities        []rdapEntity `json:"entities"`
	Nameservers     []struct {
		LDHName string `json:"ldhName"`
	} `json:"nameservers"`
	SecureDNS *struct {
		DelegationSigned *bool `json:"delegationSigned"`
	} `json:"secureDNS"`
	Links []rdapLink `json:"links"`
}

type rdapEvent struct {
	Action string `json:"eventAction"`
	Date   string `json:"eventDate"`
}

type rdapLink struct {
	Rel  string `json:"rel"`
	Href string `json:"href"`
	Type string `json:"type"`
}

type rdapEntity struct {
	Roles     []string `json:"roles"`
	PublicIDs []struct {
		Type       string `json:"type"`
		Identifier string `json:"identifier"`
	} `json:"publicIds"`
	VCard    json.RawMessage `json:"vcardArray"`
	Entities []rdapEntity    `json:"entities"`
	Links    []rdapLink      `json:"links"`
}

// decodeDomain parses an RDAP answer and checks it is the domain object
// of domain: the right objectClassName and, when given, the right name.
func decodeDomain(body []byte, domain string) (*rdapDomain, error) {
	var d rdapDomain
	if err := json.Unmarshal(body, &d); err != nil {
		return nil, err
	}
	if !strings.EqualFold(d.ObjectClassName, "domain") {
		return nil, errors.New("not a domain object")
	}
	if d.LDHName != "" && !strings.EqualFold(strings.TrimSuffix(d.LDHName, "."), domain) {
		return nil, errors.New("the object of another domain")
	}
	return &d, nil
}

// fill writes what d says into res.
func (d *rdapDomain) fill(res *Result) {
	for _, s := range d.Status {
		if len(s) <= maxFieldLength {
			res.Status = appendUnique(res.Status, eppStatus(s), maxStatuses)
		}
	}
	for _, e := range d.Events {
		when, err := time.Parse(time.RFC3339, strings.TrimSpace(e.Date))
		if err != nil {
			continue
		}
		switch strings.ToLower(e.Action) {
		case "registration":
			res.Created = utc(when)
		case "last changed":
			res.Updated = utc(when)
		case "expiration":
			res.Expires = utc(when)
		}
	}
	for _, ns := range d.Nameservers {
		res.NameServers = appendUnique(res.NameServers, nameServer(ns.LDHName), maxNameServers)
	}
	if d.SecureDNS != nil && d.SecureDNS.DelegationSigned != nil {
		res.DNSSEC = &DNSSEC{Signed: *d.SecureDNS.DelegationSigned}
	}
	for i := range d.Entities {
		e := &d.Entities[i]
		switch {
		case slices.Contains(e.Roles, "registrar") && res.Registrar == nil:
			res.Registrar = e.registrar()
		case slices.Contains(e.Roles, "registrant") && res.Registrant == nil:
			res.Registrant = e.registrant()
		}
	}
}

// relatedLink is the registrar's RDAP URL for the same domain, from the
// first rel="related" link of RDAP type; "" when there is none.
func (d *rdapDomain) relatedLink(self string) string {
	for _, l := range d.Links {
		if !strings.EqualFold(l.Rel, "related") || !strings.HasPrefix(strings.ToLower(l.Type), "application/rdap+json") {
			continue
		}
		u, err := url.Parse(l.Href)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.User != nil || l.Href == self {
			continue
		}
		return u.String()
	}
	return ""
}

// registrar reads a registrar entity: its vCard name and URL, its IANA ID
// (publicIds), and the e-mail of its abuse contact (a nested entity).
func (e *rdapEntity) registrar() *Registrar {
	card := parseVCard(e.VCard)
	r := &Registrar{Name: card.text("fn"), URL: card.text("url")}
	for _, id := range e.PublicIDs {
		if strings.EqualFold(id.Type, "IANA Registrar ID") {
			r.IANAID = strings.TrimSpace(id.Identifier)
		}
	}
	for _, nested := range e.Entities {
		if slices.Contains(nested.Roles, "abuse") {
			r.AbuseEmail = strings.TrimPrefix(parseVCard(nested.VCard).text("email"), "mailto:")
			break
		}
	}
	if *r == (Registrar{}) {
		return nil
	}
	return r
}

// registrant reads a registrant entity's organization and country,
// leaving out what is redacted.
func (e *rdapEntity) registrant() *Registrant {
	card := parseVCard(e.VCard)
	r := &Registrant{Organization: unredacted(card.text("org")), Country: unredacted(card.country())}
	if *r == (Registrant{}) {
		return nil
	}
	return r
}

// fillBlanks copies into r what r lacks and other has.
func (r *Result) fillBlanks(other *Result) {
	switch {
	case r.Registrar == nil:
		r.Registrar = other.Registrar
	case other.Registrar != nil:
		reg, more := r.Registrar, other.Registrar
		reg.Name = firstOf(reg.Name, more.Name)
		reg.IANAID = firstOf(reg.IANAID, more.IANAID)
		reg.URL = firstOf(reg.URL, more.URL)
		reg.AbuseEmail = firstOf(reg.AbuseEmail, more.AbuseEmail)
	}
	r.Created = firstOf(r.Created, other.Created)
	r.Updated = firstOf(r.Updated, other.Updated)
	r.Expires = firstOf(r.Expires, other.Expires)
	if len(r.Status) == 0 {
		r.Status = other.Status
	}
	if len(r.NameServers) == 0 {
		r.NameServers = other.NameServers
	}
	if r.DNSSEC == nil {
		r.DNSSEC = other.DNSSEC
	}
	if r.Registrant == nil {
		r.Registrant = other.Registrant
	}
}

func firstOf(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// eppStatus turns an RDAP status ("client transfer prohibited", RFC 8056)
// into its EPP code ("clientTransferProhibited"); RDAP's "active" is
// EPP's "ok". An EPP code given as such is kept.
func eppStatus(s string) string {
	words := strings.Fields(strings.TrimSpace(s))
	if len(words) == 0 {
		return ""
	}
	if len(words) == 1 {
		if strings.EqualFold(words[0], "active") {
			return "ok"
		}
		return words[0]
	}
	var b strings.Builder
	for i, w := range words {
		w = strings.ToLower(w)
		if i > 0 {
			first, size := utf8.DecodeRuneInString(w)
			w = string(unicode.ToUpper(first)) + w[size:]
		}
		b.WriteString(w)
	}
	return b.String()
}

// nameServer is a host name in lower case without its final dot; "" when
// it is too long to be one.
func nameServer(s string) string {
	s = strings.TrimSuffix(strings.ToLower(strings.TrimSpace(s)), ".")
	if len(s) > maxDomainLength {
		return ""
	}
	return s
}

// appendUnique appends v unless it is empty, already there, or list holds
// limit values.
func appendUnique(list []string, v string, limit int) []string {
	if v == "" || len(list) >= limit || slices.Contains(list, v) {
		return list
	}
	return append(list, v)
}

// redactionMarks are what registries write in place of withheld data.
var redactionMarks = []string{"redacted", "privacy", "not disclosed", "withheld",
	"data protected", "non-public", "masked", "gdpr"}

// unredacted is s unless it is a redaction placeholder.
func unredacted(s string) string {
	lower := strings.ToLower(s)
	for _, mark := range redactionMarks {
		if strings.Contains(lower, mark) {
			return ""
		}
	}
	return s
}
