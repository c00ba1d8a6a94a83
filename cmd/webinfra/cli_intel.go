package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/webinfra/webinfra/intel"
	"github.com/webinfra/webinfra/intel/company"
	"github.com/webinfra/webinfra/intel/ct"
	"github.com/webinfra/webinfra/intel/dnsintel"
	"github.com/webinfra/webinfra/intel/email"
	"github.com/webinfra/webinfra/intel/geoip"
	"github.com/webinfra/webinfra/intel/pageinfo"
	"github.com/webinfra/webinfra/intel/resolver"
	"github.com/webinfra/webinfra/intel/secheaders"
	"github.com/webinfra/webinfra/intel/sitemap"
	"github.com/webinfra/webinfra/intel/tlsinspect"
	"github.com/webinfra/webinfra/intel/whois"
)

// intelCommand is `webinfra intel VERB ...`: the intelligence
// capabilities called in process, each printing the JSON its /v1
// endpoint answers.
type intelCommand struct {
	fetch   fetchFlags
	sources sourceFlags
}

// intelRun is one verb's work: call the capability on the opened
// sources with the command's arguments.
type intelRun func(ctx context.Context, c *intel.Client, args []string) (any, error)

func newIntelCommand() *cobra.Command {
	ic := &intelCommand{}
	cmd := &cobra.Command{
		Use:   "intel",
		Short: "Domain and network intelligence: DNS, whois, certificates, TLS, headers, GeoIP, pages",
		Long: `Ask the data sources directly (DNS resolvers, RDAP and whois servers, the
certificate transparency log, GeoIP databases, the site itself) and print the
JSON the matching /v1 endpoint answers. Sources are set with the flags below,
the same as 'webinfra serve' reads.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			fmt.Fprint(cmd.ErrOrStderr(), cmd.UsageString())
			return errNoCommand
		},
	}
	ic.fetch.register(cmd.PersistentFlags())
	ic.sources.register(cmd.PersistentFlags())

	var dnsType, dnsResolver string
	var dnssec bool
	dns := ic.verb("dns NAME", "Look up one DNS record type (A by default; PTR for an IP)", cobra.ExactArgs(1),
		func(ctx context.Context, c *intel.Client, args []string) (any, error) {
			return c.DNSLookup(ctx, resolver.LookupInput{Domain: args[0], Type: dnsType, Resolver: dnsResolver, DNSSEC: dnssec})
		})
	dns.Flags().StringVarP(&dnsType, "type", "t", "", "record type: A, AAAA, MX, TXT, NS, CAA, SOA, SRV, DS, DNSKEY, HTTPS, ...")
	dns.Flags().StringVar(&dnsResolver, "resolver", "", "resolver by name: default, cloudflare, google or quad9")
	dns.Flags().BoolVar(&dnssec, "dnssec", false, "ask for DNSSEC: authenticated says whether the resolver validated the answer")

	var selectors []string
	dnsReport := ic.verb("dns-report DOMAIN", "A domain's mail and delegation set-up: MX, SPF, DMARC, DKIM, CAA, NS, dangling CNAMEs", cobra.ExactArgs(1),
		func(ctx context.Context, c *intel.Client, args []string) (any, error) {
			return c.DNSIntelligence(ctx, dnsintel.Input{Domain: args[0], DKIMSelectors: selectors})
		})
	dnsReport.Flags().StringSliceVar(&selectors, "dkim-selector", nil, "DKIM selectors to probe besides the common ones (repeatable)")

	var subdomains, excludeExpired bool
	var limit int
	certs := ic.verb("certs DOMAIN", "Certificates logged for a domain in certificate transparency, newest first", cobra.ExactArgs(1),
		func(ctx context.Context, c *intel.Client, args []string) (any, error) {
			return c.CertificateHistory(ctx, ct.HistoryInput{Domain: args[0], IncludeSubdomains: subdomains, ExcludeExpired: excludeExpired, Limit: limit})
		})
	certs.Flags().BoolVar(&subdomains, "include-subdomains", false, "also certificates of names under the domain")
	certs.Flags().BoolVar(&excludeExpired, "exclude-expired", false, "leave out certificates no longer valid")
	certs.Flags().IntVar(&limit, "limit", 0, "most certificates printed; 0: 100")

	subs := ic.verb("subdomains DOMAIN", "Subdomain names from the certificates logged for a domain (not resolved)", cobra.ExactArgs(1),
		func(ctx context.Context, c *intel.Client, args []string) (any, error) {
			return c.Subdomains(ctx, ct.SubdomainsInput{Domain: args[0], ExcludeExpired: excludeExpired, Limit: limit})
		})
	subs.Flags().BoolVar(&excludeExpired, "exclude-expired", false, "only names of certificates still valid")
	subs.Flags().IntVar(&limit, "limit", 0, "most names printed; 0: 1000")

	var maxURLs int
	sitemaps := ic.verb("sitemap URL", "A site's sitemaps read whole: URL count, lastmod statistics, problems", cobra.ExactArgs(1),
		func(ctx context.Context, c *intel.Client, args []string) (any, error) {
			return c.Sitemap(ctx, sitemap.Input{URL: args[0], MaxURLs: maxURLs})
		})
	sitemaps.Flags().IntVar(&maxURLs, "max-urls", 0, "how many URLs to list (all are counted); 0: 1000")

	cmd.AddCommand(dns, dnsReport, certs, subs, sitemaps,
		ic.verb("email ADDRESS", "Check an e-mail address: syntax, mail servers, disposable domain, role account", cobra.ExactArgs(1),
			func(ctx context.Context, c *intel.Client, args []string) (any, error) {
				return c.VerifyEmail(ctx, email.Input{Email: args[0]})
			}),
		ic.verb("whois DOMAIN", "A domain's registration, from RDAP where the registry has it, whois otherwise", cobra.ExactArgs(1),
			func(ctx context.Context, c *intel.Client, args []string) (any, error) {
				return c.Whois(ctx, whois.Input{Domain: args[0]})
			}),
		ic.verb("ssl DOMAIN", "Inspect a TLS handshake: chain, expiry, protocol, cipher, stapling, HSTS, problems", cobra.ExactArgs(1),
			func(ctx context.Context, c *intel.Client, args []string) (any, error) {
				return c.TLS(ctx, tlsinspect.Input{Domain: args[0]})
			}),
		ic.verb("headers URL", "Grade a page's security headers, each with its reason", cobra.ExactArgs(1),
			func(ctx context.Context, c *intel.Client, args []string) (any, error) {
				return c.Headers(ctx, secheaders.Input{URL: args[0]})
			}),
		ic.verb("page URL", "What a page says about itself: title, language, generator, technologies, headers, links, structured data", cobra.ExactArgs(1),
			func(ctx context.Context, c *intel.Client, args []string) (any, error) {
				return c.PageInfo(ctx, pageinfo.Input{URL: args[0]})
			}),
		ic.verb("company URL", "A company profile from one page (best a homepage): organization data, logo, social profiles, contacts", cobra.ExactArgs(1),
			func(ctx context.Context, c *intel.Client, args []string) (any, error) {
				return c.Company(ctx, company.Input{URL: args[0]})
			}),
		ic.verb("geoip IP...", "Where public IPs are and which networks hold them (one IP, or up to 100)", cobra.RangeArgs(1, geoip.MaxBulk),
			func(_ context.Context, c *intel.Client, args []string) (any, error) {
				if len(args) == 1 {
					return c.GeoIP(geoip.GeoIPInput{IP: args[0]})
				}
				return c.GeoIPBulk(geoip.BulkInput{IPs: args})
			}),
		ic.verb("asn ASN", "An autonomous system's operator and routed prefixes (AS13335 or 13335)", cobra.ExactArgs(1),
			func(_ context.Context, c *intel.Client, args []string) (any, error) {
				return c.ASN(geoip.ASNInput{ASN: args[0]})
			}),
	)
	return cmd
}

// verb is one intelligence command: it opens the sources the flags name,
// runs, and prints the result as JSON.
func (ic *intelCommand) verb(use, short string, args cobra.PositionalArgs, run intelRun) *cobra.Command {
	return &cobra.Command{
		Use: use, Short: short, Args: args,
		RunE: func(cmd *cobra.Command, args []string) error {
			fetcher, stop, err := ic.fetch.open(cmd.ErrOrStderr(), false)
			if err != nil {
				return err
			}
			defer stop()
			sources, err := intel.New(fetcher, ic.sources.config())
			if err != nil {
				return err // a flag's value: a usage error
			}
			defer sources.Close()
			res, err := run(cmd.Context(), sources, args)
			if err != nil {
				return failed(cmd, err)
			}
			if err := writeJSON(cmd.OutOrStdout(), res); err != nil {
				return &failure{err}
			}
			return nil
		},
	}
}
