package geoip_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/intel/geoip"
)

func TestBulkAnswersEachAddressAndCountsTheAnswered(t *testing.T) {
	t.Parallel()
	db := openFixtures(t)
	got, err := db.Bulk(geoip.BulkInput{IPs: []string{
		"8.8.8.8", "10.0.0.1", "9.9.9.9", "not-an-ip", "2606:4700::1111", "::1", "8.8.8.8",
	}})
	if err != nil {
		t.Fatalf("Bulk: %v", err)
	}
	if got.Answered != 4 || got.Failed != 3 || len(got.Results) != 7 {
		t.Fatalf("answered %d, failed %d, %d results; want 4, 3, 7", got.Answered, got.Failed, len(got.Results))
	}
	want := []struct {
		ip, country, err string
		found            bool
	}{
		{"8.8.8.8", "US", "", true},
		{"10.0.0.1", "", "ips[1]: 10.0.0.1 is a private-use address (10.0.0.0/8, RFC 1918); not looked up", false},
		{"9.9.9.9", "", "", false}, // looked up, nothing found: answered
		{"not-an-ip", "", `ips[3]: not an IP address: "not-an-ip"`, false},
		{"2606:4700::1111", "US", "", true},
		{"::1", "", "ips[5]: ::1 is the loopback address (::1/128, RFC 4291); not looked up", false},
		{"8.8.8.8", "US", "", true}, // a repeat is answered (and charged) again
	}
	for i, w := range want {
		item := got.Results[i]
		if item.IP != w.ip || item.Error != w.err {
			t.Errorf("results[%d] = %q, error %q; want %q, %q", i, item.IP, item.Error, w.ip, w.err)
		}
		if (item.Location != nil) != (w.err == "") {
			t.Errorf("results[%d]: location %v with error %q", i, item.Location, item.Error)
		}
		if item.Location != nil && (item.Location.Found != w.found || item.Location.CountryCode != w.country) {
			t.Errorf("results[%d]: found %v, country %q; want %v, %q", i, item.Location.Found, item.Location.CountryCode, w.found, w.country)
		}
	}
}

func TestBulkBounds(t *testing.T) {
	t.Parallel()
	db := openFixtures(t)
	hundred := make([]string, geoip.MaxBulk)
	for i := range hundred {
		hundred[i] = fmt.Sprintf("8.8.8.%d", i)
	}
	got, err := db.Bulk(geoip.BulkInput{IPs: hundred})
	if err != nil || got.Answered != geoip.MaxBulk {
		t.Fatalf("100 IPs: %v, %+v", err, got)
	}
	long := strings.Repeat("a", 10_000)
	got, err = db.Bulk(geoip.BulkInput{IPs: []string{long}})
	if err != nil || got.Failed != 1 || len(got.Results[0].IP) > geoip.MaxIPLength+3 || len(got.Results[0].Error) > 200 {
		t.Fatalf("a 10,000-character IP must fail alone, echoed short: %v, %+v", err, got)
	}
	for _, ips := range [][]string{nil, {}, append(hundred, "1.1.1.1")} {
		_, err := db.Bulk(geoip.BulkInput{IPs: ips})
		if !errs.Is(err, errs.KindInvalid) || errs.FieldOf(err) != "ips" {
			t.Errorf("%d IPs: err = %v, want invalid ips", len(ips), err)
		}
	}
}
