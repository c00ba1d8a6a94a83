//go:build linux

package render

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
	"time"
)

// processesUsing lists the processes whose command line has a
// --user-data-dir argument that is dir or under it, keyed by pid with that
// directory. Chromium passes --user-data-dir to every child process, so
// this finds a browser's zygotes, renderers and utilities as well as the
// browser itself. The children rewrite their process title, which joins
// the arguments with spaces, so the argument is searched for, not split
// out.
func processesUsing(dir string) map[int]string {
	want := []byte("--user-data-dir=" + dir)
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	self := os.Getpid()
	found := make(map[int]string)
	for _, entry := range entries {
		pid, err := strconv.Atoi(entry.Name())
		if err != nil || pid == self {
			continue
		}
		cmdline, err := os.ReadFile("/proc/" + entry.Name() + "/cmdline")
		if err != nil {
			continue
		}
		if d, ok := userDataDir(cmdline, want); ok {
			found[pid] = d
		}
	}
	return found
}

// userDataDir finds want (--user-data-dir=dir) in a command line, as the
// whole directory or a parent of it, and returns the directory given.
func userDataDir(cmdline, want []byte) (string, bool) {
	for rest := cmdline; ; {
		i := bytes.Index(rest, want)
		if i < 0 {
			return "", false
		}
		if i > 0 && rest[i-1] != 0 && rest[i-1] != ' ' {
			rest = rest[i+len(want):]
			continue
		}
		arg := rest[i+len("--user-data-dir="):]
		if end := bytes.IndexAny(arg, "\x00 "); end >= 0 {
			arg = arg[:end]
		}
		tail := arg[len(want)-len("--user-data-dir="):]
		if len(tail) == 0 || tail[0] == '/' {
			return string(arg), true
		}
		rest = rest[i+len(want):]
	}
}

// killProcessesUsing kills (SIGKILL) every process that processesUsing(dir)
// finds, looking again until none has been seen for a few passes, since a
// child can fork while its parent dies. It gives up after two seconds.
func killProcessesUsing(dir string) {
	const quietPasses, pause, limit = 3, 10 * time.Millisecond, 2 * time.Second
	deadline := time.Now().Add(limit)
	for quiet := 0; quiet < quietPasses && time.Now().Before(deadline); time.Sleep(pause) {
		procs := processesUsing(dir)
		if len(procs) == 0 {
			quiet++
			continue
		}
		quiet = 0
		for pid := range procs {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}
