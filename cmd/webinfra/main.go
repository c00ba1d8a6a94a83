package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := exitCode(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
	stop()
	os.Exit(code)
}

// run executes the command line args (without the program name), writing
// results to stdout and errors to stderr: a failed command's error is
// printed there and returned (exitCode gives its exit status).
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	root := newRootCommand(stdout, stderr)
	root.SetArgs(args)
	cmd, err := root.ExecuteContextC(ctx)
	if err != nil {
		report(stderr, cmd, err)
	}
	return err
}

// newRootCommand builds the command tree. stdout gets results, stderr
// errors, notices and the crawl's progress bar.
func newRootCommand(stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:   "webinfra",
		Short: "Web infrastructure for AI agents: scrape, crawl and extract from a terminal, or run the server",
		Long: `webinfra fetches and reads web pages from a terminal, calling the library
directly (no server, no account), and runs the reference /v1 server.

Results go to stdout: markdown or text for people, or with --json the same
JSON the HTTP API answers. Errors go to stderr; the exit status is 1 when an
operation fails and 2 when the command line is wrong.`,
		// No Args: cobra then refuses an unknown command, with suggestions.
		RunE: func(cmd *cobra.Command, _ []string) error {
			fmt.Fprint(cmd.ErrOrStderr(), cmd.UsageString())
			return errNoCommand
		},
		SilenceErrors: true, // run reports them
		SilenceUsage:  true,
	}
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.CompletionOptions.HiddenDefaultCmd = true

	root.AddCommand(
		newServeCommand(),
		newScrapeCommand(),
		newLlmReadyCommand(),
		newCrawlCommand(),
		newExtractCommand(),
		newIntelCommand(),
	)
	root.AddCommand(newMCPCommand()) // mcp.go: the tool server over stdio
	return root
}
