package content

import "golang.org/x/net/html"

// dropUndrawnSVG removes from doc the parts of inline SVG that are never
// drawn on the page, yet hold text an extractor reads when it takes an
// element's text whole (go-trafilatura's last resort does, from the
// page's whole body):
//
//   - <title> and <desc>: an image's accessible name and description,
//     which a screen reader announces and a browser shows at most as a
//     tooltip;
//   - <symbol> and <defs>: templates drawn only where a <use> points at
//     them (an icon sprite: a <symbol> per icon, each titled "arrow-down",
//     "cart", "facebook", run together as a line of words);
//   - <metadata>, <style> and <script>.
//
// What an SVG draws (<text> and the like) stays. On the WCXB development
// set this changed six pages, all for the better (icon sprites' titles
// gone from a product page, listings and threads); dropping whole <svg>
// elements instead changed 40, 25 for the worse: some draw their text.
func dropUndrawnSVG(doc *html.Node) {
	var drop []*html.Node
	for n := range doc.Descendants() {
		if n.Type != html.ElementNode || n.Namespace != "svg" {
			continue
		}
		switch n.Data {
		case "title", "desc", "symbol", "defs", "metadata", "style", "script":
			drop = append(drop, n)
		}
	}
	detach(drop)
}
