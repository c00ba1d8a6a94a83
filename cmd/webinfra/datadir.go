package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/webinfra/webinfra/store/secretbox"
)

// openDataDir makes the data directory private and returns the box of the
// server's secret key. The directory is created 0700 (an existing one is
// tightened to 0700), files the process creates from now on are 0600
// (restrictUmask), and the database files already there are tightened to
// 0600: the database holds key hashes, e-mails and usage, and none of it
// is for other local users. The key is read from keyFile when given, else
// from <dir>/secret.key, created on the first start.
func openDataDir(dir, keyFile string) (*secretbox.Box, error) {
	restrictUmask()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return nil, fmt.Errorf("--data-dir %s: %w", dir, err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if name := e.Name(); strings.HasPrefix(name, "webinfra.db") || strings.HasPrefix(name, "queue.db") {
			if err := os.Chmod(filepath.Join(dir, name), 0o600); err != nil {
				return nil, err
			}
		}
	}
	var key []byte
	if keyFile != "" {
		if key, err = secretbox.ReadKeyFile(keyFile); err != nil {
			return nil, fmt.Errorf("--secret-key-file: %w", err)
		}
	} else if key, err = secretbox.LoadOrCreate(filepath.Join(dir, "secret.key")); err != nil {
		return nil, fmt.Errorf("secret key in %s: %w", dir, err)
	}
	return secretbox.New(key)
}
