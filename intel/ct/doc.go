// Package ct reads certificate transparency through a crt.sh-compatible
// JSON search (https://crt.sh/, or the --ct-url an operator sets). It backs
// /v1/intel/cert-transparency-history (Client.History) and
// /v1/intel/subdomain-enumerate (Client.Subdomains).
//
// A query is GET <BaseURL>?q=<domain>&output=json&deduplicate=Y, with
// q=%.<domain> for subdomains and exclude=expired when asked. The answer
// is a JSON array of rows (issuer_ca_id, issuer_name, common_name,
// name_value with one name per line, id, entry_timestamp, not_before,
// not_after, serial_number), read as a stream under two caps:
// Options.MaxEntries rows and Options.MaxBodyBytes bytes. Past either, the
// rows read so far are used and the result says it is incomplete.
//
// # Deduplication
//
// crt.sh logs a precertificate and its certificate as two rows; they share
// issuer and serial number but not their SHA-256 fingerprint (the
// precertificate carries the CT poison extension), and crt.sh's JSON gives
// no fingerprint anyway. So certificates are deduplicated by issuer
// (crt.sh's CA id, else the issuer name) and serial (hex, case, colons and
// leading zeros ignored); the rows of one certificate merge their names
// and crt.sh ids, and the earliest entry timestamp is when it was logged.
// deduplicate=Y asks crt.sh to do the same; sources that ignore it are
// deduplicated here all the same. Only certificates with a name at or
// under the domain are kept, whatever the source answered.
//
// # Errors
//
// A bad domain or limit is errs.KindInvalid naming the field. The source
// failing (an HTTP error, an HTML page, invalid JSON, rows without dates,
// a refused or reset connection) is errs.KindUpstream; no answer within
// Options.Timeout is errs.KindTimeout; a BaseURL the server's SSRF guard
// refuses is errs.KindUnavailable. Every such message names the
// "certificate transparency log" and never its address, which is the
// operator's; the original error stays in the chain for logs. An empty
// array is an empty answer, not an error.
//
// Package cttest runs a crt.sh-compatible peer on loopback for tests.
package ct
