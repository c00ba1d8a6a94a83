// Package streamed puts the parts of a streamed server-rendered page
// where the page's own scripts would put them.
//
// React's streaming server renderer (Next.js's App Router, Remix and
// others) sends a page's shell first, with a fallback ("Loading...") in
// place of each part not ready yet, then sends each part when it is, at
// the end of the document, inside a hidden <div id="S:…">, followed by an
// inline script that moves it into place:
//
//	<!--$?--><template id="B:0"></template><div>Loading…</div><!--/$-->
//	…
//	<div hidden id="S:0"><article>…the page's text…</article></div>
//	<script>$RC("B:0","S:0")</script>
//
// A browser runs the script; an extractor reading the HTML does not, so
// it sees the fallback where the text belongs and the text in a hidden
// element at the end of the page, which boilerplate filters drop (hidden
// parts are not content). Complete runs those instructions on a parsed
// tree: $RC and $RR (complete a boundary: the fallback is replaced by the
// part) and $RS (complete a segment: a placeholder <template id="P:…"> is
// replaced by the part), in document order, as the browser would.
//
// Hand-written: no Go library completes React's streamed HTML; the
// instructions are a few lines of React's inline runtime
// (react-dom/server's ReactDOMFizzInstructionSet), read from the page.
package streamed
