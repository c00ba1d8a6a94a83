package geoip

import (
	"net/netip"
	"strconv"
	"strings"

	"github.com/oschwald/geoip2-golang/v2"
	"github.com/oschwald/maxminddb-golang/v2"
	"golang.org/x/text/language"
	"golang.org/x/text/language/display"

	"github.com/webinfra/webinfra/errs"
)

// GeoIPInput names the address to place.
type GeoIPInput struct {
	IP string `json:"ip" minLength:"1" maxLength:"64" example:"8.8.8.8" doc:"A public IPv4 or IPv6 address. Private, loopback, link-local, shared (CGNAT), documentation, multicast and other reserved addresses are refused (422), not looked up."`
}

// The names Location.Sources uses for the databases.
const (
	SourceCity = "city"
	SourceASN  = "asn"
)

// Location is what the databases hold for an address.
type Location struct {
	IP               string   `json:"ip" example:"81.2.69.142" doc:"The address looked up, normalised (an IPv4-mapped IPv6 address as IPv4)."`
	Found            bool     `json:"found" doc:"A database holds a record for the address. false is an answer (the databases know nothing of it), not an error."`
	CountryCode      string   `json:"country_code,omitempty" example:"GB" doc:"ISO 3166-1 alpha-2 code of the country the address is placed in (the registered country when the database places it nowhere more precise)."`
	Country          string   `json:"country,omitempty" example:"United Kingdom" doc:"The country's English name."`
	Region           string   `json:"region,omitempty" example:"England" doc:"First-level subdivision: state, province, region."`
	RegionCode       string   `json:"region_code,omitempty" example:"ENG" doc:"The subdivision's ISO 3166-2 code without the country part, when the database has one."`
	City             string   `json:"city,omitempty" example:"Bracknell"`
	Postal           string   `json:"postal,omitempty" example:"RG12" doc:"Postal code; some countries' are partial."`
	Latitude         *float64 `json:"latitude,omitempty" example:"51.4036" doc:"Approximate; never an address or a household."`
	Longitude        *float64 `json:"longitude,omitempty" example:"-0.7618"`
	AccuracyRadiusKM int      `json:"accuracy_radius_km,omitempty" example:"20" doc:"Radius around latitude/longitude likely to hold the address, when the database says."`
	TimeZone         string   `json:"timezone,omitempty" example:"Europe/London" doc:"IANA time zone."`
	ASN              uint32   `json:"asn,omitempty" example:"20712" doc:"Autonomous system announcing the address."`
	ASNOrg           string   `json:"asn_org,omitempty" example:"Andrews & Arnold Ltd" doc:"The autonomous system's operator (ISP)."`
	Network          string   `json:"network,omitempty" example:"81.2.69.128/25" doc:"The CIDR network the city database matched."`
	ASNNetwork       string   `json:"asn_network,omitempty" example:"81.2.69.0/24" doc:"The CIDR network the ASN database matched."`
	Sources          []string `json:"sources" example:"[\"city\",\"asn\"]" doc:"The databases that held a record: city, asn."`
}

// Lookup places in.IP with the city database and names its network with
// the ASN database, answering with what the DB has (Location.Sources says
// which answered; Found is false when neither holds the address).
//
// Errors: an invalid IP, or a private or reserved one (see Reserved), is
// errs.Invalid("ip", ...) naming the range and its RFC; no database at all
// is errs.KindUnavailable naming CityFlag and ASNFlag; a database that
// answers garbage is errs.KindUpstream ("GeoIP database: ...").
func (db *DB) Lookup(in GeoIPInput) (*Location, error) {
	addr, err := parsePublicIP("ip", in.IP)
	if err != nil {
		return nil, err
	}
	if db == nil {
		return nil, errNoDatabase()
	}
	db.mu.RLock()
	defer db.mu.RUnlock()
	if err := db.usable(); err != nil {
		return nil, err
	}
	return db.lookup(addr)
}

// usable says why db cannot answer a lookup; call with db.mu held.
func (db *DB) usable() error {
	switch {
	case db.closed:
		return errClosed()
	case len(db.city) == 0 && len(db.asn) == 0:
		return errNoDatabase()
	}
	return nil
}

// parsePublicIP parses an address a caller gave in field and refuses the
// ones that are not looked up.
func parsePublicIP(field, text string) (netip.Addr, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return netip.Addr{}, errs.Invalid(field, "an IP address is required")
	}
	if len(text) > MaxIPLength {
		return netip.Addr{}, errs.Invalid(field, "not an IP address: longer than %d characters", MaxIPLength)
	}
	addr, err := netip.ParseAddr(text)
	if err != nil {
		return netip.Addr{}, errs.Invalid(field, "not an IP address: %q", text)
	}
	if addr.Zone() != "" {
		return netip.Addr{}, errs.Invalid(field, "%s has a zone; give a global address", text)
	}
	addr = addr.Unmap()
	if r, reserved := Reserved(addr); reserved {
		return netip.Addr{}, errs.Invalid(field, "%s is %s (%s, %s); not looked up", addr, r.What, r.Prefix, r.RFC)
	}
	return addr, nil
}

