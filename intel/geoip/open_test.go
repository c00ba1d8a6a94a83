package geoip_test

import (
	"crypto/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/maxmind/mmdbwriter/mmdbtype"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/intel/geoip"
	"github.com/webinfra/webinfra/internal/mmdbtest"
)

func writeFile(t *testing.T, dir, name string, content []byte) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, content, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestOpenRefusesFilesThatAreNotDatabasesOfTheirKind(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	city, asn := mmdbtest.WriteCity(t, dir), mmdbtest.WriteASN(t, dir)
	v4, _ := mmdbtest.WriteLocationDB(t, dir)
	unknown := mmdbtest.WriteRaw(t, dir, "Weird-DB", 6, mmdbtest.RawRow{Network: "8.8.8.0/24", Record: mmdbtype.Map{"colour": mmdbtype.String("blue")}})
	emptyTree := mmdbtest.WriteRaw(t, dir, "Nothing-DB", 6)
	badASN := mmdbtest.WriteRaw(t, dir, "GeoLite2-ASN", 6, mmdbtest.RawRow{Network: "8.8.8.0/24", Record: mmdbtype.Map{
		"autonomous_system_number": mmdbtype.String("fifteen thousand"),
	}})
	// A real database cut short: the metadata at its end is gone.
	whole, err := os.ReadFile(city)
	if err != nil {
		t.Fatal(err)
	}
	truncated := writeFile(t, dir, "truncated.mmdb", whole[:len(whole)/2])
	random := make([]byte, 4096)
	rand.Read(random)
	tests := []struct {
		name string
		opts geoip.Options
		want []string
	}{
		{"random bytes", geoip.Options{CityPath: writeFile(t, dir, "random.mmdb", random)}, []string{geoip.CityFlag, "random.mmdb", "not a MaxMind DB"}},
		{"empty file", geoip.Options{ASNPath: writeFile(t, dir, "empty.mmdb", nil)}, []string{geoip.ASNFlag, "empty.mmdb", "empty file"}},
		{"JSON file", geoip.Options{CityPath: writeFile(t, dir, "city.json", []byte(`{"8.8.8.8":{"country":"US"}}`))}, []string{geoip.CityFlag, "city.json", "not a MaxMind DB"}},
		{"truncated", geoip.Options{CityPath: truncated}, []string{geoip.CityFlag, "truncated.mmdb", "not a MaxMind DB"}},
		{"missing", geoip.Options{CityPath: filepath.Join(dir, "nope.mmdb")}, []string{geoip.CityFlag, "nope.mmdb", "no such file"}},
		{"directory", geoip.Options{ASNPath: dir}, []string{geoip.ASNFlag, "not a regular file"}},
		{"city file as ASN", geoip.Options{ASNPath: city}, []string{geoip.ASNFlag, "wrong database type: a city database", `"GeoIP2-City"`, "an ASN database is expected"}},
		{"ASN file as city", geoip.Options{CityPath: asn}, []string{geoip.CityFlag, "wrong database type: an ASN database", `"GeoLite2-ASN"`, "a city database is expected"}},
		{"ip-location-db city as ASN", geoip.Options{ASNPath: v4}, []string{geoip.ASNFlag, `"city ipv4"`}},
		{"unknown schema", geoip.Options{CityPath: unknown}, []string{geoip.CityFlag, "unknown schema", `"Weird-DB"`}},
		{"no networks", geoip.Options{CityPath: emptyTree}, []string{geoip.CityFlag, "holds no networks"}},
		{"unreadable ASN records", geoip.Options{ASNPath: badASN}, []string{geoip.ASNFlag, "cannot be read"}},
		{"second file bad", geoip.Options{CityPath: city + "," + asn}, []string{geoip.CityFlag, "wrong database type"}},
		{"too many files", geoip.Options{CityPath: strings.Repeat(city+",", geoip.MaxFiles+1)}, []string{geoip.CityFlag, "at most 8"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			db, err := geoip.Open(tt.opts)
			if err == nil {
				db.Close()
				t.Fatal("Open succeeded")
			}
			t.Log(err)
			if !errs.Is(err, errs.KindUnavailable) {
				t.Errorf("kind %s, want unavailable", errs.KindOf(err))
			}
			for _, want := range tt.want {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("%q does not say %q", err, want)
				}
			}
			if strings.Contains(err.Error(), dir) {
				t.Errorf("%q names the file's directory", err)
			}
		})
	}
}

func TestOpenWithoutPathsAnswersUnavailable(t *testing.T) {
	t.Parallel()
	db := mustOpen(t, geoip.Options{CityPath: " , "})
	if db.HasCity() || db.HasASN() || db.IndexStats() != (geoip.IndexStats{}) {
		t.Fatalf("an empty DB claims databases: city %v, asn %v, %+v", db.HasCity(), db.HasASN(), db.IndexStats())
	}
}
