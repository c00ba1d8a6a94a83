package main

import (
	"flag"
	"strings"

	"github.com/spf13/pflag"

	"github.com/webinfra/webinfra/captcha"
	"github.com/webinfra/webinfra/convert"
	"github.com/webinfra/webinfra/fetch"
	"github.com/webinfra/webinfra/intel"
)

// sourceFlags name the data sources and engines of the capabilities (the
// intelligence sources, the OCR engine), shared by `serve`, `mcp` and the
// intel commands. They are declared once,
// as a Go flag set (serve's kind), and added to cobra's flag sets from it.
type sourceFlags struct {
	dnsResolvers  string
	rdapBootstrap string
	whoisServer   string
	ctURL         string
	geoipCityDB   string
	geoipASNDB    string
	smtpProbe     bool
	tesseract     string
	twoCaptchaKey string
	twoCaptchaURL string
	capSolverKey  string
	capSolverURL  string
}

// define declares the flags into fs.
func (f *sourceFlags) define(fs *flag.FlagSet) {
	fs.StringVar(&f.dnsResolvers, "dns-resolver", env("WEBINFRA_DNS_RESOLVER", ""), "comma-separated host:port of the DNS resolvers DNS lookups, DNS intelligence and e-mail checks ask (WEBINFRA_DNS_RESOLVER); empty: those of /etc/resolv.conf")
	fs.StringVar(&f.rdapBootstrap, "rdap-bootstrap", env("WEBINFRA_RDAP_BOOTSTRAP", ""), "file in the format of IANA's RDAP DNS bootstrap (dns.json) replacing the bundled copy (WEBINFRA_RDAP_BOOTSTRAP)")
	fs.StringVar(&f.whoisServer, "whois-server", env("WEBINFRA_WHOIS_SERVER", ""), "host:port receiving every whois query, with no referral (WEBINFRA_WHOIS_SERVER); empty: the registry's whois server and its referral")
	fs.StringVar(&f.ctURL, "ct-url", env("WEBINFRA_CT_URL", ""), "base URL of a crt.sh-compatible certificate transparency search (WEBINFRA_CT_URL); empty: https://crt.sh/")
	fs.StringVar(&f.geoipCityDB, "geoip-city-db", env("WEBINFRA_GEOIP_CITY_DB", ""), "MaxMind-format city database (.mmdb) for GeoIP (WEBINFRA_GEOIP_CITY_DB); empty: geoip answers 503")
	fs.StringVar(&f.geoipASNDB, "geoip-asn-db", env("WEBINFRA_GEOIP_ASN_DB", ""), "MaxMind-format ASN database (.mmdb) for GeoIP networks and the asn endpoint (WEBINFRA_GEOIP_ASN_DB); empty: asn answers 503")
	fs.StringVar(&f.tesseract, "tesseract", env("WEBINFRA_TESSERACT", ""), "path of the tesseract binary OCR runs (WEBINFRA_TESSERACT); empty: tesseract on PATH, else OCR answers 503")
	fs.StringVar(&f.twoCaptchaKey, "twocaptcha-key", env("WEBINFRA_TWOCAPTCHA_KEY", ""), "API key of a 2Captcha-compatible captcha provider (WEBINFRA_TWOCAPTCHA_KEY), better set by the variable: flags show in ps; empty: not used")
	fs.StringVar(&f.twoCaptchaURL, "twocaptcha-url", env("WEBINFRA_TWOCAPTCHA_URL", ""), "base URL of the 2Captcha-compatible provider (WEBINFRA_TWOCAPTCHA_URL); empty: https://api.2captcha.com")
	fs.StringVar(&f.capSolverKey, "capsolver-key", env("WEBINFRA_CAPSOLVER_KEY", ""), "API key of a CapSolver-compatible captcha provider (WEBINFRA_CAPSOLVER_KEY), better set by the variable; empty: not used")
	fs.StringVar(&f.capSolverURL, "capsolver-url", env("WEBINFRA_CAPSOLVER_URL", ""), "base URL of the CapSolver-compatible provider (WEBINFRA_CAPSOLVER_URL); empty: https://api.capsolver.com")
	fs.BoolVar(&f.smtpProbe, "email-smtp-probe", envBool("WEBINFRA_EMAIL_SMTP_PROBE"), "let e-mail verification ask the domain's mail server on port 25 whether it accepts the address (WEBINFRA_EMAIL_SMTP_PROBE=1); off: DNS only")
}

// register adds the flags to a cobra command's flag set.
func (f *sourceFlags) register(fs *pflag.FlagSet) {
	gfs := flag.NewFlagSet("intel", flag.ContinueOnError)
	f.define(gfs)
	fs.AddGoFlagSet(gfs)
}

// config is the intel configuration the flags describe.
func (f *sourceFlags) config() *intel.Config {
	c := &intel.Config{RDAPBootstrap: f.rdapBootstrap, WhoisServer: f.whoisServer, CTURL: f.ctURL,
		GeoIPCityDB: f.geoipCityDB, GeoIPASNDB: f.geoipASNDB, SMTPProbe: f.smtpProbe}
	for _, r := range strings.Split(f.dnsResolvers, ",") {
		if r = strings.TrimSpace(r); r != "" {
			c.DNSResolvers = append(c.DNSResolvers, r)
		}
	}
	return c
}

// ocr is the OCR engine the flags describe.
func (f *sourceFlags) ocr(fetcher *fetch.Fetcher) (*convert.OCR, error) {
	return convert.New(fetcher, &convert.Options{TesseractPath: f.tesseract})
}

// captcha is the captcha solvers the flags describe: the providers with a
// key, and the local OCR solver on ocr.
func (f *sourceFlags) captcha(fetcher *fetch.Fetcher, ocr *convert.OCR) (*captcha.Client, error) {
	return captcha.New(fetcher, &captcha.Options{TwoCaptchaKey: f.twoCaptchaKey, TwoCaptchaURL: f.twoCaptchaURL,
		CapSolverKey: f.capSolverKey, CapSolverURL: f.capSolverURL, OCR: captcha.ConvertOCR(ocr)})
}
