package streamed

import (
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// FuzzComplete: whatever a page's markup and instructions, Complete
// neither panics nor loops, and leaves a tree the HTML renderer accepts.
func FuzzComplete(f *testing.F) {
	f.Add(`<!--$?--><template id="B:0"></template>x<!--/$--><div hidden id="S:0">y</div><script>$RC("B:0","S:0")</script>`)
	f.Add(`<div hidden id="S:0"><template id="P:0"></template></div><script>$RS("S:0","P:0");$RC("B:0","S:0")</script>`)
	f.Add(`<template id="B:1"></template><div hidden id="S:1"><!--/$--></div><script>$RC("B:1","S:1")</script>`)
	f.Add(`<div id="S:2"><div id="B:2"></div></div><script>$RS("S:2","B:2")$RC("B:2","S:2")</script>`)
	f.Fuzz(func(t *testing.T, page string) {
		doc, err := html.Parse(strings.NewReader(page))
		if err != nil {
			return
		}
		Complete(doc)
		if err := html.Render(new(strings.Builder), doc); err != nil {
			t.Fatalf("render after Complete: %v", err)
		}
	})
}
