//go:build !unix

package convert

import "os/exec"

// isolate leaves cmd as it is: without process groups, cancelling the
// context kills the process itself (exec.CommandContext's default) and
// exec.Cmd.WaitDelay bounds the wait for its pipes.
func isolate(cmd *exec.Cmd) {}
