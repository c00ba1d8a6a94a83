package dnsintel

import (
	"context"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/miekg/dns"
)

// MX is where the domain's mail goes.
type MX struct {
	Records  []MXRecord `json:"records" doc:"MX records, by preference."`
	NullMX   bool       `json:"null_mx" doc:"A null MX (a single MX 0 \".\", RFC 7505): the domain accepts no mail."`
	Implicit bool       `json:"implicit" doc:"No MX records but an address record: senders deliver to the domain's own address (RFC 5321 §5.1)."`
	Note     string     `json:"note,omitempty" doc:"What the records mean for mail to this domain."`
	Error    string     `json:"error,omitempty" doc:"Why the lookup failed, when it did."`
}

// MXRecord is one mail exchanger.
type MXRecord struct {
	Preference int    `json:"preference" example:"10"`
	Host       string `json:"host" example:"mail.example.com"`
}

func (q *querier) mx(ctx context.Context, domain string, out *MX) []Finding {
	out.Records = []MXRecord{}
	msg, err := q.ask(ctx, domain, dns.TypeMX)
	if err != nil {
		out.Error = err.Error()
		return []Finding{lookupFailed("mx", "MX", err)}
	}
	for _, mx := range records[*dns.MX](msg) {
		out.Records = append(out.Records, MXRecord{Preference: int(mx.Preference), Host: host(mx.Mx)})
	}
	slices.SortStableFunc(out.Records, func(a, b MXRecord) int { return a.Preference - b.Preference })
	var found []Finding
	switch {
	case len(out.Records) == 1 && out.Records[0].Host == "":
		out.NullMX = true
		out.Note = "Null MX: the domain states that it accepts no mail (RFC 7505)."
	case slices.ContainsFunc(out.Records, func(r MXRecord) bool { return r.Host == "" }):
		found = append(found, Finding{Code: "mx_null_mixed", Severity: SeverityError, Section: "mx",
			Message: `A null MX (".") must be the only MX record (RFC 7505); with others beside it, senders get conflicting instructions.`})
	case len(out.Records) == 0:
		out.Implicit = q.hasAddress(ctx, domain)
		if out.Implicit {
			out.Note = "No MX records: senders fall back to the domain's own address (implicit MX)."
			found = append(found, Finding{Code: "mx_implicit", Severity: SeverityNotice, Section: "mx",
				Message: "No MX records: mail goes to the domain's A/AAAA address. Publish MX records, or a null MX (MX 0 .) if the domain sends and receives no mail."})
		} else {
			out.Note = "No MX and no address record: the domain cannot receive mail."
			found = append(found, Finding{Code: "mx_missing", Severity: SeverityNotice, Section: "mx",
				Message: "No MX records and no address: the domain cannot receive mail. If that is meant, say so with a null MX (MX 0 .)."})
		}
	}
	return found
}

// hasAddress reports whether name has an A or AAAA record.
func (q *querier) hasAddress(ctx context.Context, name string) bool {
	for _, t := range []uint16{dns.TypeA, dns.TypeAAAA} {
		if msg, err := q.ask(ctx, name, t); err == nil && (len(records[*dns.A](msg)) > 0 || len(records[*dns.AAAA](msg)) > 0) {
			return true
		}
	}
	return false
}

// DMARC is the domain's DMARC policy (RFC 7489).
type DMARC struct {
	Record          string   `json:"record,omitempty" example:"v=DMARC1; p=reject; rua=mailto:dmarc@example.com"`
	Name            string   `json:"name,omitempty" example:"_dmarc.example.com" doc:"Where the record was found: the domain's, or its organizational domain's (RFC 7489 §6.6.3)."`
	Policy          string   `json:"policy,omitempty" enum:"none,quarantine,reject" doc:"p: what receivers do with mail that fails DMARC."`
	SubdomainPolicy string   `json:"subdomain_policy,omitempty" doc:"sp: the policy for subdomains (default: p)."`
	Percent         int      `json:"percent" doc:"pct: the share of failing mail the policy applies to (default 100)."`
	RUA             []string `json:"rua" doc:"Where aggregate reports go."`
	RUF             []string `json:"ruf" doc:"Where failure reports go."`
	ADKIM           string   `json:"adkim,omitempty" enum:"r,s" doc:"DKIM alignment: r (relaxed, default) or s (strict)."`
	ASPF            string   `json:"aspf,omitempty" enum:"r,s" doc:"SPF alignment: r (relaxed, default) or s (strict)."`
	Error           string   `json:"error,omitempty"`
}

