//go:build unix

package convert

import (
	"os/exec"
	"syscall"
)

// isolate starts cmd in its own process group and makes cancelling its
// context kill the whole group, so helpers a tesseract (or a wrapper
// script around it) started die with it instead of holding its pipes.
func isolate(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
