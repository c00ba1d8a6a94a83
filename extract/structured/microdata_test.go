package structured

import (
	"strings"
	"testing"
)

func TestMicrodata(t *testing.T) {
	for _, tc := range []struct {
		name string
		page string
		want string // the microdata section as JSON
	}{{
		name: "values by element kind",
		page: `<div itemscope itemtype="https://schema.org/Article https://schema.org/NewsArticle" itemid="/a/1">
			<h1 itemprop="headline name">  Grey
			   herons </h1>
			<meta itemprop="inLanguage" content=" en ">
			<img itemprop="image" src="/img/heron.jpg">
			<a itemprop="url" href="heron">read</a>
			<time itemprop="datePublished" datetime="2024-05-01">May 1</time>
			<time itemprop="dateModified">May 2</time>
			<data itemprop="wordCount" value="1200">about a thousand</data>
			<meter itemprop="rating" value="4.5">4.5 stars</meter>
			<object itemprop="embed" data="clip.swf"></object>
			<div itemprop="articleBody"><p>One.</p><p>Two <b>bold</b>.</p><script>x()</script></div>
		</div>`,
		want: `[{"type":["https://schema.org/Article","https://schema.org/NewsArticle"],"id":"https://example.com/a/1","properties":{` +
			`"articleBody":["One. Two bold."],"dateModified":["May 2"],"datePublished":["2024-05-01"],"embed":["https://example.com/dir/clip.swf"],` +
			`"headline":["Grey herons"],"image":["https://example.com/img/heron.jpg"],"inLanguage":["en"],"name":["Grey herons"],` +
			`"rating":["4.5"],"url":["https://example.com/dir/heron"],"wordCount":["1200"]}}]`,
	}, {
		name: "nested items and repeated properties",
		page: `<div itemscope itemtype="https://schema.org/Recipe">
			<span itemprop="name">Soup</span>
			<div itemprop="author" itemscope itemtype="https://schema.org/Person">
				<span itemprop="name">Ann</span>
				<div itemprop="address" itemscope><span itemprop="city">Oslo</span></div>
			</div>
			<span itemprop="ingredient">salt</span><span itemprop="ingredient">water</span>
		</div>
		<div itemscope itemtype="https://schema.org/Thing"><span itemprop="name">Second</span></div>`,
		want: `[{"type":["https://schema.org/Recipe"],"properties":{"author":[{"type":["https://schema.org/Person"],"properties":{` +
			`"address":[{"properties":{"city":["Oslo"]}}],"name":["Ann"]}}],"ingredient":["salt","water"],"name":["Soup"]}},` +
			`{"type":["https://schema.org/Thing"],"properties":{"name":["Second"]}}]`,
	}, {
		name: "itemid needs itemtype",
		page: `<div itemscope itemid="urn:x"><span itemprop="a">1</span></div>`,
		want: `[{"properties":{"a":["1"]}}]`,
	}, {
		name: "itemref in tree order",
		page: `<p id="before" itemprop="first">1</p>
			<div itemscope itemtype="https://schema.org/Band" itemref="after before missing"><span itemprop="name">Queen</span></div>
			<div id="after"><span itemprop="member">Freddie</span><span itemprop="member">Brian</span></div>`,
		want: `[{"type":["https://schema.org/Band"],"properties":{"first":["1"],"member":["Freddie","Brian"],"name":["Queen"]}}]`,
	}, {
		name: "itemref to a nested item",
		page: `<div itemscope itemref="p"></div><div id="p" itemprop="person" itemscope><span itemprop="name">Ann</span></div>`,
		want: `[{"properties":{"person":[{"properties":{"name":["Ann"]}}]}}]`,
	}, {
		name: "itemref cycle",
		page: `<div itemscope itemtype="https://schema.org/Thing">
			<div id="a" itemprop="p" itemscope itemref="b"><span itemprop="n">a</span></div>
			<div id="b" itemprop="q" itemscope itemref="a"><span itemprop="n">b</span></div>
			<div id="c" itemscope itemprop="self" itemref="c"></div>
		</div>`,
		want: `[{"type":["https://schema.org/Thing"],"properties":{` +
			`"p":[{"properties":{"n":["a"],"q":[{"properties":{"n":["b"]}}]}}],` +
			`"q":[{"properties":{"n":["b"],"p":[{"properties":{"n":["a"]}}]}}],` +
			`"self":[{}]}}]`,
	}, {
		name: "no items",
		page: `<p itemprop="name">orphan</p>`,
		want: `null`,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			res := extract(t, tc.page, nil)
			if got := jsonOf(t, res.Microdata); got != tc.want {
				t.Errorf("\n got %s\nwant %s", got, tc.want)
			}
			if res.Truncated != nil {
				t.Errorf("truncated %v", res.Truncated)
			}
		})
	}
}

func TestMicrodataLimits(t *testing.T) {
	nested := strings.Repeat(`<div itemprop="child" itemscope>`, 10) + strings.Repeat(`</div>`, 10)
	for _, tc := range []struct {
		name string
		page string
		opts Options
		want string
	}{{
		name: "depth",
		page: `<div itemscope>` + nested + `</div>`,
		opts: Options{MaxDepth: 3},
		want: `[{"properties":{"child":[{"properties":{"child":[{}]}}]}}]`,
	}, {
		name: "values",
		page: `<div itemscope><i itemprop="a">1</i><i itemprop="a">2</i><i itemprop="a">3</i></div><div itemscope><i itemprop="b">4</i></div>`,
		opts: Options{MaxValues: 2},
		want: `[{"properties":{"a":["1","2"]}},{}]`,
	}, {
		name: "items",
		page: `<div itemscope><i itemprop="a">1</i></div><div itemscope></div><div itemscope></div>`,
		opts: Options{MaxItems: 1},
		want: `[{"properties":{"a":["1"]}}]`,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			res := extract(t, tc.page, &tc.opts)
			if got := jsonOf(t, res.Microdata); got != tc.want {
				t.Errorf("\n got %s\nwant %s", got, tc.want)
			}
			if jsonOf(t, res.Truncated) != `["microdata"]` {
				t.Errorf("truncated %v", res.Truncated)
			}
		})
	}
}

// TestMicrodataCrawlBudget: items that all itemref one big subtree stop
// being read once the crawl has visited a few times the page's elements.
func TestMicrodataCrawlBudget(t *testing.T) {
	page := strings.Repeat(`<div itemscope itemref="big"></div>`, 50) +
		`<div id="big">` + strings.Repeat(`<i></i>`, 100) + `<b itemprop="x">x</b></div>`
	res := extract(t, page, nil)
	// The page has 155 elements; reading all 50 items would visit 5,100.
	if n := strings.Count(jsonOf(t, res.Microdata), `"x":["x"]`); n == 0 || n > crawlFactor*155/102 {
		t.Errorf("%d items read", n)
	}
	if jsonOf(t, res.Truncated) != `["microdata"]` {
		t.Errorf("truncated %v", res.Truncated)
	}
}