func (q *querier) dmarc(ctx context.Context, domain, org string, out *DMARC) []Finding {
	out.RUA, out.RUF = []string{}, []string{}
	names := []string{"_dmarc." + domain}
	if org != domain {
		names = append(names, "_dmarc."+org)
	}
	var recs []string
	for _, name := range names {
		msg, err := q.ask(ctx, name, dns.TypeTXT)
		if err != nil {
			out.Error = err.Error()
			return []Finding{lookupFailed("dmarc", "DMARC", err)}
		}
		if recs = withPrefix(txts(msg), "v=DMARC1"); len(recs) > 0 {
			out.Name = name
			break
		}
	}
	switch {
	case len(recs) == 0:
		return []Finding{{Code: "dmarc_missing", Severity: SeverityWarning, Section: "dmarc",
			Message: "No DMARC record (_dmarc TXT): receivers have no policy for mail that fails SPF and DKIM, and large mailbox providers expect one from bulk senders. Start with v=DMARC1; p=none; rua=mailto:..."}}
	case len(recs) > 1:
		return []Finding{{Code: "dmarc_multiple", Severity: SeverityError, Section: "dmarc",
			Message: fmt.Sprintf("%d DMARC records at %s: receivers ignore them all (RFC 7489 §6.6.3). Keep one.", len(recs), out.Name)}}
	}
	out.Record = recs[0]
	return parseDMARC(out)
}

func parseDMARC(out *DMARC) []Finding {
	tags := tagList(out.Record)
	out.Policy, out.SubdomainPolicy = strings.ToLower(tags["p"]), strings.ToLower(tags["sp"])
	out.ADKIM, out.ASPF = strings.ToLower(tags["adkim"]), strings.ToLower(tags["aspf"])
	out.RUA, out.RUF = uriList(tags["rua"]), uriList(tags["ruf"])
	out.Percent = 100
	if pct, ok := tags["pct"]; ok {
		if n, err := strconv.Atoi(pct); err == nil && n >= 0 && n <= 100 {
			out.Percent = n
		}
	}
	var found []Finding
	add := func(code, severity, format string, args ...any) {
		found = append(found, Finding{Code: code, Severity: severity, Section: "dmarc", Message: fmt.Sprintf(format, args...)})
	}
	switch out.Policy {
	case "none":
		add("dmarc_policy_none", SeverityWarning, "p=none only monitors: mail failing DMARC is still delivered. Move to quarantine, then reject, once the reports look clean.")
	case "quarantine", "reject":
	default:
		add("dmarc_policy_invalid", SeverityError, "The record has no valid p= tag (none, quarantine or reject), so receivers ignore it.")
	}
	if len(out.RUA) == 0 {
		add("dmarc_no_reports", SeverityNotice, "No rua= address: you get no aggregate reports, so you cannot see who sends mail as this domain.")
	}
	if out.Percent < 100 && (out.Policy == "quarantine" || out.Policy == "reject") {
		add("dmarc_partial", SeverityNotice, "pct=%d: the policy applies to only %d%% of failing mail.", out.Percent, out.Percent)
	}
	return found
}

// tagList reads "k=v; k=v" tag lists (DMARC, DKIM), keys lower case.
func tagList(record string) map[string]string {
	tags := map[string]string{}
	for part := range strings.SplitSeq(record, ";") {
		k, v, ok := strings.Cut(part, "=")
		if k = strings.ToLower(strings.TrimSpace(k)); ok && k != "" {
			if _, dup := tags[k]; !dup {
				tags[k] = strings.TrimSpace(v)
			}
		}
	}
	return tags
}

func uriList(s string) []string {
	out := []string{}
	for u := range strings.SplitSeq(s, ",") {
		if u = strings.TrimSpace(u); u != "" && len(out) < 10 {
			out = append(out, u)
		}
	}
	return out
}

// withPrefix keeps the records that start with version ("v=spf1",
// "v=DMARC1"), case-insensitively, followed by the end, a space or ";".
func withPrefix(recs []string, version string) []string {
	var out []string
	for _, r := range recs {
		r = strings.TrimSpace(r)
		if len(r) >= len(version) && strings.EqualFold(r[:len(version)], version) &&
			(len(r) == len(version) || r[len(version)] == ' ' || r[len(version)] == ';') {
			out = append(out, r)
		}
	}
	return out
}

// CommonSelectors are the DKIM selectors probed on every domain: those of
// the big mail providers and senders (Google, Microsoft 365, Mailchimp,
// Mandrill, SendGrid, Zoho, Proton, Fastmail, ...) and generic names.
var CommonSelectors = []string{
	"google", "selector1", "selector2", "default", "k1", "k2", "s1", "s2", "dkim", "mail",
	"smtp", "mandrill", "mxvault", "everlytic", "zoho", "protonmail", "fm1", "sig1", "key1", "mailjet",
}

// DKIM is what the probed selectors hold.
type DKIM struct {
	Probed []string  `json:"probed" doc:"Selectors probed (the common ones, then those asked for)."`
	Keys   []DKIMKey `json:"keys" doc:"Keys found."`
}

