//go:build linux || darwin || dragonfly || freebsd || illumos || netbsd || openbsd

package sqlite

import (
	"errors"
	"os"
	"syscall"

	"github.com/webinfra/webinfra/errs"
)

// lockFile opens (creating it) the lock file at path and takes an
// exclusive advisory lock on it without waiting. The lock goes with the
// returned file: closing it, or the process ending, releases it.
func lockFile(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, errs.Wrap(errs.KindInternal, err, "sqlite: open the lock file")
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err == nil {
		return f, nil
	}
	_ = f.Close()
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return nil, errs.New(errs.KindConflict,
			"sqlite: the database is already open (%s is locked): one process at a time may serve it", path)
	}
	return nil, errs.Wrap(errs.KindInternal, err, "sqlite: lock %s", path)
}
