package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/spf13/cobra"

	"github.com/webinfra/webinfra/errs"
)

// Exit statuses.
const (
	exitFailure = 1 // the operation ran and failed: a fetch, a file, a page answering 4xx or 5xx
	exitUsage   = 2 // the command line is wrong: an unknown command or flag, a missing or bad argument
)

// errNoCommand is `webinfra` run alone: the usage is printed, nothing else.
var errNoCommand = errors.New("no command given")

// failure marks the error of an operation that ran and failed (exit 1).
// Every other error of the command tree — cobra's own (unknown command or
// flag, wrong number of arguments) and bad input — is a usage error
// (exit 2).
type failure struct{ err error }

func (f *failure) Error() string { return f.err.Error() }
func (f *failure) Unwrap() error { return f.err }

// exitCode is the process's exit status for run's error.
func exitCode(err error) int {
	var f *failure
	switch {
	case err == nil:
		return 0
	case errors.As(err, &f):
		return exitFailure
	}
	return exitUsage
}

// report prints a command's error to stderr, with a pointer to the help
// for a usage error. flag.ErrHelp (the usage was printed) and
// errNoCommand print nothing more.
func report(stderr io.Writer, cmd *cobra.Command, err error) {
	if errors.Is(err, flag.ErrHelp) || errors.Is(err, errNoCommand) {
		return
	}
	fmt.Fprintln(stderr, "webinfra:", err)
	if exitCode(err) == exitUsage && cmd != nil {
		fmt.Fprintf(stderr, "Run '%s --help' for usage.\n", cmd.CommandPath())
	}
}

// failed classifies the error of an operation a command ran. Invalid
// input (a URL that is not http(s), an out-of-range --max-pages) is a
// usage error, reworded to name the flag or argument at fault when the
// library names its field; anything else is a failure.
func failed(cmd *cobra.Command, err error) error {
	if err == nil {
		return nil
	}
	if !errs.Is(err, errs.KindInvalid) {
		return &failure{err}
	}
	var e *errs.Error
	errors.As(err, &e)
	msg := e.Message
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	switch name := fieldName(e.Field); {
	case name == "url" || name == "seeds":
		return fmt.Errorf("URL: %s", msg)
	case name != "" && cmd.Flags().Lookup(name) != nil:
		return fmt.Errorf("--%s: %s", name, msg)
	}
	return err
}

// fieldIndex is the index or prefix a library puts around a field name:
// "body.", "[2]".
var fieldIndex = regexp.MustCompile(`^body\.|\[\d+\]$`)

// fieldName turns a library's field ("max_pages", "include[0]",
// "body.url") into the flag that sets it ("max-pages", "include", "url").
func fieldName(field string) string {
	return strings.ReplaceAll(fieldIndex.ReplaceAllString(field, ""), "_", "-")
}

// oneArg requires exactly one positional argument, called name in the
// error.
func oneArg(name string) cobra.PositionalArgs {
	return func(_ *cobra.Command, args []string) error {
		switch {
		case len(args) == 0:
			return fmt.Errorf("missing %s", name)
		case len(args) > 1:
			return fmt.Errorf("want one %s, got %d arguments: %s", name, len(args), strings.Join(args, " "))
		}
		return nil
	}
}
