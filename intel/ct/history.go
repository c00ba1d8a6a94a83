package ct

import (
	"context"
	"math"
	"time"

	"github.com/webinfra/webinfra/errs"
)

// History limits.
const (
	DefaultHistoryLimit = 100
	MaxHistoryLimit     = 1000
)

// HistoryInput asks for the certificates issued for a domain.
type HistoryInput struct {
	Domain            string `json:"domain" minLength:"1" maxLength:"253" example:"example.com" doc:"The domain name (IDN allowed), without scheme or wildcard."`
	IncludeSubdomains bool   `json:"include_subdomains,omitempty" doc:"Also certificates for names under the domain (crt.sh's %.domain); without it, certificates naming the domain itself."`
	ExcludeExpired    bool   `json:"exclude_expired,omitempty" doc:"Leave out certificates whose validity has ended."`
	Limit             int    `json:"limit,omitempty" minimum:"0" maximum:"1000" doc:"Most certificates returned, newest first; 0 means 100."`
}

// History is the certificates logged for a domain, newest first.
type History struct {
	Domain       string        `json:"domain" doc:"The domain searched, in lower-case ASCII (punycode for IDNs)."`
	Total        int           `json:"total" doc:"Distinct certificates found (a precertificate and its certificate count once)."`
	Certificates []Certificate `json:"certificates" doc:"The newest certificates by not_before, at most limit."`
	Truncated    bool          `json:"truncated" doc:"More certificates were found than limit."`
	Incomplete   bool          `json:"incomplete" doc:"The log's answer was larger than this server reads (20,000 rows or 64 MiB by default): total counts the part read, which may not hold the newest."`
}

// Certificate is one certificate from the transparency logs.
type Certificate struct {
	Serial       string    `json:"serial" example:"04ab5c29a0e8f1" doc:"The serial number, lower-case hex."`
	Issuer       string    `json:"issuer" example:"C=US, O=Let's Encrypt, CN=R3" doc:"The issuer's distinguished name."`
	IssuerCAID   int64     `json:"issuer_ca_id,omitempty" doc:"crt.sh's id of the issuing CA."`
	CommonName   string    `json:"common_name,omitempty" doc:"The subject common name."`
	Names        []string  `json:"names" doc:"The names the certificate covers (SANs and common name), lower case, sorted, unique; wildcards as *.name."`
	NotBefore    time.Time `json:"not_before" doc:"Start of validity (UTC)."`
	NotAfter     time.Time `json:"not_after" doc:"End of validity (UTC)."`
	Expired      bool      `json:"expired" doc:"not_after has passed."`
	ValidityDays int       `json:"validity_days" doc:"Length of validity in days, rounded."`
	LoggedAt     time.Time `json:"logged_at,omitzero" doc:"When the log first recorded it (the earliest entry timestamp)."`
	CrtshIDs     []int64   `json:"crtsh_ids" doc:"crt.sh's ids of its entries (the precertificate's and the certificate's); https://crt.sh/?id=<id> shows one."`
}

// History returns the certificates logged for in.Domain (and its
// subdomains when asked), deduplicated by issuer and serial, newest first
// by not_before. Only certificates with a name at or under the domain are
// kept, whatever the log answered.
//
// Errors: a bad domain or limit is errs.KindInvalid ("domain", "limit");
// a log that fails or answers garbage is errs.KindUpstream, one that does
// not answer in time errs.KindTimeout, one the server may not reach
// errs.KindUnavailable, each naming the "certificate transparency log".
// An empty list is an answer, not an error.
func (c *Client) History(ctx context.Context, in HistoryInput) (*History, error) {
	domain, err := normalizeDomain(in.Domain)
	if err != nil {
		return nil, err
	}
	limit, err := checkLimit(in.Limit, DefaultHistoryLimit, MaxHistoryLimit)
	if err != nil {
		return nil, err
	}
	ans, err := c.query(ctx, domain, in.IncludeSubdomains, in.ExcludeExpired)
	if err != nil {
		return nil, err
	}
	certs, err := c.usable(ans, domain, in.ExcludeExpired)
	if err != nil {
		return nil, err
	}
	h := &History{Domain: domain, Total: len(certs), Certificates: []Certificate{}, Incomplete: ans.incomplete}
	if len(certs) > limit {
		certs, h.Truncated = certs[:limit], true
	}
	now := c.now()
	for _, k := range certs {
		h.Certificates = append(h.Certificates, k.report(now))
	}
	return h, nil
}

// usable merges the rows and keeps the certificates relevant to domain
// (and unexpired ones when asked, in case the log ignored the filter). A
// non-empty answer none of whose rows could be read is garbage.
func (c *Client) usable(ans *answer, domain string, excludeExpired bool) ([]*cert, error) {
	certs, skipped := collect(ans.rows)
	if skipped > 0 && skipped == len(ans.rows) {
		return nil, errs.New(errs.KindUpstream, "%s answered %d rows without readable validity dates", source, skipped)
	}
	now := c.now()
	kept := certs[:0]
	for _, k := range certs {
		if k.relevant(domain) && !(excludeExpired && k.notAfter.Before(now)) {
			kept = append(kept, k)
		}
	}
	return kept, nil
}

func (c *cert) report(now time.Time) Certificate {
	ids := c.ids
	if ids == nil {
		ids = []int64{}
	}
	return Certificate{
		Serial: c.serial, Issuer: c.issuer, IssuerCAID: max(c.issuerCAID, 0), CommonName: c.commonName,
		Names: c.sortedNames(), NotBefore: c.notBefore, NotAfter: c.notAfter, Expired: c.notAfter.Before(now),
		ValidityDays: int(math.Round(c.notAfter.Sub(c.notBefore).Hours() / 24)), LoggedAt: c.loggedAt, CrtshIDs: ids,
	}
}

func checkLimit(limit, def, maxLimit int) (int, error) {
	switch {
	case limit == 0:
		return def, nil
	case limit < 0 || limit > maxLimit:
		return 0, errs.Invalid("limit", "must be between 1 and %d, got %d", maxLimit, limit)
	}
	return limit, nil
}
