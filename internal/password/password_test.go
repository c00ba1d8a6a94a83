package password_test

import (
	"strings"
	"testing"

	"github.com/webinfra/webinfra/internal/password"
)

var fast = password.Params{MemoryKiB: 64, Time: 1, Threads: 1}

func TestHashVerify(t *testing.T) {
	t.Parallel()
	h := password.Hash("correct horse", fast)
	if !strings.HasPrefix(h, "$argon2id$v=19$m=64,t=1,p=1$") {
		t.Fatalf("unexpected PHC string %q", h)
	}
	if ok, err := password.Verify("correct horse", h); !ok || err != nil {
		t.Fatalf("Verify(right) = %v, %v", ok, err)
	}
	if ok, _ := password.Verify("wrong horse", h); ok {
		t.Fatal("Verify(wrong) = true")
	}
	if h == password.Hash("correct horse", fast) {
		t.Fatal("two hashes of one password share a salt")
	}
}

func TestVerifyRejectsMalformed(t *testing.T) {
	t.Parallel()
	for _, phc := range []string{"", "$argon2i$v=19$m=64,t=1,p=1$c2FsdA$a2V5", "$argon2id$v=18$m=64,t=1,p=1$c2FsdA$a2V5", "$argon2id$v=19$m=64,t=0,p=1$c2FsdA$a2V5", "$argon2id$v=19$m=64,t=1,p=1$!!$a2V5"} {
		if _, err := password.Verify("x", phc); err == nil {
			t.Errorf("Verify(%q) accepted a malformed hash", phc)
		}
	}
}
