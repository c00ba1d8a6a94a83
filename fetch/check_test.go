package fetch

import (
	"context"
	"testing"

	"github.com/webinfra/webinfra/errs"
)

func TestCheckTarget(t *testing.T) {
	t.Parallel()
	strict, err := New(nil)
	if err != nil {
		t.Fatal(err)
	}
	open, err := New(&Options{AllowPrivateNetworks: true})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	cases := []struct {
		url  string
		kind errs.Kind // from the strict guard
	}{
		{"https://127.0.0.1/hook", errs.KindForbidden},
		{"https://localhost:8443/hook", errs.KindForbidden},
		{"https://169.254.169.254/", errs.KindForbidden},
		{"https://[::ffff:10.0.0.1]/", errs.KindForbidden},
		{"https://192.168.1.1/", errs.KindForbidden},
		{"https://8.8.8.8:8443/", errs.KindForbidden}, // a port outside 80/443
		{"ftp://example.com/", errs.KindInvalid},
		{"https://user:pw@8.8.8.8/", errs.KindInvalid},
		{"https://8.8.8.8:99999/", errs.KindInvalid},
	}
	for _, c := range cases {
		if got := errs.KindOf(strict.CheckTarget(ctx, c.url)); got != c.kind {
			t.Errorf("strict CheckTarget(%s) kind %q, want %q", c.url, got, c.kind)
		}
	}
	// Public literal addresses on allowed ports pass without any lookup
	// leaving the machine.
	if err := strict.CheckTarget(ctx, "https://8.8.8.8/hook"); err != nil {
		t.Errorf("public address refused: %v", err)
	}
	if err := open.CheckTarget(ctx, "https://127.0.0.1:8443/hook"); err != nil {
		t.Errorf("AllowPrivateNetworks still refuses loopback: %v", err)
	}
}
