package geoip

import (
	"strings"
	"sync"
	"time"

	"github.com/webinfra/webinfra/errs"
)

// The server flags and environment variables that name the databases;
// errors name them so an operator knows what to set.
const (
	CityFlag = "--geoip-city-db"
	CityEnv  = "WEBINFRA_GEOIP_CITY_DB"
	ASNFlag  = "--geoip-asn-db"
	ASNEnv   = "WEBINFRA_GEOIP_ASN_DB"
)

// Limits.
const (
	// MaxBulk is the most IPs one Bulk call takes.
	MaxBulk = 100
	// MaxIPLength bounds the text of one IP (the longest IPv6 text form is
	// 45 characters).
	MaxIPLength = 64
	// MaxFiles bounds the comma-separated files of one Options path.
	MaxFiles = 8
	// MaxIndexedNetworks bounds the networks the ASN index reads; a real
	// ASN database holds about a million.
	MaxIndexedNetworks = 16 << 20
)

// Options name the databases. Either path may be empty: the DB then
// answers with what it has and says which flag is missing when asked for
// what it lacks. Each path is one .mmdb file or several separated by
// commas (ip-location-db ships IPv4 and IPv6 as two files); an address is
// looked up in each file of its IP version in turn until one has a record.
//
// Files are memory-mapped: to update one, rename a new file over it and
// open again (restart); never rewrite it in place.
type Options struct {
	// CityPath is a city (or country) database: MaxMind's GeoIP2/GeoLite2
	// City or Country schema (also DB-IP's compatible files) or the
	// ip-location-db city schema. The server's --geoip-city-db.
	CityPath string
	// ASNPath is an ASN database: GeoLite2-ASN, GeoIP2-ISP or a file of
	// the same schema (autonomous_system_number,
	// autonomous_system_organization). The server's --geoip-asn-db.
	ASNPath string
}

// DB answers GeoIP and ASN questions from local MaxMind-format databases.
// It is safe for concurrent use; nothing it does touches the network.
type DB struct {
	mu     sync.RWMutex // held for reading by every lookup, for writing by Close
	closed bool
	city   []*database
	asn    []*database
	index  map[uint32]*asnEntry // every ASN of the ASN database with its prefixes
	stats  IndexStats
}

// IndexStats describes the ASN index built at Open.
type IndexStats struct {
	Networks int           `json:"networks" doc:"Networks read from the ASN database."`
	ASNs     int           `json:"asns" doc:"Distinct autonomous systems indexed."`
	Took     time.Duration `json:"took_ns" doc:"Time spent building the index."`
}

// Open opens the databases opts names and, when there is an ASN
// database, indexes it (every network read once, see DB.ASN). A path that
// is missing, unreadable, not a MaxMind DB, or of the wrong kind (a city
// file given as the ASN database or the other way round) is an error
// naming its flag (CityFlag, ASNFlag) and what is wrong, of kind
// errs.KindUnavailable. Empty paths are fine: Open(Options{}) returns a
// DB whose calls answer errs.KindUnavailable naming the flags.
func Open(opts Options) (*DB, error) {
	db := &DB{}
	var err error
	if db.city, err = openAll(opts.CityPath, roleCity); err != nil {
		return nil, err
	}
	if db.asn, err = openAll(opts.ASNPath, roleASN); err != nil {
		closeAll(db.city)
		return nil, err
	}
	if len(db.asn) > 0 {
		start := time.Now()
		if db.index, db.stats.Networks, err = buildIndex(db.asn); err != nil {
			db.Close()
			return nil, err
		}
		db.stats.ASNs, db.stats.Took = len(db.index), time.Since(start)
	}
	return db, nil
}

// Close releases the databases. Calls made after Close answer
// errs.KindUnavailable.
func (db *DB) Close() error {
	if db == nil {
		return nil
	}
	db.mu.Lock()
	defer db.mu.Unlock()
	if db.closed {
		return nil
	}
	db.closed = true
	closeAll(db.city)
	closeAll(db.asn)
	db.index = nil
	return nil
}

// HasCity reports whether the DB holds a city database.
func (db *DB) HasCity() bool { return db != nil && len(db.city) > 0 }

// HasASN reports whether the DB holds an ASN database.
func (db *DB) HasASN() bool { return db != nil && len(db.asn) > 0 }

// IndexStats returns how the ASN index was built (zero without an ASN
// database).
func (db *DB) IndexStats() IndexStats {
	if db == nil {
		return IndexStats{}
	}
	return db.stats
}

// splitPaths returns the files of an Options path.
func splitPaths(path string) []string {
	var paths []string
	for p := range strings.SplitSeq(path, ",") {
		if p = strings.TrimSpace(p); p != "" {
			paths = append(paths, p)
		}
	}
	return paths
}

func errNoDatabase() error {
	return errs.New(errs.KindUnavailable,
		"no GeoIP database: start the server with %s FILE (%s) and/or %s FILE (%s)",
		CityFlag, CityEnv, ASNFlag, ASNEnv)
}

func errNoASNDatabase() error {
	return errs.New(errs.KindUnavailable,
		"no GeoIP ASN database: start the server with %s FILE (%s)", ASNFlag, ASNEnv)
}

func errClosed() error {
	return errs.New(errs.KindUnavailable, "GeoIP database closed")
}
