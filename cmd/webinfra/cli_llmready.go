package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/webinfra/webinfra/fetch"
)

// llmReadyCommand is `webinfra llm-ready URL`.
type llmReadyCommand struct {
	page          pageFlags
	out           output
	chunkSize     int
	chunkOverlap  int
	mode          string
	includeSource bool
}

func newLlmReadyCommand() *cobra.Command {
	c := &llmReadyCommand{}
	cmd := &cobra.Command{
		Use:   "llm-ready URL",
		Short: "Fetch a page and print its article in chunks for embedding",
		Long: `Fetch a page, extract its article and split it into chunks sized for an
embedding model, each with byte offsets into the page as fetched. With --json,
print the result as POST /v1/scrape/llm-ready answers it.`,
		Example: `  webinfra llm-ready https://example.com/article
  webinfra llm-ready https://example.com/article --chunk-size 256 --json`,
		Args: oneArg("URL"),
		RunE: c.run,
	}
	fs := cmd.Flags()
	c.page.register(fs)
	c.out.register(fs)
	fs.IntVar(&c.chunkSize, "chunk-size", 0, "most tokens in a chunk: 32 to 8192; 0: 512")
	fs.IntVar(&c.chunkOverlap, "chunk-overlap", 0, "tokens each chunk repeats from the previous one: -1 (none), up to half of --chunk-size; 0: 64 or a quarter of --chunk-size")
	fs.StringVar(&c.mode, "mode", "", "article extraction: accurate (default) or fast")
	fs.BoolVar(&c.includeSource, "include-source", false, "with --json, also return the page's bytes that the offsets index")
	return cmd
}

func (c *llmReadyCommand) run(cmd *cobra.Command, args []string) error {
	fetcher, closeFetcher, err := c.page.open(cmd.ErrOrStderr(), true)
	if err != nil {
		return err
	}
	defer closeFetcher()
	res, err := fetcher.LlmReady(cmd.Context(), fetch.LlmReadyRequest{
		URL: args[0], ChunkSize: c.chunkSize, ChunkOverlap: c.chunkOverlap, Mode: c.mode,
		Tier: fetch.Tier(c.page.tier), WaitFor: c.page.waitFor, RespectRobots: c.page.respectRobots,
		UseResidentialProxy: c.page.residential(), IncludeSource: c.includeSource,
	})
	if err != nil {
		return failed(cmd, err)
	}
	if err := c.out.print(cmd, res, func(w io.Writer) error { return writeChunks(w, res) }); err != nil {
		return err
	}
	return checkStatus(res.FinalURL, res.StatusCode)
}

// writeChunks prints an llm-ready result for people: a header line, then
// each chunk under a line giving its number, headings, tokens and byte
// range in the page.
func writeChunks(w io.Writer, res *fetch.LlmReadyResult) error {
	title := res.Title
	if title == "" {
		title = res.FinalURL
	}
	fmt.Fprintf(w, "%s: %d chunks of at most %d tokens (overlap %d), from the %s\n",
		title, len(res.Chunks), res.ChunkSize, res.ChunkOverlap, res.ContentSource)
	for _, ch := range res.Chunks {
		head := fmt.Sprintf("[%d]", ch.Index+1)
		if len(ch.HeadingPath) > 0 {
			head += " " + strings.Join(ch.HeadingPath, " › ") + " ·"
		}
		fmt.Fprintf(w, "\n%s %d tokens · bytes %d-%d\n", head, ch.TokenCount, ch.Start, ch.End)
		if err := writeText(w, ch.Text); err != nil {
			return err
		}
	}
	return nil
}
