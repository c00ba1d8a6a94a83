//go:build linux

package render

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/webinfra/webinfra/internal/cputime"
)

func TestUserDataDir(t *testing.T) {
	t.Parallel()
	const dir = "/tmp/webinfra-render-12"
	cases := []struct {
		cmdline string
		want    string
		ok      bool
	}{
		{"/usr/lib/chromium/chromium\x00--user-data-dir=/tmp/webinfra-render-12/browser-1\x00about:blank", "/tmp/webinfra-render-12/browser-1", true},
		{"/usr/lib/chromium/chromium --type=renderer --user-data-dir=/tmp/webinfra-render-12/browser-1 --lang=en", "/tmp/webinfra-render-12/browser-1", true},
		{"chromium\x00--user-data-dir=/tmp/webinfra-render-12", dir, true},
		{"chromium\x00--user-data-dir=/tmp/webinfra-render-123/browser-1", "", false},
		{"chromium\x00--x--user-data-dir=/tmp/webinfra-render-12/b", "", false},
		{"chromium --user-data-dir=/tmp/webinfra-render-123 --user-data-dir=/tmp/webinfra-render-12/b", "/tmp/webinfra-render-12/b", true},
		{"sleep\x0010", "", false},
	}
	for _, tc := range cases {
		got, ok := userDataDir([]byte(tc.cmdline), []byte("--user-data-dir="+dir))
		if got != tc.want || ok != tc.ok {
			t.Errorf("%q: got %q %v, want %q %v", strings.ReplaceAll(tc.cmdline, "\x00", " "), got, ok, tc.want, tc.ok)
		}
	}
}

// cpuTime is the CPU time used so far by this process and by the
// processes that use dir as (or under) their user-data-dir, with the
// children they have reaped: a benchmark's cost, whatever else the machine
// is doing.
func cpuTime(dir string) time.Duration {
	total := cputime.Process()
	for pid := range processesUsing(dir) {
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			continue
		}
		// After the command name: state, ..., utime (field 14), stime,
		// cutime, cstime, in clock ticks of 10ms.
		fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
		for _, f := range fields[11:15] {
			ticks, _ := strconv.Atoi(f)
			total += time.Duration(ticks) * 10 * time.Millisecond
		}
	}
	return total
}
