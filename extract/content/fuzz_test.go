package content

import (
	"context"
	"testing"
)

// FuzzExtract: whatever the page, both modes return a result or a
// clear error, never a panic.
func FuzzExtract(f *testing.F) {
	f.Add(`<html><body><article><h1>Title</h1><p>Some text of the article, long enough to be one.</p></article></body></html>`, false)
	f.Add(`<div role="tabpanel" hidden><p>Panel</p></div><button aria-controls="x">b</button><div id="x" aria-hidden="true" style="display:none">y</div>`, true)
	f.Add(`<!--$?--><template id="B:0"></template>x<!--/$--><div hidden id="S:0"><p>y</p></div><script>$RC("B:0","S:0")</script>`, false)
	f.Add(`<ul><li><a href="/a"><span>One</span><span>Two three four five</span></a></li><li><a href="/b">Six seven eight nine ten</a></li></ul>`, true)
	f.Fuzz(func(t *testing.T, page string, fast bool) {
		mode := ModeAccurate
		if fast {
			mode = ModeFast
		}
		res, err := Extract(context.Background(), Input{HTML: page, URL: "https://example.com/p", Mode: mode}, nil)
		if err == nil && res == nil {
			t.Fatal("nil result without an error")
		}
	})
}
