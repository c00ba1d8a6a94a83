package main

import (
	"errors"
	"flag"
	"fmt"

	"github.com/spf13/cobra"
)

// newServeCommand wraps serve (serve.go), which keeps its own flag set
// with environment fallbacks: cobra passes the arguments through
// unparsed, and `webinfra serve -h` and `webinfra help serve` print that
// flag set.
func newServeCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:                "serve [flags]",
		Short:              "Run the reference /v1 server (embedded SQLite store by default)",
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			// Parse once up front so a bad flag is a usage error (its
			// message and the flag list go to stderr, as before) and -h
			// is not an error at all.
			switch _, err := parseServeFlags(args, cmd.ErrOrStderr()); {
			case errors.Is(err, flag.ErrHelp):
				return nil
			case err != nil:
				return err
			}
			if err := serve(cmd.Context(), args, cmd.OutOrStdout(), cmd.ErrOrStderr()); err != nil {
				return &failure{err}
			}
			return nil
		},
	}
	cmd.SetHelpFunc(func(cmd *cobra.Command, _ []string) {
		w := cmd.OutOrStdout()
		fmt.Fprintf(w, "%s\n\nUsage:\n  webinfra serve [flags]\n\nFlags (each also read from the environment variable named):\n", cmd.Short)
		fs := serveFlags(&serveConfig{})
		fs.SetOutput(w)
		fs.PrintDefaults()
	})
	return cmd
}
