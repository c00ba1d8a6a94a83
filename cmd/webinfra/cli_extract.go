package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/webinfra/webinfra/extract/contacts"
	"github.com/webinfra/webinfra/extract/content"
	"github.com/webinfra/webinfra/extract/structured"
	"github.com/webinfra/webinfra/extract/tables"
	"github.com/webinfra/webinfra/fetch"
	"github.com/webinfra/webinfra/server"
)

// extractCommand is `webinfra extract`: its flags are every extraction's.
type extractCommand struct {
	page    pageFlags
	out     output
	baseURL string
}

// extraction runs one extractor over a document and returns its result
// (printed with --json) and the writer of its human form.
type extraction func(cmd *cobra.Command, doc *document) (result any, people func(io.Writer) error, err error)

func newExtractCommand() *cobra.Command {
	c := &extractCommand{}
	cmd := &cobra.Command{
		Use:   "extract clean|structured|contacts|tables FILE|URL",
		Short: "Extract the article, structured data, contacts or tables of a page",
		Long: `Extract from a page: an argument that is an http(s) URL is fetched, any
other names a file to read, and - reads stdin. Files are HTML or plain text,
UTF-8. With --json, print the result as the HTTP API's /v1/extract/...
endpoints answer it.`,
		Example: `  webinfra extract clean https://example.com/article
  webinfra extract tables report.html --json
  curl -s https://example.com/contact | webinfra extract contacts - --base-url https://example.com/contact`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return fmt.Errorf("missing what to extract: clean, structured, contacts or tables")
			}
			return fmt.Errorf("unknown extraction %q: want clean, structured, contacts or tables", args[0])
		},
	}
	fs := cmd.PersistentFlags()
	c.page.register(fs)
	c.out.register(fs)
	fs.StringVar(&c.baseURL, "base-url", "", "for a FILE: the page's URL, to make its relative links absolute")
	cmd.AddCommand(c.cleanCommand(), c.structuredCommand(), c.contactsCommand(), c.tablesCommand())
	return cmd
}

// subcommand builds `webinfra extract name FILE|URL`, which loads the
// document and runs run over it.
func (c *extractCommand) subcommand(name, short string, run extraction) *cobra.Command {
	return &cobra.Command{
		Use:   name + " FILE|URL",
		Short: short,
		Args:  oneArg("FILE or URL"),
		RunE: func(cmd *cobra.Command, args []string) error {
			doc, err := c.load(cmd, args[0])
			if err != nil {
				return err
			}
			res, people, err := run(cmd, doc)
			if err != nil {
				return failed(cmd, err)
			}
			if err := c.out.print(cmd, res, people); err != nil {
				return err
			}
			return checkStatus(doc.url, doc.status)
		},
	}
}

// load reads the document an argument names: a URL fetched, else a file
// (or stdin for -).
func (c *extractCommand) load(cmd *cobra.Command, arg string) (*document, error) {
	if !isWebURL(arg) {
		return readDocument(cmd.InOrStdin(), arg, c.baseURL)
	}
	fetcher, closeFetcher, err := c.page.open(cmd.ErrOrStderr(), true)
	if err != nil {
		return nil, err
	}
	defer closeFetcher()
	doc, err := fetchDocument(cmd.Context(), fetcher, c.page.scrapeRequest(arg, fetch.FormatRawHTML))
	if err != nil {
		return nil, failed(cmd, err)
	}
	return doc, nil
}

func (c *extractCommand) cleanCommand() *cobra.Command {
	var mode, format string
	cmd := c.subcommand("clean", "Print a page's article (main content) as markdown or text",
		func(cmd *cobra.Command, doc *document) (any, func(io.Writer) error, error) {
			res, err := content.Extract(cmd.Context(), content.Input{HTML: doc.body, URL: doc.url, Mode: content.Mode(mode)}, nil)
			if err != nil {
				return nil, nil, err
			}
			return &server.ExtractCleanResult{Result: *res, Source: doc.source}, func(w io.Writer) error {
				return writeArticle(w, cmd.ErrOrStderr(), res, format)
			}, nil
		})
	cmd.PreRunE = func(*cobra.Command, []string) error {
		if format != "markdown" && format != "text" {
			return fmt.Errorf("--format: want markdown or text, not %q", format)
		}
		return nil
	}
	cmd.Flags().StringVar(&mode, "mode", "", "accurate (default) or fast: a little less precise, several times quicker")
	cmd.Flags().StringVar(&format, "format", "markdown", "what to print: markdown or text")
	return cmd
}

func (c *extractCommand) structuredCommand() *cobra.Command {
	return c.subcommand("structured", "Print a page's structured data: JSON-LD, Microdata, RDFa, OpenGraph, Twitter cards, meta tags, links",
		func(cmd *cobra.Command, doc *document) (any, func(io.Writer) error, error) {
			res, err := structured.Extract(cmd.Context(), structured.Input{HTML: doc.body, BaseURL: doc.url}, nil)
			if err != nil {
				return nil, nil, err
			}
			return &server.ExtractStructuredResult{Result: *res, Source: doc.source}, func(w io.Writer) error {
				return writeStructured(w, res)
			}, nil
		})
}

func (c *extractCommand) contactsCommand() *cobra.Command {
	var region string
	cmd := c.subcommand("contacts", "Print the e-mail addresses, phone numbers and social profiles of a page or text",
		func(cmd *cobra.Command, doc *document) (any, func(io.Writer) error, error) {
			in := contacts.Input{HTML: doc.body, DefaultRegion: region, BaseURL: doc.url}
			if doc.plain {
				in.HTML, in.Text = "", doc.body
			}
			res, err := contacts.Extract(cmd.Context(), in, nil)
			if err != nil {
				return nil, nil, err
			}
			return res, func(w io.Writer) error { return writeContacts(w, res) }, nil
		})
	cmd.Flags().StringVar(&region, "default-region", "", "ISO 3166-1 region (GB, US) of phone numbers written without a country code; empty: inferred from the URL or the page's language")
	return cmd
}

func (c *extractCommand) tablesCommand() *cobra.Command {
	var records bool
	cmd := c.subcommand("tables", "Print every table of a page, spans expanded",
		func(cmd *cobra.Command, doc *document) (any, func(io.Writer) error, error) {
			res, err := tables.Extract(cmd.Context(), tables.Input{HTML: doc.body, Records: records}, nil)
			if err != nil {
				return nil, nil, err
			}
			return res, func(w io.Writer) error { return writeTables(w, res) }, nil
		})
	cmd.Flags().BoolVar(&records, "records", false, "with --json, also give each row as an object keyed by header")
	return cmd
}