// DKIMKey is one DKIM key record.
type DKIMKey struct {
	Selector string `json:"selector" example:"google"`
	KeyType  string `json:"key_type" example:"rsa" doc:"k: rsa or ed25519."`
	Bits     int    `json:"bits" example:"2048" doc:"Key size in bits; 0 for a revoked key."`
	Approx   bool   `json:"approximate,omitempty" doc:"The key did not parse, so bits is estimated from its length."`
	Revoked  bool   `json:"revoked,omitempty" doc:"An empty p=: the key is revoked."`
	Testing  bool   `json:"testing,omitempty" doc:"t=y: the domain is testing DKIM; receivers may treat signatures as unsigned."`
	Record   string `json:"record" doc:"The TXT record, cut to 300 bytes."`
}

func (q *querier) dkim(ctx context.Context, domain string, selectors []string, out *DKIM) []Finding {
	out.Probed, out.Keys = selectors, []DKIMKey{}
	keys := make([]*DKIMKey, len(selectors))
	failures := make([]error, len(selectors))
	var wg sync.WaitGroup
	for i, sel := range selectors {
		wg.Go(func() {
			msg, err := q.ask(ctx, sel+"._domainkey."+domain, dns.TypeTXT)
			if failures[i] = err; err == nil {
				keys[i] = dkimKey(sel, txts(msg))
			}
		})
	}
	wg.Wait()
	var found []Finding
	add := func(code, severity, format string, args ...any) {
		found = append(found, Finding{Code: code, Severity: severity, Section: "dkim", Message: fmt.Sprintf(format, args...)})
	}
	for i, k := range keys {
		if failures[i] != nil && !slices.ContainsFunc(found, func(f Finding) bool { return f.Code == "lookup_failed" }) {
			found = append(found, lookupFailed("dkim", "DKIM selector "+selectors[i], failures[i]))
		}
		if k == nil {
			continue
		}
		out.Keys = append(out.Keys, *k)
		switch {
		case k.Revoked:
			add("dkim_key_revoked", SeverityNotice, "Selector %s holds a revoked key (empty p=).", k.Selector)
		case k.KeyType == "rsa" && k.Bits < 1024:
			add("dkim_key_weak", SeverityError, "Selector %s has a %d-bit RSA key: receivers reject keys under 1024 bits (RFC 8301). Use 2048 bits.", k.Selector, k.Bits)
		case k.KeyType == "rsa" && k.Bits < 2048:
			add("dkim_key_short", SeverityNotice, "Selector %s has a %d-bit RSA key; 2048 bits is the recommended size.", k.Selector, k.Bits)
		}
		if k.Testing {
			add("dkim_testing", SeverityNotice, "Selector %s is in test mode (t=y).", k.Selector)
		}
	}
	if len(out.Keys) == 0 {
		add("dkim_not_found", SeverityNotice, "No DKIM key at the %d selectors probed. Selectors can be any name, so this does not prove there is none; give yours in dkim_selectors.", len(selectors))
	}
	return found
}

// dkimKey reads the first DKIM key record among recs, or nil.
func dkimKey(selector string, recs []string) *DKIMKey {
	for _, rec := range recs {
		tags := tagList(rec)
		p, ok := tags["p"]
		if !ok || (tags["v"] != "" && tags["v"] != "DKIM1") {
			continue
		}
		k := &DKIMKey{Selector: selector, KeyType: strings.ToLower(tags["k"]), Record: clip(rec, 300)}
		if k.KeyType == "" {
			k.KeyType = "rsa"
		}
		k.Testing = slices.Contains(strings.Split(strings.ToLower(tags["t"]), ":"), "y")
		p = strings.Join(strings.Fields(p), "")
		if p == "" {
			k.Revoked = true
			return k
		}
		k.Bits, k.Approx = keyBits(k.KeyType, p)
		return k
	}
	return nil
}

// keyBits is the size of a DKIM public key: the RSA modulus of a
// SubjectPublicKeyInfo (or, as some publish, a bare RSAPublicKey); an
// Ed25519 key is 256 bits. A key that does not parse is estimated from
// its length.
func keyBits(keyType, p string) (int, bool) {
	der, err := base64.StdEncoding.DecodeString(p)
	if err != nil {
		return len(p) * 6, true
	}
	if keyType == "ed25519" {
		return len(der) * 8, len(der) != 32
	}
	if pub, err := x509.ParsePKIXPublicKey(der); err == nil {
		if rsaKey, ok := pub.(*rsa.PublicKey); ok {
			return rsaKey.N.BitLen(), false
		}
	}
	if rsaKey, err := x509.ParsePKCS1PublicKey(der); err == nil {
		return rsaKey.N.BitLen(), false
	}
	// SubjectPublicKeyInfo around a modulus adds about 38 bytes.
	return max(0, len(der)-38) * 8, true
}

// clip cuts s to at most n bytes, on a character boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
