package mojibake

import (
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
)

// garble is what a UTF-8 text becomes read as enc and written as UTF-8.
func garble(t *testing.T, s string, enc *charmap.Charmap) string {
	t.Helper()
	out, err := enc.NewDecoder().String(s)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestRepairUndoesTheMixUp(t *testing.T) {
	for _, want := range []string{
		"It doesn’t have eyebrows — “really“.",
		"pet owners wound up in debt—nearly seven in ten",
		"The café’s crème brûlée costs 5 € — or £4… ™",
		"an emoji 🙂 and a CJK 漢字 and a no-break\u00a0space",
	} {
		for _, enc := range []*charmap.Charmap{charmap.ISO8859_1, charmap.Windows1252} {
			bad := garble(t, want, enc)
			if got := Repair(bad); got != want {
				t.Errorf("%s: Repair(%q) = %q, want %q", enc, bad, got, want)
			}
		}
	}
}

func TestRepairLeavesRealTextAlone(t *testing.T) {
	for _, s := range []string{
		"",
		"plain ASCII",
		"Ã© may be meant, and so may Ã and â alone; São Paulo; Âge",
		"a dash alone: â€ is no sequence, nor is â€x",
		"CAFÉ’S MENU: É… no, ÉCOLE—FIN",
		"crème brûlée, naïve, Ærøskøbing, ÿ, ô€ is not a sequence (ô needs three more)",
		"Ã€ is Ã followed by €: Ã leads two bytes, € stands for 0x80, and C3 80 is À",
		"\u00c2\u00a0",
		"invalid \xff bytes",
	} {
		want := s
		switch s {
		case "\u00c2\u00a0":
			want = "\u00a0"
		case "Ã€ is Ã followed by €: Ã leads two bytes, € stands for 0x80, and C3 80 is À":
			// Ã€ cannot be meant; the text went through the mix-up.
			want = "À is Ã followed by €: Ã leads two bytes, € stands for 0x80, and C3 80 is À"
		}
		if got := Repair(s); got != want {
			t.Errorf("Repair(%q) = %q, want %q", s, got, want)
		}
	}
}

// The right double quote's last byte, 0x9D, is one Windows-1252 leaves
// undefined: read as Latin-1 (or by a browser) it is the C1 control.
func TestRepairRightQuote(t *testing.T) {
	if got := Repair("â\u0080\u009creallyâ\u0080\u009d"); got != "“really”" {
		t.Errorf("got %q", got)
	}
}

func BenchmarkRepairClean(b *testing.B) {
	page := strings.Repeat("<p>Le barbecue charbon est le plus célèbre et le plus apprécié.</p>\n", 2000)
	b.SetBytes(int64(len(page)))
	for b.Loop() {
		Repair(page)
	}
}

// Repair keeps text valid, never makes it longer (a sequence stands for
// fewer bytes than it takes) and leaves text without a "Ã"-row lead alone.
func FuzzRepair(f *testing.F) {
	for _, s := range []string{"doesnâ€™t", "â\u0080\u009c", "Ã© café", "ðŸ™‚", "plain", "\u00c2\u00a0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := Repair(s)
		if utf8.ValidString(s) && !utf8.ValidString(got) {
			t.Fatalf("Repair(%q) = %q, not valid UTF-8", s, got)
		}
		if len(got) > len(s) {
			t.Fatalf("Repair(%q) = %q, longer", s, got)
		}
		if !strings.Contains(s, "\xc3") && got != s {
			t.Fatalf("Repair(%q) = %q, changed without a lead", s, got)
		}
	})
}
