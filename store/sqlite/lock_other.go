//go:build !(linux || darwin || dragonfly || freebsd || illumos || netbsd || openbsd)

package sqlite

import (
	"os"

	"github.com/webinfra/webinfra/errs"
)

// lockFile creates the lock file at path but takes no lock: this platform
// has no flock, so a second process opening the database is not detected.
func lockFile(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, errs.Wrap(errs.KindInternal, err, "sqlite: open the lock file")
	}
	return f, nil
}
