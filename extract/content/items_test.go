package content

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/webinfra/webinfra/extract/pagetype"
)

// gridPage is a category page: a menu (short link entries), a grid of
// product cards, a footer of link columns, and a grid of "related"
// cards the page names as such.
const gridPage = `<!doctype html><html><head><title>Desk lamps</title></head><body>
<header><ul>
  <li><a href="/lamps">Lamps and lights for every room</a></li><li><a href="/desks">Desks and tables for home</a></li>
  <li><a href="/chairs">Chairs and stools for the office</a></li><li><a href="/rugs">Rugs and mats in all sizes</a></li>
  <li><a href="/sale">Sale items at half their price</a></li>
</ul></header>
<nav class="menu"><a href="/">Home</a> <a href="/shop">Shop</a></nav>
<main>
  <h1>Desk lamps</h1>
  <p>Our desk lamps light your work without glare.</p>
  <ul class="side"><li><a href="/a">Brass</a></li><li><a href="/b">Steel</a></li><li><a href="/c">Oak</a></li><li><a href="/d">Glass</a></li></ul>
  <div class="grid">
    <div class="card"><h3><a href="/p/1">Arc Brass Desk Lamp with dimmer</a></h3><p>$89.00</p><button>Add to cart</button></div>
    <div class="card"><h3><a href="/p/2">Clamp Steel Task Lamp, matte black</a></h3><p>$49.00</p><button>Add to cart</button></div>
    <div class="card"><h3><a href="/p/3">Oak Base Reading Lamp with linen shade</a></h3><p>$120.00</p><button>Add to cart</button></div>
    <div class="card"><h3><a href="/p/4">Glass Globe Lamp, warm white</a></h3><p>$64.00</p><button>Add to cart</button></div>
    <div class="card"><h3><a href="/p/5">Swing Arm Wall Lamp in chrome</a></h3><p>$75.00</p><button>Add to cart</button></div>
    <div class="promo">Free delivery over $100</div>
  </div>
  <div class="related-products">
    <div class="card"><a href="/p/9">Related lamp number nine in stock now today</a></div>
    <div class="card"><a href="/p/8">Related lamp number eight in stock now today</a></div>
    <div class="card"><a href="/p/7">Related lamp number seven in stock now today</a></div>
    <div class="card"><a href="/p/6">Related lamp number six in stock now today</a></div>
  </div>
</main>
<footer><div class="col"><a href="/about">About our company and its story</a></div><div class="col"><a href="/jobs">Jobs at our company and its stores</a></div>
<div class="col"><a href="/press">Press releases and news from the company</a></div><div class="col"><a href="/help">Help with orders and returns of items</a></div></footer>
</body></html>`

func TestItemGridFindsTheProductCards(t *testing.T) {
	doc, err := parseHTML(gridPage)
	if err != nil {
		t.Fatal(err)
	}
	items := itemGrid(doc, false)
	var names []string
	for _, it := range items {
		names = append(names, renderText(it))
	}
	got := strings.Join(names, " | ")
	if len(items) != 5 || !strings.Contains(got, "Arc Brass Desk Lamp") || !strings.Contains(got, "Swing Arm Wall Lamp") {
		t.Fatalf("grid items = %d: %q; want the five product cards", len(items), got)
	}
	for _, not := range []string{"Lamps and lights", "Brass |", "Related lamp", "About our company"} {
		if strings.Contains(got, not) {
			t.Errorf("grid holds %q (header, short menu, related or footer): %q", not, got)
		}
	}
}

