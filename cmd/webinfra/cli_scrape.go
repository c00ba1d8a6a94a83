package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/webinfra/webinfra/fetch"
)

// scrapeFormat is one form `webinfra scrape --format` prints: the fetch
// format it asks for and the field of the result it prints.
type scrapeFormat struct {
	name string
	pick func(*fetch.ScrapeResult) string
}

var scrapeFormats = []scrapeFormat{
	{fetch.FormatMarkdown, func(r *fetch.ScrapeResult) string { return r.Markdown }},
	{fetch.FormatText, func(r *fetch.ScrapeResult) string { return r.Text }},
	{fetch.FormatHTML, func(r *fetch.ScrapeResult) string { return r.HTML }},
	{fetch.FormatRawHTML, func(r *fetch.ScrapeResult) string { return r.RawHTML }},
	{fetch.FormatLinks, func(r *fetch.ScrapeResult) string { return strings.Join(r.Links, "\n") }},
}

// scrapeFormatNames lists the formats for help and errors.
func scrapeFormatNames() string {
	names := make([]string, len(scrapeFormats))
	for i, f := range scrapeFormats {
		names[i] = f.name
	}
	return strings.Join(names, ", ")
}

// scrapeCommand is `webinfra scrape URL`.
type scrapeCommand struct {
	page            pageFlags
	out             output
	format          string
	mainContentOnly bool
	headers         []string
}

func newScrapeCommand() *cobra.Command {
	c := &scrapeCommand{}
	cmd := &cobra.Command{
		Use:   "scrape URL",
		Short: "Fetch one page and print it as markdown, text, HTML or its links",
		Long: `Fetch one page through the cascade (direct, then a headless browser when the
page is blocked or empty) and print it in one format. With --json, print the
whole result, as POST /v1/scrape answers it (formats: the one asked for).
A page answering 4xx or 5xx is printed and the exit status is 1.`,
		Example: `  webinfra scrape https://example.com/
  webinfra scrape https://example.com/ --format text --main-content-only
  webinfra scrape https://example.com/ --json | jq .status_code`,
		Args: oneArg("URL"),
		RunE: c.run,
	}
	fs := cmd.Flags()
	c.page.register(fs)
	c.out.register(fs)
	fs.StringVar(&c.format, "format", fetch.FormatMarkdown, "what to print: "+scrapeFormatNames())
	fs.BoolVar(&c.mainContentOnly, "main-content-only", false, "markdown and text carry the main content (the article), not the whole page")
	fs.StringArrayVarP(&c.headers, "header", "H", nil, `extra request header "Name: value" (repeatable)`)
	return cmd
}

func (c *scrapeCommand) run(cmd *cobra.Command, args []string) error {
	i := slices.IndexFunc(scrapeFormats, func(f scrapeFormat) bool { return f.name == c.format })
	if i < 0 {
		return fmt.Errorf("--format: unknown format %q (want one of %s)", c.format, scrapeFormatNames())
	}
	format := scrapeFormats[i]
	headers, err := parseHeaders(c.headers)
	if err != nil {
		return err
	}
	fetcher, closeFetcher, err := c.page.open(cmd.ErrOrStderr(), true)
	if err != nil {
		return err
	}
	defer closeFetcher()
	req := c.page.scrapeRequest(args[0], format.name)
	req.MainContentOnly, req.Headers = c.mainContentOnly, headers
	res, err := fetcher.Scrape(cmd.Context(), req)
	if err != nil {
		return failed(cmd, err)
	}
	err = c.out.print(cmd, res, func(w io.Writer) error { return writeText(w, format.pick(res)) })
	if err != nil {
		return err
	}
	return checkStatus(res.FinalURL, res.StatusCode)
}

// parseHeaders reads "Name: value" headers.
func parseHeaders(list []string) (map[string]string, error) {
	if len(list) == 0 {
		return nil, nil
	}
	out := make(map[string]string, len(list))
	for _, h := range list {
		name, value, ok := strings.Cut(h, ":")
		if name = strings.TrimSpace(name); !ok || name == "" {
			return nil, fmt.Errorf("--header %q: want \"Name: value\"", h)
		}
		out[name] = strings.TrimSpace(value)
	}
	return out, nil
}
