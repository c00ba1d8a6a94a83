package whois

import (
	"errors"
	"regexp"
	"strings"
	"time"

	whoisparser "github.com/likexian/whois-parser"

	"github.com/webinfra/webinfra/errs"
)

// dnssecLine finds the DNSSEC line of a whois answer, so that "unsigned"
// can be told from "not said" (the parser reports both as false).
var dnssecLine = regexp.MustCompile(`(?im)^[ \t]*dnssec[ \t]*:[ \t]*\S`)

// parseWhois reads whois text with likexian/whois-parser. A "no match"
// answer is errs.KindNotFound; text that parses to nothing a registration
// has (no registrar, dates, name servers or status) is errs.KindUpstream.
func parseWhois(domain, text string) (*Result, error) {
	info, err := parseText(text)
	switch {
	case errors.Is(err, whoisparser.ErrNotFoundDomain):
		return nil, errs.New(errs.KindNotFound, "%s is not registered (whois)", domain)
	case errors.Is(err, whoisparser.ErrReservedDomain):
		return nil, errs.New(errs.KindNotFound, "%s is not registered: the registry reserves it (whois)", domain)
	case errors.Is(err, whoisparser.ErrBlockedDomain):
		return nil, errs.New(errs.KindNotFound, "%s is not registered: the registry blocks it (whois)", domain)
	case errors.Is(err, whoisparser.ErrPremiumDomain):
		return nil, errs.New(errs.KindNotFound, "%s is not registered; the registry offers it at a premium price (whois)", domain)
	case errors.Is(err, whoisparser.ErrDomainLimitExceed):
		return nil, errs.New(errs.KindUpstream, "whois server refused the query: its query limit is exceeded")
	case err != nil:
		return nil, notWhoisData()
	}
	res := newResult(domain, SourceWhois)
	if d := info.Domain; d != nil {
		for _, s := range d.Status {
			if len(s) <= maxFieldLength {
				res.Status = appendUnique(res.Status, strings.TrimSpace(s), maxStatuses)
			}
		}
		for _, ns := range d.NameServers {
			res.NameServers = appendUnique(res.NameServers, nameServer(ns), maxNameServers)
		}
		res.Created, res.Updated, res.Expires = utcPtr(d.CreatedDateInTime), utcPtr(d.UpdatedDateInTime), utcPtr(d.ExpirationDateInTime)
		if d.DNSSec || dnssecLine.MatchString(text) {
			res.DNSSEC = &DNSSEC{Signed: d.DNSSec}
		}
	}
	if r := info.Registrar; r != nil {
		reg := Registrar{Name: cut(r.Name, maxFieldLength), IANAID: cut(r.ID, maxFieldLength),
			URL: cut(r.ReferralURL, maxFieldLength), AbuseEmail: cut(r.Email, maxFieldLength)}
		if reg != (Registrar{}) {
			res.Registrar = &reg
		}
	}
	if r := info.Registrant; r != nil {
		reg := Registrant{Organization: unredacted(cut(r.Organization, maxFieldLength)), Country: unredacted(cut(r.Country, maxFieldLength))}
		if reg != (Registrant{}) {
			res.Registrant = &reg
		}
	}
	if res.Registrar == nil && res.Created == "" && res.Expires == "" && len(res.NameServers) == 0 && len(res.Status) == 0 {
		return nil, notWhoisData()
	}
	res.setRaw(text)
	return res, nil
}

// parseText is whoisparser.Parse, with a panic on hostile text turned
// into an error.
func parseText(text string) (info whoisparser.WhoisInfo, err error) {
	defer func() {
		if recover() != nil {
			err = notWhoisData()
		}
	}()
	return whoisparser.Parse(text)
}

func utcPtr(t *time.Time) string {
	if t == nil {
		return ""
	}
	return utc(*t)
}
