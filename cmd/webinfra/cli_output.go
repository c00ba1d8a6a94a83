package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"golang.org/x/term"
)

// output is the form of a command's result on stdout: for people
// (markdown or text) or, with --json, the JSON the HTTP API answers.
type output struct {
	json bool
}

// register declares --json in fs.
func (o *output) register(fs *pflag.FlagSet) {
	fs.BoolVar(&o.json, "json", false, "print the result as JSON, the same the HTTP API answers")
}

// print writes v to cmd's stdout as indented JSON with --json, else calls
// people to write v's human form. A failed write is a failure.
func (o *output) print(cmd *cobra.Command, v any, people func(w io.Writer) error) error {
	w := cmd.OutOrStdout()
	var err error
	if o.json {
		err = writeJSON(w, v)
	} else {
		err = people(w)
	}
	if err != nil {
		return &failure{err}
	}
	return nil
}

// writeJSON writes v as indented JSON, HTML left unescaped (pages are
// full of < and >).
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// writeText writes s, ending it with a newline when it does not end with
// one; nothing for an empty s.
func writeText(w io.Writer, s string) error {
	if s == "" {
		return nil
	}
	if !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	_, err := io.WriteString(w, s)
	return err
}

// checkStatus fails a command whose page answered an HTTP error, after
// its result was printed: like curl --fail-with-body, the body is shown
// and the exit status says it was an error page.
func checkStatus(url string, status int) error {
	if status < 400 {
		return nil
	}
	return &failure{fmt.Errorf("%s answered HTTP %d %s", url, status, http.StatusText(status))}
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
