package ct

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Bounds on what one certificate may carry into a result.
const (
	MaxNamesPerCertificate = 1000 // SANs kept per certificate (CAs allow a few hundred)
	maxIDsPerCertificate   = 16   // crt.sh ids kept per certificate (normally 1 or 2)
	maxNameBytes           = 253
)

// row is one row of crt.sh's JSON answer: a logged certificate or
// precertificate. Confirmed against public crt.sh clients: entry_timestamp
// may be null and issuer_ca_id may be -1.
type row struct {
	IssuerCAID     int64  `json:"issuer_ca_id"`
	IssuerName     string `json:"issuer_name"`
	CommonName     string `json:"common_name"`
	NameValue      string `json:"name_value"`
	ID             int64  `json:"id"`
	EntryTimestamp string `json:"entry_timestamp"`
	NotBefore      string `json:"not_before"`
	NotAfter       string `json:"not_after"`
	SerialNumber   string `json:"serial_number"`
}

// cert is one certificate: the rows with the same issuer and serial
// merged.
type cert struct {
	key        string
	serial     string
	issuer     string
	issuerCAID int64
	commonName string
	names      map[string]bool
	notBefore  time.Time
	notAfter   time.Time
	loggedAt   time.Time
	ids        []int64
}

// parseTime reads crt.sh's timestamps: UTC without a zone, with or
// without fractional seconds; RFC 3339 is accepted from other sources.
func parseTime(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	if t, err := time.Parse("2006-01-02T15:04:05", s); err == nil {
		return t.UTC(), true
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t.UTC(), true
	}
	return time.Time{}, false
}

// dedupKey is issuer and serial: crt.sh logs a precertificate and its
// certificate as two rows with the same issuer and serial (and different
// SHA-256 fingerprints, the precertificate carrying the poison extension),
// so the pair is one certificate. The issuer is crt.sh's CA id when it has
// one, else the issuer name; a row without a serial stays on its own.
func dedupKey(r row) string {
	issuer := "name:" + strings.ToLower(strings.TrimSpace(r.IssuerName))
	if r.IssuerCAID > 0 {
		issuer = "ca:" + strconv.FormatInt(r.IssuerCAID, 10)
	}
	serial := normalizeSerial(r.SerialNumber)
	if serial == "" {
		return "id:" + strconv.FormatInt(r.ID, 10)
	}
	return issuer + "|" + serial
}

// normalizeSerial is a hex serial in lower case without separators or
// leading zeros, so "00:AB:01" and "ab01" are one serial.
func normalizeSerial(s string) string {
	s = strings.ToLower(strings.NewReplacer(":", "", " ", "").Replace(strings.TrimSpace(s)))
	return strings.TrimLeft(s, "0")
}

// cleanName is a name from a certificate in lower case without a final
// dot, or "" when it cannot be a DNS name, IP address or e-mail address.
func cleanName(s string) string {
	s = strings.TrimSuffix(strings.ToLower(strings.TrimSpace(s)), ".")
	if s == "" || len(s) > maxNameBytes || strings.ContainsFunc(s, func(r rune) bool { return r <= ' ' || r == 0x7f }) {
		return ""
	}
	return s
}

// collect merges rows into certificates, newest first (by not_before,
// then by the time logged). Rows whose validity cannot be read are
// skipped and counted.
func collect(rows []row) (certs []*cert, skipped int) {
	byKey := map[string]*cert{}
	for _, r := range rows {
		notBefore, ok1 := parseTime(r.NotBefore)
		notAfter, ok2 := parseTime(r.NotAfter)
		if !ok1 || !ok2 {
			skipped++
			continue
		}
		key := dedupKey(r)
		c := byKey[key]
		if c == nil {
			c = &cert{
				key: key, serial: strings.ToLower(strings.TrimSpace(r.SerialNumber)), issuer: strings.TrimSpace(r.IssuerName),
				issuerCAID: r.IssuerCAID, commonName: cleanName(r.CommonName),
				names: map[string]bool{}, notBefore: notBefore, notAfter: notAfter,
			}
			byKey[key] = c
			certs = append(certs, c)
		}
		c.add(r)
	}
	slices.SortStableFunc(certs, func(a, b *cert) int {
		return cmp.Or(b.notBefore.Compare(a.notBefore), b.loggedAt.Compare(a.loggedAt), cmp.Compare(a.key, b.key))
	})
	return certs, skipped
}

// add merges one row's names, id and log time into c.
func (c *cert) add(r row) {
	for _, n := range append(strings.Split(r.NameValue, "\n"), r.CommonName) {
		if len(c.names) == MaxNamesPerCertificate {
			break
		}
		if n = cleanName(n); n != "" {
			c.names[n] = true
		}
	}
	if r.ID > 0 && len(c.ids) < maxIDsPerCertificate && !slices.Contains(c.ids, r.ID) {
		c.ids = append(c.ids, r.ID)
	}
	if t, ok := parseTime(r.EntryTimestamp); ok && (c.loggedAt.IsZero() || t.Before(c.loggedAt)) {
		c.loggedAt = t
	}
}

// hostname strips a wildcard label and the local part of an e-mail
// address, and reports whether a wildcard was stripped.
func hostname(name string) (host string, wildcard bool) {
	if _, domain, ok := strings.Cut(name, "@"); ok {
		return domain, false
	}
	if rest, ok := strings.CutPrefix(name, "*."); ok {
		return rest, true
	}
	return name, false
}

// relevant reports whether one of c's names is domain or under it.
func (c *cert) relevant(domain string) bool {
	for n := range c.names {
		if h, _ := hostname(n); underDomain(h, domain) {
			return true
		}
	}
	return false
}

// sortedNames is c's names, sorted.
func (c *cert) sortedNames() []string {
	names := make([]string, 0, len(c.names))
	for n := range c.names {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}