func TestWithItemsAddsOnlyTheMissingItems(t *testing.T) {
	doc, err := parseHTML(gridPage)
	if err != nil {
		t.Fatal(err)
	}
	// The extractor kept the introduction and the first card's name
	// (without its price).
	kept, err := parseHTML(`<div><p>Our desk lamps light your work without glare.</p><p>Arc Brass Desk Lamp with dimmer</p></div>`)
	if err != nil {
		t.Fatal(err)
	}
	res := &Result{Node: kept}
	withItems(res, pageItems(doc, false))
	text := renderText(res.Node)
	if strings.Count(text, "Arc Brass Desk Lamp") != 1 {
		t.Errorf("the card the extraction held was added again:\n%s", text)
	}
	for _, want := range []string{"without glare", "Clamp Steel Task Lamp", "$49.00", "Swing Arm Wall Lamp"} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "Add to cart") {
		t.Errorf("text holds the cards' buttons:\n%s", text)
	}

	// Nothing extracted: the items are the article.
	res = &Result{}
	withItems(res, pageItems(doc, false))
	if res.Node == nil || !strings.Contains(renderText(res.Node), "Oak Base Reading Lamp") {
		t.Errorf("with no extraction, the items are not the article")
	}
	// No grid: the result is left alone.
	res = &Result{}
	withItems(res, nil)
	if res.Node != nil {
		t.Errorf("no items made an article")
	}
}

// threadPage is a forum thread: posts, each with its author's link,
// beside a sidebar of thread links.
const threadPage = `<!doctype html><html><body><main>
<h1>Which bike for trails?</h1>
<article class="post"><a href="/u/ann">ann</a><p>I want a bike for forest trails under a thousand pounds, any advice?</p></article>
<article class="post"><a href="/u/bo">bo</a><p>An air fork matters more than the frame at that price, in my experience.</p><div class="share"><a href="/s/1">Share on Facebook</a> <a href="/s/2">Tweet this post</a></div></article>
<article class="post"><a href="/u/cy">cy</a><p>Trek Marlin and Cannondale Trail are both decent entry level choices.</p></article>
<article class="post"><a href="/u/di">di</a><p>Buy second hand and spend the rest on a proper service and tyres.</p></article>
</main>
<div class="side"><ul><li><a href="/t/1">Road tyres</a></li><li><a href="/t/2">Helmets</a></li><li><a href="/t/3">Locks</a></li><li><a href="/t/4">Lights</a></li></ul></div>
</body></html>`

func TestItemGridFindsCardsAndPosts(t *testing.T) {
	for name, page := range map[string]string{"grid": gridPage, "thread": threadPage} {
		doc, err := parseHTML(page)
		if err != nil {
			t.Fatal(err)
		}
		items := itemGrid(doc, false)
		if len(items) < 4 {
			t.Errorf("%s: %d items, want every card or post", name, len(items))
		}
	}
}

