package mmdbtest

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"net/netip"
	"os"
	"strconv"
	"strings"

	"github.com/maxmind/mmdbwriter"
	"github.com/maxmind/mmdbwriter/mmdbtype"
	"go4.org/netipx"
)

// WriteASNFromCSV builds a GeoLite2-ASN database from ip-location-db ASN
// CSV files (asn-ipv4.csv, asn-ipv6.csv of the npm package
// @ip-location-db/asn: "first,last,asn,organization" per line, an
// inclusive address range) into dir and returns its path. That package
// ships no .mmdb, so tests that read its real data convert it first; each
// range becomes the CIDR prefixes that cover it exactly (netipx), as a database built from
// those ranges holds them. Ranges inside reserved networks are skipped, as
// MaxMind's writer refuses them.
func WriteASNFromCSV(tb TB, dir string, csvPaths ...string) string {
	tb.Helper()
	tree, err := mmdbwriter.New(mmdbwriter.Options{
		DatabaseType: "GeoLite2-ASN",
		RecordSize:   28,
		Description:  map[string]string{"en": "webinfra test conversion of @ip-location-db/asn"},
		KeyGenerator: asnKeys{},
	})
	if err != nil {
		tb.Fatalf("mmdbtest: %v", err)
	}
	records := map[string]mmdbtype.Map{} // one value per operator, shared by its ranges
	for _, path := range csvPaths {
		if err := insertASNCSV(tree, path, records); err != nil {
			tb.Fatalf("mmdbtest: %s: %v", path, err)
		}
	}
	return writeTree(tb, dir, tree)
}

func insertASNCSV(tree *mmdbwriter.Tree, path string, records map[string]mmdbtype.Map) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.FieldsPerRecord = 4
	r.ReuseRecord = true
	for {
		row, err := r.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if err := insertASNRange(tree, row, records); err != nil {
			return err
		}
	}
}

func insertASNRange(tree *mmdbwriter.Tree, row []string, records map[string]mmdbtype.Map) error {
	first, err1 := netip.ParseAddr(row[0])
	last, err2 := netip.ParseAddr(row[1])
	asn, err3 := strconv.ParseUint(row[2], 10, 32)
	ipRange := netipx.IPRangeFrom(first, last)
	if err := errors.Join(err1, err2, err3); err != nil || !ipRange.IsValid() {
		return fmt.Errorf("bad row %q: %v", strings.Join(row, ","), err)
	}
	key := row[2] + "\x00" + row[3]
	rec, ok := records[key]
	if !ok {
		rec = asnRecord(uint32(asn), row[3])
		records[key] = rec
	}
	for _, prefix := range ipRange.Prefixes() {
		err := tree.Insert(netipx.PrefixIPNet(prefix), rec)
		var reserved *mmdbwriter.ReservedNetworkError
		var aliased *mmdbwriter.AliasedNetworkError
		if err != nil && !errors.As(err, &reserved) && !errors.As(err, &aliased) {
			return err
		}
	}
	return nil
}

// asnKeys keys an ASN record by its number and organisation for the
// writer's de-duplication: the default hashes a serialisation of every
// inserted value, most of the conversion's time.
type asnKeys struct{}

func (asnKeys) Key(v mmdbtype.DataType) ([]byte, error) {
	m, ok := v.(mmdbtype.Map)
	if !ok {
		return nil, fmt.Errorf("not an ASN record: %T", v)
	}
	asn, _ := m["autonomous_system_number"].(mmdbtype.Uint32)
	org, _ := m["autonomous_system_organization"].(mmdbtype.String)
	return fmt.Appendf(nil, "%d\x00%s", asn, org), nil
}
