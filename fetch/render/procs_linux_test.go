//go:build linux

package render

import (
	"strings"
	"testing"
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