// TestItemGridSkipsEmptyAnchorsAndScripts: a forum (Invision Community)
// puts two empty permalink targets before each post, some forums a
// script; they outnumber or match the posts but are no items, and must
// not hide the posts' grid.
func TestItemGridSkipsEmptyAnchorsAndScripts(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<html><body><h1>If the forum closes</h1><form class="thread">`)
	for i := range 6 {
		fmt.Fprintf(&b, `<span id="findComment-%d"></span> <span id="comment-%d"></span>
<script>ads.push("slot")</script><article class="post"><a href="/u/%d">member%d</a><p>Post number %d says thank you to everyone for a great forum.</p></article>`, i, i, i, i, i)
	}
	b.WriteString(`</form></body></html>`)
	doc, err := parseHTML(b.String())
	if err != nil {
		t.Fatal(err)
	}
	items := itemGrid(doc, false)
	if len(items) != 6 {
		t.Fatalf("%d items, want the 6 posts", len(items))
	}
	for _, it := range items {
		if it.Data != "article" {
			t.Errorf("item %s, want the posts (<article>)", it.Data)
		}
	}
}

func TestPostsArePrunedCardsAreNot(t *testing.T) {
	doc, err := parseHTML(threadPage)
	if err != nil {
		t.Fatal(err)
	}
	res := &Result{}
	withItems(res, pageItems(doc, true))
	text := renderText(res.Node)
	if !strings.Contains(text, "An air fork matters") || !strings.Contains(text, "Buy second hand") {
		t.Errorf("posts missing:\n%s", text)
	}
	if strings.Contains(text, "Tweet this post") {
		t.Errorf("a post's share bar was kept:\n%s", text)
	}
	doc, err = parseHTML(gridPage)
	if err != nil {
		t.Fatal(err)
	}
	res = &Result{}
	withItems(res, pageItems(doc, false))
	if text := renderText(res.Node); !strings.Contains(text, "Glass Globe Lamp") {
		t.Errorf("cards, link text all, were pruned:\n%s", text)
	}
}

// A thread's posts take what lies between them: the replies nested
// beside a post, a post whose row class alternates; after the last post
// the pager stays out, and a grid of cards takes nothing between.
func TestPostsTakeWhatLiesBetween(t *testing.T) {
	post := func(class, who, text string) string {
		return `<article class="` + class + `"><a href="/u/` + who + `">` + who + `</a><div class="body">` + text + `</div></article>`
	}
	var b strings.Builder
	b.WriteString(`<html><body><h1>Which bike for trails?</h1><div class="thread">`)
	for i, text := range []string{
		"Unfortunately good bikes with an air fork are going to seem expensive to you at first.",
		"Trek Marlin and Cannondale Trail are both decent entry level bikes for such riding.",
		"The Marlin is a good choice, nothing spectacular, just a solid bike to upgrade.",
		"Buy second hand from a local shop and have them check the frame for cracks first.",
		"Hardtails are lighter and cheaper, and they teach you to pick a clean line on the trail.",
		"Check the bike's geometry charts before you buy, as sizes differ between brands a lot.",
		"Tubeless tyres save you from most punctures on the trail, and they are worth the setup.",
		"Whatever you buy, set the sag of the fork right and the ride will feel twice as good.",
	} {
		class := "post bg1"
		if i%2 == 1 {
			class = "post bg2"
		}
		b.WriteString(post(class+" root", "rider"+strconv.Itoa(i), text))
		if i == 1 {
			b.WriteString(`<div class="children">` + post("post nested", "kid", "A nested reply that says the fork is what you pay for, and it is worth it.") + `</div>`)
		}
	}
	b.WriteString(`<div class="pager"><a href="?page=2">Next page of this thread</a> 7 posts</div></div></body></html>`)
	doc, err := parseHTML(b.String())
	if err != nil {
		t.Fatal(err)
	}
	res := &Result{}
	withItems(res, pageItems(doc, true))
	text := renderText(res.Node)
	for _, want := range []string{"air fork are going", "Trek Marlin", "A nested reply", "The Marlin is a good choice", "Buy second hand"} {
		if !strings.Contains(text, want) {
			t.Errorf("%q missing:\n%s", want, text)
		}
	}
	if strings.Contains(text, "Next page") {
		t.Errorf("the pager came along:\n%s", text)
	}
	res = &Result{}
	withItems(res, pageItems(doc, false))
	if text := renderText(res.Node); strings.Contains(text, "A nested reply") {
		t.Errorf("cards took what lies between them:\n%s", text)
	}
}

// A thread's posts whose classes carry their own ids ("thing
// id-t1_ab12 comment") are one grid; a grid of cards so named is not
// looked for.
func TestPostsWithTheirOwnIDs(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<html><body><h1>Hair follicles grown in the lab</h1><div class="sitetable">`)
	for i := range 6 {
		id := "id-t1_k" + strconv.Itoa(1000+i*7)
		b.WriteString(`<div class="thing ` + id + ` comment"><a href="/user/u` + strconv.Itoa(i) + `">u` + strconv.Itoa(i) +
			`</a><p>Comment number ` + strconv.Itoa(i) + ` says the trial in mice is a first step, not a cure yet.</p></div>`)
	}
	b.WriteString(`</div></body></html>`)
	doc, err := parseHTML(b.String())
	if err != nil {
		t.Fatal(err)
	}
	if items := itemGrid(doc, true); len(items) != 6 {
		t.Errorf("%d posts, want 6", len(items))
	}
	if items := itemGrid(doc, false); len(items) != 0 {
		t.Errorf("%d cards, want none", len(items))
	}
}

