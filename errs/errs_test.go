package errs_test

import (
	"fmt"
	"io"
	"testing"

	"github.com/webinfra/webinfra/errs"
)

func TestKindSurvivesWrapping(t *testing.T) {
	t.Parallel()
	base := errs.Invalid("body.url", "must be http or https")
	wrapped := fmt.Errorf("scrape: %w", base)
	if got := errs.KindOf(wrapped); got != errs.KindInvalid {
		t.Fatalf("KindOf = %q, want invalid", got)
	}
	if got := errs.FieldOf(wrapped); got != "body.url" {
		t.Fatalf("FieldOf = %q", got)
	}
	if got := errs.KindOf(io.EOF); got != errs.KindInternal {
		t.Fatalf("plain error kind = %q, want internal", got)
	}
	if !errs.Is(errs.Wrap(errs.KindUpstream, io.EOF, "fetch"), errs.KindUpstream) {
		t.Fatal("Is(upstream) = false")
	}
}

func ExampleInvalid() {
	err := errs.Invalid("body.url", "must use %s", "https")
	fmt.Println(err, errs.KindOf(err))
	// Output: body.url: must use https invalid
}
