package main

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/webinfra/webinfra/billing"
	"github.com/webinfra/webinfra/fetch"
	"github.com/webinfra/webinfra/intel"
	"github.com/webinfra/webinfra/jobs"
	"github.com/webinfra/webinfra/server"
	"github.com/webinfra/webinfra/store/secretbox"
	"github.com/webinfra/webinfra/store/sqlite"
)

func newMCPCommand() *cobra.Command {
	var ff fetchFlags
	var sources sourceFlags
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Serve the tool catalog to a local agent over MCP (stdio)",
		Long: `Serve every tool of the catalog (scrape, scrape-llm-ready, crawl, extract-*,
get_job...) to a local agent over MCP on stdin and stdout. The server runs in
this process with the library's own fetch engine: no account, no key, nothing
charged. Its state (jobs) lives in a temporary directory removed on exit.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			fetcher, stop, err := ff.open(cmd.ErrOrStderr(), true)
			if err != nil {
				return err // the flags' error: a usage error
			}
			defer stop()
			ic, err := intel.New(fetcher, sources.config())
			if err != nil {
				return err // a flag's value: a usage error
			}
			defer ic.Close()
			ocr, err := sources.ocr(fetcher)
			if err != nil {
				return err // a flag's value: a usage error
			}
			solvers, err := sources.captcha(fetcher, ocr)
			if err != nil {
				return err // a flag's value: a usage error
			}
			err = serveMCPStdio(cmd.Context(), fetcher, server.Options{Intel: ic, OCR: ocr, Captcha: solvers}, &mcp.IOTransport{
				Reader: io.NopCloser(cmd.InOrStdin()), Writer: nopWriteCloser{cmd.OutOrStdout()},
			}, cmd.ErrOrStderr())
			if err != nil {
				return &failure{err}
			}
			return nil
		},
	}
	ff.register(cmd.Flags())
	sources.register(cmd.Flags())
	return cmd
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// serveMCPStdio builds the reference server in process, over a throwaway
// SQLite store and job queue, with one local account on the internal plan,
// and serves its MCP tools on transport until the client hangs up or ctx
// ends. Tool calls run through the same pipeline as over HTTP. engines
// carries the capabilities' sources (Intel, OCR); the rest of the
// options are set here.
func serveMCPStdio(ctx context.Context, fetcher *fetch.Fetcher, engines server.Options, transport mcp.Transport, stderr io.Writer) error {
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	dir, err := os.MkdirTemp("", "webinfra-mcp-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)

	st, err := sqlite.Open(ctx, filepath.Join(dir, "webinfra.db"))
	if err != nil {
		return err
	}
	defer st.Close()
	key := make([]byte, secretbox.KeySize) // the store lives and dies with this process, and so does its key
	rand.Read(key)
	secrets, err := secretbox.New(key)
	if err != nil {
		return err
	}
	queue, err := jobs.OpenSQLite(ctx, filepath.Join(dir, "queue.db"), st, &jobs.Options{
		Runners: server.JobRunners(fetcher, secrets), WebhookClient: fetcher.Client(),
		CheckWebhookTarget: fetcher.CheckTarget, Logger: log,
	})
	if err != nil {
		return err
	}
	opts := engines
	opts.Billing, opts.Logger, opts.Queue, opts.Secrets = billing.DefaultConfig(), log, queue, secrets
	srv, err := server.New(st, fetcher, &opts)
	if err != nil {
		queue.Stop(ctx)
		return err
	}
	defer srv.Close(context.WithoutCancel(ctx))
	if err := queue.Start(ctx); err != nil {
		return err
	}
	defer queue.Stop(context.WithoutCancel(ctx))
	apiKey, err := srv.LocalKey(ctx, "local@localhost")
	if err != nil {
		return fmt.Errorf("local account: %w", err)
	}
	err = srv.MCPServer(apiKey).Run(ctx, transport)
	if errors.Is(err, context.Canceled) || errors.Is(err, io.EOF) {
		err = nil // the agent hung up, or a signal: a normal end
	}
	return err
}