// TestItemGridBudget: a page of grids nested 500 deep would have each
// node's text rendered once per grid above it; the search stops when its
// budget of visited nodes is spent.
func TestItemGridBudget(t *testing.T) {
	var b strings.Builder
	b.WriteString("<html><body>")
	const depth = 500
	for range depth {
		b.WriteString(`<div class="g">`)
		for range 3 {
			b.WriteString(`<div class="g"><a href="/x">one two three four five six</a></div>`)
		}
	}
	b.WriteString(strings.Repeat("</div>", depth) + "</body></html>")
	doc, err := parseHTML(b.String())
	if err != nil {
		t.Fatal(err)
	}
	if items := itemGrid(doc, false); len(items) < minItems {
		t.Errorf("nested grid: %d items, want the outermost grid", len(items))
	}
	budget := 10
	grid := doc.LastChild.LastChild.FirstChild // html > body > div.g
	if items, _ := gridItems(grid, false, &budget); items != nil || budget > 0 {
		t.Errorf("with a spent budget, gridItems gave %d items and left %d", len(items), budget)
	}
}

func TestPageItemsKeepsAtMostMaxGridItems(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<html><body><ul>`)
	for range maxGridItems + 100 {
		b.WriteString(`<li><a href="/x">one two three four five six</a></li>`)
	}
	b.WriteString(`</ul></body></html>`)
	doc, err := parseHTML(b.String())
	if err != nil {
		t.Fatal(err)
	}
	if n := len(pageItems(doc, false)); n != maxGridItems {
		t.Errorf("pageItems gave %d items, want the first %d", n, maxGridItems)
	}
}

// TestItemGridInsideAWrapperNamedHeader: a page whose content is all
// inside a wrapper its class or id names chrome (XenForo 1's
// "headerMover") still has its posts found: the wrapper holds the
// headline, so its name is not read.
func TestItemGridInsideAWrapperNamedHeader(t *testing.T) {
	var posts strings.Builder
	for i := range 5 {
		fmt.Fprintf(&posts, `<li class="message"><a href="/members/u%d">user%d</a><blockquote>Post number %d says forums still matter to people.</blockquote></li>`, i, i, i)
	}
	page := `<html><body><div id="headerMover"><div id="content"><h1>Do forums still have a role?</h1><ol class="messageList">` +
		posts.String() + `</ol></div></div></body></html>`
	doc, err := parseHTML(page)
	if err != nil {
		t.Fatal(err)
	}
	if items := itemGrid(doc, false); len(items) != 5 {
		t.Errorf("found %d posts, want 5", len(items))
	}
	// Without the headline inside it, the wrapper is chrome by its name.
	doc, _ = parseHTML(strings.Replace(page, "<h1>Do forums still have a role?</h1>", "", 1))
	if items := itemGrid(doc, false); len(items) != 0 {
		t.Errorf("found %d items inside a wrapper named header that holds no headline", len(items))
	}
}

// TestItemGridInsideNoscript: a thread served in a <noscript> (Flarum's
// crawler view: the app's shell outside it, every post inside) has its
// posts found, since pages are read with scripts off.
func TestItemGridInsideNoscript(t *testing.T) {
	var posts strings.Builder
	for i := range 6 {
		fmt.Fprintf(&posts, `<article><div class="PostUser"><h3><a href="/u/user%d">user%d</a></h3></div><div class="Post-body"><p>Reply %d: threads could come in types, as posts do in a blog.</p></div></article><hr>`, i, i, i)
	}
	page := `<html><body><div id="app">Loading...</div><noscript id="flarum-content"><div class="container"><h1>Types of threads</h1><div>` +
		posts.String() + `</div></div></noscript></body></html>`
	doc, err := parseHTML(page)
	if err != nil {
		t.Fatal(err)
	}
	items := itemGrid(doc, false)
	if len(items) != 6 {
		t.Fatalf("found %d posts, want 6", len(items))
	}
	if got := renderText(items[5]); !strings.Contains(got, "Reply 5:") {
		t.Errorf("last post reads %q", got)
	}
}

// TestItemsInsteadOfNothing: search results whose cards are links
// through and through, which the extractors drop as link lists, on a page
// the detector cannot place (a model that gives every type the same
// odds: extracted as an article), come out as their cards rather than as
// nothing or the newsletter form: from Extract, and from each mode's own
// pipeline (extract), where fast mode has no accurate run to fall back
// on (see extractFresh) and only itemsInstead finds the cards.
func TestItemsInsteadOfNothing(t *testing.T) {
	var cards strings.Builder
	for i := range 12 {
		fmt.Fprintf(&cards, `<li><div><a href="/listing/%d/wallet-%d" title="Leather Wallet No. %d">`+
			`<div><img src="/img/%d.jpg" alt=""></div><div><h2>Leather Wallet No. %d, handmade bifold card holder</h2>`+
			`<p><span>(%d)</span></p><p><span>USD %d.90</span></p></div></a></div></li>`, i, i, i, i, i, 100+i, 30+i)
	}
	page := `<html><head><title>Handmade Wallet - Shop</title></head><body>` +
		`<header><nav><a href="/">Home</a> <a href="/gifts">Gifts</a> <a href="/sale">Sale</a></nav></header>` +
		`<main><h1>Handmade Wallet</h1><ul>` + cards.String() + `</ul></main>` +
		`<footer><form><p>Yes! Send me exclusive offers, unique gift ideas, and personalized tips for shopping.</p>` +
		`<input type="email"><button>Subscribe</button></form><p>© 2026 Shop, Inc.</p></footer></body></html>`
	pageURL := "https://shop.example/market/handmade_wallet"
	u, err := url.Parse(pageURL)
	if err != nil {
		t.Fatal(err)
	}
	for _, mode := range []Mode{ModeAccurate, ModeFast} {
		res, err := Extract(context.Background(), Input{HTML: page, URL: pageURL, Mode: mode}, &Options{TypeModel: unsureModel()})
		if err != nil {
			t.Fatal(err)
		}
		doc, err := parseHTML(page)
		if err != nil {
			t.Fatal(err)
		}
		checkCards(t, mode, res)
		checkCards(t, mode, extract(doc, u, Options{Mode: mode, TypeModel: unsureModel()}))
	}
}

// checkCards is TestItemsInsteadOfNothing's check of one result.
func checkCards(t *testing.T, mode Mode, res *Result) {
	t.Helper()
	if res.NoContent || !strings.Contains(res.Text, "Leather Wallet No. 7, handmade bifold card holder") ||
		!strings.Contains(res.Text, "USD 41.90") {
		t.Errorf("%s: the cards are missing (type %s %.2f):\n%s", mode, res.PageType, res.PageTypeConfidence, res.Text)
	}
	if strings.Contains(res.Text, "exclusive offers") {
		t.Errorf("%s: the newsletter form is in the text:\n%s", mode, res.Text)
	}
}

// unsureModel is a page-type model that gives every page even odds of
// being an article or a listing: unsure (under minTypeConfidence), the
// page is extracted as an article.
func unsureModel() *pagetype.Model {
	return twoTypeModel(pagetype.Article, pagetype.Listing, 0)
}

// twoTypeModel is a page-type model that reads no feature and types
// every page first or second, first by the odds e^bias to 1 (bias 5:
// 0.993 sure).
func twoTypeModel(first, second pagetype.Type, bias float64) *pagetype.Model {
	names := pagetype.FeatureNames()
	return &pagetype.Model{Features: names, Types: []pagetype.Type{first, second},
		Mean: make([]float64, len(names)), Scale: make([]float64, len(names)),
		Weights: [][]float64{make([]float64, len(names)), make([]float64, len(names))}, Bias: []float64{bias, 0}}
}
