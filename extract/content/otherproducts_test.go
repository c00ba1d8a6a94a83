package content

import (
	"strconv"
	"strings"
	"testing"

	"golang.org/x/net/html/atom"
)

// otherProductsPage is a product page whose "Customers also bought"
// carousel repeats the product's own card, and whose "You may also like"
// title shares a wrapper with the product's description.
const otherProductsPage = `<html><body>
<header><a href="/">Outfitters</a></header>
<main>
<div class="product"><h1>Trail Pack 25</h1><p class="price">$89.00</p>
<p>A light pack for day hikes, with a removable hipbelt and a rain cover.</p></div>
<div class="carousel"><div class="head"><h2>Customers also bought</h2><a href="/all">See all</a></div>
<ul><li><a href="/p/1"><span>Trail Pack 25</span></a> <span>$89.00</span></li>
<li><a href="/p/2"><span>Summit Bottle</span></a> <span>$19.00</span><span>4.5 out of 5 stars</span></li></ul></div>
<div class="wrap"><h2>You may also like</h2><ul><li>Pine Mug</li></ul>
<h2>Specifications</h2><p>Volume: 25 liters. Weight: 1 lb. 13 oz.</p></div>
</main></body></html>`

// otherProductsExtraction is what an extractor made of it: the card's
// texts joined, its rating left out.
const otherProductsExtraction = `<div><h1>Trail Pack 25</h1><p>$89.00</p>
<p>A light pack for day hikes, with a removable hipbelt and a rain cover.</p>
<h2>Customers also bought</h2><p>See all</p>
<ul><li>Trail Pack 25 $89.00</li><li>Summit Bottle$19.00</li></ul>
<h2>You may also like</h2><ul><li>Pine Mug</li></ul>
<h2>Specifications</h2><p>Volume: 25 liters. Weight: 1 lb. 13 oz.</p></div>`

func TestDropOtherProductLines(t *testing.T) {
	doc, err := parseHTML(otherProductsPage)
	if err != nil {
		t.Fatal(err)
	}
	sections := otherProductText(doc)
	if sections == nil {
		t.Fatal("no section of other products found")
	}
	extraction, err := parseHTML(otherProductsExtraction)
	if err != nil {
		t.Fatal(err)
	}
	root := extraction
	for n := range extraction.Descendants() {
		if n.DataAtom == atom.Div {
			root = n
			break
		}
	}
	dropOtherProductLines(root, sections)
	text := renderText(root)
	for _, gone := range []string{"Customers also bought", "See all", "Summit Bottle", "You may also like"} {
		if strings.Contains(text, gone) {
			t.Errorf("%q, another product's, was kept:\n%s", gone, text)
		}
	}
	// The card of the product itself repeats what the page says
	// outside the sections; "Pine Mug" shares its wrapper with the
	// specifications, so the section is its title alone.
	for _, kept := range []string{"Trail Pack 25\n", "$89.00", "removable hipbelt", "Trail Pack 25 $89.00",
		"Pine Mug", "Specifications", "Volume: 25 liters"} {
		if !strings.Contains(text, kept) {
			t.Errorf("%q was dropped:\n%s", kept, text)
		}
	}
}

func TestOtherProductsTitle(t *testing.T) {
	doc, err := parseHTML(`<body><h2>Customers who viewed this item also viewed</h2><h3>Related books</h3>
<div>Frequently Bought Together</div><p>You might also enjoy</p><h3>This is what customers who viewed this product bought</h3><h2>Related questions about sizing and fit</h2>
<h2>Customer reviews</h2><p>Customers also love its hipbelt, which is removable.</p><h2>Description</h2></body>`)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for n := range doc.Descendants() {
		if otherProductsTitle(n) {
			got = append(got, nodeText(n))
		}
	}
	want := []string{"Customers who viewed this item also viewed", "Related books", "Frequently Bought Together", "You might also enjoy",
		"This is what customers who viewed this product bought"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("titles %q, want %q", got, want)
	}
}

func TestOtherProductTextNone(t *testing.T) {
	doc, err := parseHTML(`<body><h1>Trail Pack 25</h1><h2>Description</h2><p>A light pack.</p></body>`)
	if err != nil {
		t.Fatal(err)
	}
	if s := otherProductText(doc); s != nil {
		t.Errorf("a page without sections of other products: %+v", s)
	}
}

// TestOtherProductTextBounded: a page of hundreds of such sections is
// read up to maxOtherProductSections of them.
func TestOtherProductTextBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("<body><h1>Trail Pack 25</h1><p>" + strings.Repeat("A light pack for day hikes. ", 2000) + "</p>")
	for i := range 200 {
		b.WriteString("<div><h2>You may also like</h2><ul><li>Card " + strconv.Itoa(i) + "</li></ul></div>")
	}
	doc, err := parseHTML(b.String())
	if err != nil {
		t.Fatal(err)
	}
	s := otherProductText(doc)
	if s == nil {
		t.Fatal("no section found")
	}
	first, past := []byte("card0"), []byte("card"+strconv.Itoa(maxOtherProductSections+10))
	if len(s.inside.Lookup(first, 1)) == 0 {
		t.Error("the first section's text is not read as a section's")
	}
	if len(s.inside.Lookup(past, 1)) != 0 || len(s.outside.Lookup(past, 1)) == 0 {
		t.Errorf("a section past the first %d was read as one", maxOtherProductSections)
	}
}

// FuzzOtherProducts runs the sections' search over any page, and drops
// their lines from a copy of it.
func FuzzOtherProducts(f *testing.F) {
	f.Add(otherProductsPage)
	f.Add(`<div><h2>Customers also bought</h2><div><h2>Similar items</h2><p>x</p></div><h1>y</h1></div><p>z</p>`)
	f.Add(`<dl><dt><span>Related products</span></dt><dd>a</dd></dl>` + strings.Repeat(`<div><h3>You may also like</h3>`, 70))
	f.Fuzz(func(t *testing.T, page string) {
		doc, err := parseHTML(page)
		if err != nil {
			return
		}
		sections := otherProductText(doc)
		extraction := cloneTree(doc)
		dropOtherProductLines(extraction, sections)
	})
}
