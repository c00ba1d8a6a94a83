package geoip

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/oschwald/maxminddb-golang/v2"

	"github.com/webinfra/webinfra/errs"
)

// role is what a file is opened as.
type role int

const (
	roleCity role = iota + 1
	roleASN
)

func (r role) flag() string {
	if r == roleASN {
		return ASNFlag
	}
	return CityFlag
}

// schema is the record layout of a database.
type schema int

const (
	schemaUnknown  schema = iota
	schemaCity            // MaxMind GeoIP2/GeoLite2 City, Country or Enterprise (and DB-IP's compatible files)
	schemaLocation        // ip-location-db: flat country_code, state1, state2, city, postcode, latitude, longitude, timezone
	schemaASN             // GeoLite2-ASN, GeoIP2-ISP: autonomous_system_number, autonomous_system_organization
)

func (s schema) String() string {
	switch s {
	case schemaCity, schemaLocation:
		return "a city database"
	case schemaASN:
		return "an ASN database"
	}
	return "a database of unknown schema"
}

// database is one opened .mmdb file.
type database struct {
	name     string // the file's base name, for the operator's errors
	reader   *maxminddb.Reader
	schema   schema
	ipv4Only bool // an IPv4 tree: IPv6 addresses are not looked up in it
}

// Database types whose schema is known from the metadata alone; any other
// type is told by its first record (probeSchema).
var knownTypes = map[string]schema{
	"GeoLite2-City": schemaCity, "GeoIP2-City": schemaCity, "GeoIP2-Precision-City": schemaCity,
	"GeoIP2-City-Africa": schemaCity, "GeoIP2-City-Asia-Pacific": schemaCity, "GeoIP2-City-Europe": schemaCity,
	"GeoIP2-City-North-America": schemaCity, "GeoIP2-City-South-America": schemaCity,
	"GeoIP-City-Redacted-US": schemaCity, "GeoLite2-Country": schemaCity, "GeoIP2-Country": schemaCity,
	"GeoIP2-Enterprise": schemaCity, "DBIP-City-Lite": schemaCity, "DBIP-Country-Lite": schemaCity,
	"DBIP-Country": schemaCity, "DBIP-Location (compat=City)": schemaCity,
	"GeoLite2-ASN": schemaASN, "GeoIP2-ISP": schemaASN, "GeoIP2-Precision-ISP": schemaASN,
	"DBIP-ASN-Lite (compat=GeoLite2-ASN)": schemaASN,
}

// openAll opens every file of an Options path as r.
func openAll(path string, r role) ([]*database, error) {
	paths := splitPaths(path)
	if len(paths) > MaxFiles {
		return nil, errs.New(errs.KindUnavailable, "%s: %d files, at most %d", r.flag(), len(paths), MaxFiles)
	}
	var dbs []*database
	for _, p := range paths {
		d, err := openOne(p, r)
		if err != nil {
			closeAll(dbs)
			return nil, err
		}
		dbs = append(dbs, d)
	}
	return dbs, nil
}

func closeAll(dbs []*database) {
	for _, d := range dbs {
		_ = d.reader.Close()
	}
}

// openOne opens path as r, checking it is a MaxMind DB of r's kind. Its
// errors name the flag and the file's base name, never its directory.
func openOne(path string, r role) (*database, error) {
	fail := func(cause error, format string, args ...any) error {
		return errs.Wrap(errs.KindUnavailable, cause, "%s %s: %s", r.flag(), filepath.Base(path), fmt.Sprintf(format, args...))
	}
	if err := checkFile(path); err != nil {
		return nil, fail(nil, "%v", err)
	}
	reader, err := maxminddb.Open(path)
	if err != nil {
		var invalid maxminddb.InvalidDatabaseError
		if errors.As(err, &invalid) {
			return nil, fail(err, "not a MaxMind DB (.mmdb) file")
		}
		return nil, fail(nil, "not a MaxMind DB (.mmdb) file")
	}
	d := &database{name: filepath.Base(path), reader: reader, ipv4Only: reader.Metadata.IPVersion == 4}
	if err := checkMetadata(reader.Metadata); err != nil {
		reader.Close()
		return nil, fail(err, "not a usable MaxMind DB")
	}
	if d.schema, err = schemaOf(reader); err != nil {
		reader.Close()
		return nil, fail(err, "not a usable MaxMind DB")
	}
	want := schemaCity
	if r == roleASN {
		want = schemaASN
	}
	if (d.schema == schemaASN) != (want == schemaASN) || d.schema == schemaUnknown {
		reader.Close()
		return nil, fail(nil, "wrong database type: %s (type %q) where %s is expected", d.schema, reader.Metadata.DatabaseType, want)
	}
	return d, nil
}

// checkFile says, without naming the path, why path cannot be a database.
func checkFile(path string) error {
	info, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return errors.New("no such file")
	case errors.Is(err, fs.ErrPermission):
		return errors.New("permission denied")
	case err != nil:
		return errors.New("cannot be read")
	case !info.Mode().IsRegular():
		return errors.New("not a regular file")
	case info.Size() == 0:
		return errors.New("an empty file, not a MaxMind DB (.mmdb)")
	}
	f, err := os.Open(path)
	if err != nil {
		return errors.New("cannot be read")
	}
	return f.Close()
}

func checkMetadata(m maxminddb.Metadata) error {
	switch {
	case m.BinaryFormatMajorVersion != 2:
		return fmt.Errorf("format version %d, want 2", m.BinaryFormatMajorVersion)
	case m.IPVersion != 4 && m.IPVersion != 6:
		return fmt.Errorf("IP version %d", m.IPVersion)
	case m.RecordSize != 24 && m.RecordSize != 28 && m.RecordSize != 32:
		return fmt.Errorf("record size %d", m.RecordSize)
	case m.NodeCount == 0:
		return errors.New("an empty search tree")
	}
	return nil
}

// schemaOf tells a database's schema by its type, else by the keys of
// its first record.
func schemaOf(r *maxminddb.Reader) (schema, error) {
	if s, ok := knownTypes[r.Metadata.DatabaseType]; ok {
		return s, nil
	}
	for res := range r.Networks() {
		if err := res.Err(); err != nil {
			return schemaUnknown, err
		}
		var record map[string]any
		if err := res.Decode(&record); err != nil {
			return schemaUnknown, err
		}
		return schemaOfRecord(record), nil
	}
	return schemaUnknown, errors.New("it holds no networks")
}

func schemaOfRecord(record map[string]any) schema {
	has := func(key string) bool { _, ok := record[key]; return ok }
	switch {
	case has("autonomous_system_number"):
		return schemaASN
	case has("country_code"):
		return schemaLocation
	case has("country"), has("registered_country"), has("city"), has("location"), has("subdivisions"):
		return schemaCity
	}
	return schemaUnknown
}
