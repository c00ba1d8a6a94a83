package geoip

import (
	"fmt"

	"github.com/webinfra/webinfra/errs"
)

// BulkInput names up to MaxBulk addresses to place.
type BulkInput struct {
	IPs []string `json:"ips" minItems:"1" maxItems:"100" example:"[\"8.8.8.8\",\"2606:4700::1111\"]" doc:"1 to 100 public IPv4 or IPv6 addresses. Each is answered on its own: a private, reserved or malformed one gets an error in its item and is not charged."`
}

// BulkItem is one address of a bulk lookup: its location, or why it was
// not looked up.
type BulkItem struct {
	IP       string    `json:"ip" doc:"The address as given."`
	Location *Location `json:"location,omitempty" doc:"What the databases hold for it (location.found is false when they hold nothing); absent when the address was not looked up."`
	Error    string    `json:"error,omitempty" example:"ips[1]: 10.0.0.1 is a private-use address (10.0.0.0/8, RFC 1918); not looked up" doc:"Why the address was not looked up."`
}

// BulkResult is every address's answer, in the order given.
type BulkResult struct {
	Results  []BulkItem `json:"results"`
	Answered int        `json:"answered" doc:"Addresses looked up (found or not): the credits charged."`
	Failed   int        `json:"failed" doc:"Addresses not looked up (invalid, private or reserved, or a database error); not charged."`
}

// Bulk looks up each address of in.IPs as Lookup does, answering per
// address: an invalid, private or reserved address, or one whose record
// the database cannot read, gets an error in its item and counts as
// failed; the others count as answered.
//
// Errors for the whole call: no address or more than MaxBulk is
// errs.Invalid("ips", ...); no database at all is errs.KindUnavailable.
func (db *DB) Bulk(in BulkInput) (*BulkResult, error) {
	if len(in.IPs) == 0 {
		return nil, errs.Invalid("ips", "give at least one IP address")
	}
	if len(in.IPs) > MaxBulk {
		return nil, errs.Invalid("ips", "%d IP addresses, at most %d per call", len(in.IPs), MaxBulk)
	}
	if db == nil {
		return nil, errNoDatabase()
	}
	db.mu.RLock()
	defer db.mu.RUnlock()
	if err := db.usable(); err != nil {
		return nil, err
	}
	out := &BulkResult{Results: make([]BulkItem, len(in.IPs))}
	for i, text := range in.IPs {
		item := BulkItem{IP: truncate(text, MaxIPLength)}
		loc, err := db.lookupText(fmt.Sprintf("ips[%d]", i), text)
		if err != nil {
			item.Error = err.Error()
			out.Failed++
		} else {
			item.Location = loc
			out.Answered++
		}
		out.Results[i] = item
	}
	return out, nil
}

// lookupText parses and looks up one address given in field; call with
// db.mu held.
func (db *DB) lookupText(field, text string) (*Location, error) {
	addr, err := parsePublicIP(field, text)
	if err != nil {
		return nil, err
	}
	return db.lookup(addr)
}
