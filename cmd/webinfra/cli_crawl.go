package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/webinfra/webinfra/fetch/crawl"
)

// crawlCommand is `webinfra crawl URL...`.
type crawlCommand struct {
	fetch      fetchFlags
	out        output
	req        crawl.Request
	noProgress bool
}

func newCrawlCommand() *cobra.Command {
	c := &crawlCommand{}
	cmd := &cobra.Command{
		Use:   "crawl URL...",
		Short: "Crawl a site from one or more seed URLs and list its pages",
		Long: `Crawl from the seed URLs, following links on the seeds' sites (robots.txt
obeyed, at most --rate-per-host requests a second per host), and print one
line per page — status, URL, title — and a summary. With --json, print the
whole result as a /v1/crawl job returns it, each page's content included
(--format). A progress bar (pages done, queued, failed, rate) is drawn on
stderr when stderr is a terminal.`,
		Example: `  webinfra crawl https://example.com/ --max-pages 20
  webinfra crawl https://example.com/ --include '/blog/' --json > blog.json`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) == 0 {
				return fmt.Errorf("missing URL")
			}
			return nil
		},
		RunE: c.run,
	}
	fs := cmd.Flags()
	c.fetch.register(fs)
	c.out.register(fs)
	fs.IntVar(&c.req.MaxPages, "max-pages", crawl.DefaultMaxPages, "most pages fetched, failed ones included")
	fs.IntVar(&c.req.MaxDepth, "max-depth", crawl.DefaultMaxDepth, "most link hops from a seed")
	fs.StringArrayVar(&c.req.Include, "include", nil, "follow only links matching one of these regular expressions (repeatable)")
	fs.StringArrayVar(&c.req.Exclude, "exclude", nil, "do not follow links matching this regular expression (repeatable)")
	fs.BoolVar(&c.req.AllowSubdomains, "allow-subdomains", false, "also follow links to subdomains of the seeds' hosts")
	fs.BoolVar(&c.req.IgnoreRobots, "ignore-robots", false, "do not apply robots.txt rules")
	fs.BoolVar(&c.req.Sitemap, "sitemap", false, "also seed from the sites' sitemaps")
	fs.Float64Var(&c.req.RatePerHost, "rate-per-host", crawl.DefaultRatePerHost, "requests per second to any one host")
	fs.StringVar(&c.req.Format, "format", crawl.FormatMarkdown, "what each page carries in --json: markdown, html or full (both)")
	fs.BoolVar(&c.noProgress, "no-progress", false, "no progress bar, even on a terminal")
	return cmd
}

func (c *crawlCommand) run(cmd *cobra.Command, args []string) error {
	req := c.req
	req.Seeds = args
	fetcher, closeFetcher, err := c.fetch.open(cmd.ErrOrStderr(), false)
	if err != nil {
		return err
	}
	defer closeFetcher()
	opts := &crawl.Options{}
	if stderr := cmd.ErrOrStderr(); !c.noProgress && isTerminal(stderr) {
		bar := newCrawlProgress(stderr, req.CreditItems(), progressThrottle)
		defer bar.finish()
		opts.OnProgress = bar.update
	}
	res, err := crawl.Crawl(cmd.Context(), fetcher, req, opts)
	if res == nil {
		return failed(cmd, err)
	}
	// A crawl cut short (Ctrl-C) still has pages to show.
	if perr := c.out.print(cmd, res, func(w io.Writer) error { return writeCrawl(w, res) }); perr != nil {
		return perr
	}
	return failed(cmd, err)
}

// writeCrawl prints a crawl for people: one line per page (status, URL,
// title, or why it failed), then a summary.
func writeCrawl(w io.Writer, res *crawl.Result) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, p := range res.Pages {
		status, note := strconv.Itoa(p.StatusCode), p.Title
		if p.StatusCode == 0 {
			status = "ERR"
		}
		if p.Error != "" {
			note = strings.TrimSpace(note + " (" + p.Error + ")")
		}
		url := p.URL
		if p.FinalURL != "" {
			url += " -> " + p.FinalURL
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", status, url, note)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w, crawlSummary(res))
	return err
}

// crawlSummary is the last line of a crawl's people output.
func crawlSummary(res *crawl.Result) string {
	s := fmt.Sprintf("%d pages: %d crawled, %d failed, %d skipped by robots.txt",
		len(res.Pages), res.Crawled, res.Failed, res.SkippedByRobots)
	if res.Truncated {
		s += "; stopped at --max-pages with more pages waiting"
	}
	return s
}
