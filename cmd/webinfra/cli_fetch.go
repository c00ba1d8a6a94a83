package main

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/webinfra/webinfra/fetch"
)

// fetchFlags are the fetch engine's settings, shared by every command that
// fetches. Those that `serve` also has read the same environment
// variables and mean the same.
type fetchFlags struct {
	allowPrivateNetworks bool
	allowNetworks        string
	timeout              time.Duration
	caFile               string
	browserURL           string
	proxies              []string
}

// register declares the flags in fs.
func (f *fetchFlags) register(fs *pflag.FlagSet) {
	fs.BoolVar(&f.allowPrivateNetworks, "allow-private-networks", envBool("WEBINFRA_ALLOW_PRIVATE_NETWORKS"),
		"let fetches reach loopback and private addresses, which the SSRF guard refuses otherwise (WEBINFRA_ALLOW_PRIVATE_NETWORKS=1)")
	fs.StringVar(&f.allowNetworks, "allow-networks", env("WEBINFRA_ALLOW_NETWORKS", ""),
		"comma-separated networks (CIDR or single addresses) fetches may reach on any port, a narrower door than --allow-private-networks (WEBINFRA_ALLOW_NETWORKS)")
	fs.DurationVar(&f.timeout, "timeout", fetch.DefaultTimeout, "longest fetch of one page, redirects and every tier tried included")
	fs.StringVar(&f.caFile, "ca-file", env("WEBINFRA_CA_FILE", ""), "PEM file of extra root certificates for outbound TLS (WEBINFRA_CA_FILE)")
	fs.StringVar(&f.browserURL, "browser-url", env("WEBINFRA_BROWSER_URL", ""),
		"Chrome DevTools endpoint of a remote browser for the render tier (WEBINFRA_BROWSER_URL); empty: local Chromium when installed")
	fs.StringSliceVar(&f.proxies, "proxies", envList("WEBINFRA_PROXIES"),
		"comma-separated proxy URLs of the residential tier, which the cascade may then reach (WEBINFRA_PROXIES)")
}

// open builds the fetcher the flags describe. With render, the render
// tier gets a browser (started with the first page that needs it); the
// returned stop function stops it. Its errors are the flags' (usage errors).
func (f *fetchFlags) open(stderr io.Writer, render bool) (fetcher *fetch.Fetcher, stop func(), err error) {
	opts := &fetch.Options{AllowPrivateNetworks: f.allowPrivateNetworks, Timeout: f.timeout, Proxies: f.proxies}
	if f.timeout <= 0 {
		return nil, nil, errors.New("--timeout must be positive")
	}
	if opts.AllowNetworks, err = parseNetworks(f.allowNetworks); err != nil {
		return nil, nil, fmt.Errorf("--allow-networks: %w", err)
	}
	if f.caFile != "" {
		if opts.RootCAs, err = loadCAs(f.caFile); err != nil {
			return nil, nil, err
		}
	}
	stop = func() {}
	if render {
		log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
		pool, err := startRenderer(f.browserURL, log)
		if err != nil {
			return nil, nil, err
		}
		if pool != nil {
			opts.Renderer, stop = pool, func() { pool.Close() }
		}
	}
	if fetcher, err = fetch.New(opts); err != nil {
		stop()
		return nil, nil, err
	}
	return fetcher, stop, nil
}

// residential reports whether the cascade may go on to the residential
// tier: proxies were given, so the user wants them used.
func (f *fetchFlags) residential() bool { return len(f.proxies) > 0 }

// envList reads a comma-separated environment variable, empty items left
// out.
func envList(name string) []string {
	var out []string
	for _, item := range strings.Split(os.Getenv(name), ",") {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}

// pageFlags choose how one page is fetched, for the commands that fetch
// one page: scrape, llm-ready and extract of a URL.
type pageFlags struct {
	fetchFlags
	tier          string
	waitFor       string
	respectRobots bool
}

// register declares the flags in fs.
func (p *pageFlags) register(fs *pflag.FlagSet) {
	p.fetchFlags.register(fs)
	fs.StringVar(&p.tier, "tier", "", "pin one fetch tier: direct, render (a headless browser) or residential (--proxies); empty: the cascade starts direct and escalates when the page is blocked or empty")
	fs.StringVar(&p.waitFor, "wait-for", "", "a CSS selector the page must contain: the render tier waits for it, a static page without it escalates to the render tier")
	fs.BoolVar(&p.respectRobots, "respect-robots", false, "refuse a URL the site's robots.txt disallows")
}

// scrapeRequest is the scrape of url in the given formats.
func (p *pageFlags) scrapeRequest(url string, formats ...string) fetch.ScrapeRequest {
	return fetch.ScrapeRequest{URL: url, Formats: formats, Tier: fetch.Tier(p.tier), WaitFor: p.waitFor,
		RespectRobots: p.respectRobots, UseResidentialProxy: p.residential()}
}
