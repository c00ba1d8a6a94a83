package main

import (
	"testing"

	"github.com/webinfra/webinfra/internal/dnstest"
	"github.com/webinfra/webinfra/internal/mmdbtest"
)

func TestIntelCLI(t *testing.T) {
	t.Parallel()
	dns := dnstest.Start(t, `$ORIGIN example.com.
$TTL 300
@    IN SOA ns1 hostmaster 1 7200 3600 1209600 300
@    IN MX  10 mail.example.com.
mail IN A   93.184.215.20
`)
	dir := t.TempDir()
	city, asn := mmdbtest.WriteCity(t, dir), mmdbtest.WriteASN(t, dir)
	resolver := "--dns-resolver=" + dns.Addr()
	cases := []struct {
		name           string
		args           []string
		code           int
		stdout, stderr []string
	}{
		{"dns", []string{"intel", "dns", resolver, "--type", "MX", "example.com"}, 0, []string{`"rcode": "NOERROR"`, `"target": "mail.example.com"`}, nil},
		{"email", []string{"intel", "email", resolver, "jane@example.com"}, 0, []string{`"syntax_valid": true`}, nil},
		{"geoip", []string{"intel", "geoip", "--geoip-city-db", city, "--geoip-asn-db", asn, "81.2.69.142"}, 0, []string{`"city": "Bracknell"`, `"asn": 20712`}, nil},
		{"bulk", []string{"intel", "geoip", "--geoip-city-db", city, "81.2.69.142", "10.0.0.1"}, 0, []string{`"answered": 1`, `RFC 1918`}, nil},
		{"asn", []string{"intel", "asn", "--geoip-asn-db", asn, "AS15169"}, 0, []string{`"8.8.8.0/24"`}, nil},
		{"private address", []string{"intel", "geoip", "--geoip-city-db", city, "10.0.0.1"}, 2, nil, []string{"not looked up"}},
		{"no database", []string{"intel", "asn", "13335"}, 1, nil, []string{"--geoip-asn-db"}},
		{"bad database", []string{"intel", "geoip", "--geoip-city-db", writeFile(t, "bad.mmdb", []byte("not a database")), "1.1.1.1"}, 2, nil, []string{"--geoip-city-db"}},
		{"type ANY", []string{"intel", "dns", resolver, "--type", "ANY", "example.com"}, 2, nil, []string{"--type", "RFC 8482"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			runCLI(t, "", tc.args...).want(t, tc.code, tc.stdout, tc.stderr)
		})
	}
}