// lookup reads addr from every database; call with db.mu held.
func (db *DB) lookup(addr netip.Addr) (*Location, error) {
	loc := &Location{IP: addr.String(), Sources: []string{}}
	found, err := lookupFirst(db.city, addr, func(res maxminddb.Result, schema schema) error {
		return decodeCity(loc, res, schema)
	})
	if err != nil {
		return nil, err
	}
	if found {
		loc.Sources = append(loc.Sources, SourceCity)
	}
	found, err = lookupFirst(db.asn, addr, func(res maxminddb.Result, _ schema) error {
		var rec asnRecord
		if err := res.Decode(&rec); err != nil {
			return err
		}
		loc.ASN, loc.ASNOrg, loc.ASNNetwork = rec.Number, rec.name(), res.Prefix().String()
		return nil
	})
	if err != nil {
		return nil, err
	}
	if found {
		loc.Sources = append(loc.Sources, SourceASN)
	}
	loc.Found = len(loc.Sources) > 0
	return loc, nil
}

// lookupFirst looks addr up in each database of its IP version in turn
// and decodes the first record found.
func lookupFirst(dbs []*database, addr netip.Addr, decode func(maxminddb.Result, schema) error) (bool, error) {
	for _, d := range dbs {
		if d.ipv4Only && !addr.Is4() {
			continue
		}
		res := d.reader.Lookup(addr)
		if err := res.Err(); err != nil {
			return false, errs.Wrap(errs.KindUpstream, err, "GeoIP database: lookup of %s failed", addr)
		}
		if !res.Found() {
			continue
		}
		if err := decode(res, d.schema); err != nil {
			return false, errs.Wrap(errs.KindUpstream, err, "GeoIP database: the record of %s cannot be read", addr)
		}
		return true, nil
	}
	return false, nil
}

func decodeCity(loc *Location, res maxminddb.Result, s schema) error {
	loc.Network = res.Prefix().String()
	if s == schemaLocation {
		return decodeLocationDB(loc, res)
	}
	var rec geoip2.City
	if err := res.Decode(&rec); err != nil {
		return err
	}
	country := rec.Country
	if country.ISOCode == "" {
		country = rec.RegisteredCountry
	}
	loc.CountryCode, loc.Country = country.ISOCode, country.Names.English
	if len(rec.Subdivisions) > 0 {
		loc.Region, loc.RegionCode = rec.Subdivisions[0].Names.English, rec.Subdivisions[0].ISOCode
	}
	loc.City, loc.Postal = rec.City.Names.English, rec.Postal.Code
	if rec.Location.HasCoordinates() {
		setCoordinates(loc, *rec.Location.Latitude, *rec.Location.Longitude)
	}
	loc.AccuracyRadiusKM, loc.TimeZone = int(rec.Location.AccuracyRadius), rec.Location.TimeZone
	if loc.Country == "" {
		loc.Country = countryName(loc.CountryCode)
	}
	return nil
}

// locationRecord is the ip-location-db city schema. Its coordinates are
// float32 in the files that project publishes; they are read as any to
// print them as written (51.4036, not 51.40359878540039).
type locationRecord struct {
	CountryCode string `maxminddb:"country_code,maxsize:16"`
	State1      string `maxminddb:"state1,maxsize:512"`
	City        string `maxminddb:"city,maxsize:512"`
	Postcode    string `maxminddb:"postcode,maxsize:64"`
	Latitude    any    `maxminddb:"latitude"`
	Longitude   any    `maxminddb:"longitude"`
	Timezone    string `maxminddb:"timezone,maxsize:128"`
}

func decodeLocationDB(loc *Location, res maxminddb.Result) error {
	var rec locationRecord
	if err := res.Decode(&rec); err != nil {
		return err
	}
	loc.CountryCode, loc.Country = rec.CountryCode, countryName(rec.CountryCode)
	loc.Region, loc.City, loc.Postal, loc.TimeZone = rec.State1, rec.City, rec.Postcode, rec.Timezone
	lat, latOK := coordinate(rec.Latitude)
	lon, lonOK := coordinate(rec.Longitude)
	if latOK && lonOK && (lat != 0 || lon != 0) {
		setCoordinates(loc, lat, lon)
	}
	return nil
}

// setCoordinates keeps a position only when it is one: a database's NaN
// or out-of-range value would otherwise break the JSON answer.
func setCoordinates(loc *Location, lat, lon float64) {
	if lat >= -90 && lat <= 90 && lon >= -180 && lon <= 180 { // false for NaN
		loc.Latitude, loc.Longitude = &lat, &lon
	}
}

// coordinate reads a stored float as the decimal it was written as.
func coordinate(v any) (float64, bool) {
	switch f := v.(type) {
	case float32:
		shortest, err := strconv.ParseFloat(strconv.FormatFloat(float64(f), 'g', -1, 32), 64)
		return shortest, err == nil
	case float64:
		return f, true
	}
	return 0, false
}

// countryName is the English name of an ISO 3166-1 alpha-2 code, for
// databases that hold only the code; "" for a code that is not one.
func countryName(code string) string {
	if len(code) != 2 {
		return ""
	}
	region, err := language.ParseRegion(code)
	if err != nil || !region.IsCountry() {
		return ""
	}
	return display.English.Regions().Name(region)
}
