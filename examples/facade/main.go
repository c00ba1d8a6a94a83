package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/webinfra/webinfra"
	"github.com/webinfra/webinfra/fetch"
)

func main() {
	private := flag.Bool("allow-private-networks", false, "let the fetch reach loopback and private addresses")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: facade [-allow-private-networks] URL")
		os.Exit(2)
	}
	client, err := webinfra.New(&webinfra.Options{Fetch: &fetch.Options{AllowPrivateNetworks: *private}})
	if err == nil {
		err = summarize(context.Background(), client, flag.Arg(0), os.Stdout)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "facade:", err)
		os.Exit(1)
	}
}

// summarize scrapes url once and runs the extractors on the page it got.
func summarize(ctx context.Context, c *webinfra.Client, url string, out io.Writer) error {
	page, err := c.Scrape(ctx, webinfra.ScrapeRequest{URL: url, Formats: []string{"raw_html"}})
	if err != nil {
		return err
	}
	article, err := c.Article(ctx, webinfra.ArticleInput{HTML: page.RawHTML, URL: page.FinalURL})
	if err != nil {
		return err
	}
	data, err := c.Structured(ctx, webinfra.StructuredInput{HTML: page.RawHTML, BaseURL: page.FinalURL})
	if err != nil {
		return err
	}
	tables, err := c.Tables(ctx, webinfra.TablesInput{HTML: page.RawHTML})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "%s (HTTP %d, %s tier)\n", page.FinalURL, page.StatusCode, page.TierUsed)
	fmt.Fprintf(out, "title: %s\npage type: %s\nlanguage: %s\n", article.Title, article.PageType, article.Language)
	var types []string
	if data.JSONLD != nil {
		types = data.JSONLD.Types
	}
	fmt.Fprintf(out, "JSON-LD types: %v; OpenGraph fields: %d; tables: %d\n\n", types, len(data.OpenGraph), len(tables.Tables))
	fmt.Fprintln(out, article.Markdown)
	return nil
}
