package structured

import (
	"strings"
	"testing"
)

func TestOpenGraph(t *testing.T) {
	for _, tc := range []struct {
		name string
		tags string // <meta> elements
		want string // the open_graph section as JSON
	}{{
		name: "scalars, first wins, name= too",
		tags: `<meta property="og:title" content="Herons"><meta property="og:title" content="Again">
			<meta name="og:type" content="article"><meta property="OG:Site_Name" content="Birds">
			<meta property="og:url" content="/herons"><meta property="og:description" content="">`,
		want: `{"og:site_name":"Birds","og:title":"Herons","og:type":"article","og:url":"https://example.com/herons"}`,
	}, {
		name: "several images with their sub-properties",
		tags: `<meta property="og:image" content="https://cdn.example/a.jpg">
			<meta property="og:image:width" content="1200"><meta property="og:image:height" content="630">
			<meta property="og:image:url" content="https://cdn.example/a.jpg">
			<meta property="og:image:secure_url" content="https://cdn.example/a.jpg">
			<meta property="og:image" content="/b.png"><meta property="og:image:alt" content="B">
			<meta property="og:image:width" content="10"><meta property="og:image:width" content="20">`,
		want: `{"og:image":[{"height":"630","secure_url":"https://cdn.example/a.jpg","url":"https://cdn.example/a.jpg","width":"1200"},` +
			`{"alt":"B","url":"https://example.com/b.png","width":"10"},{"width":"20"}]}`,
	}, {
		name: "sub-property before its root",
		tags: `<meta property="og:video:type" content="video/mp4"><meta property="og:audio" content="a.mp3">`,
		want: `{"og:audio":[{"url":"https://example.com/dir/a.mp3"}],"og:video":[{"type":"video/mp4"}]}`,
	}, {
		name: "repeatable properties",
		tags: `<meta property="og:locale" content="en_GB"><meta property="og:locale:alternate" content="fr_FR">
			<meta property="og:locale:alternate" content="de_DE"><meta property="article:tag" content="birds">
			<meta property="article:tag" content="water"><meta property="article:author" content="https://example.com/ann">
			<meta property="article:published_time" content="2024-05-01T10:00:00Z">`,
		want: `{"article:author":["https://example.com/ann"],"article:published_time":"2024-05-01T10:00:00Z",` +
			`"article:tag":["birds","water"],"og:locale":"en_GB","og:locale:alternate":["fr_FR","de_DE"]}`,
	}, {
		name: "other namespaces",
		tags: `<meta property="product:price:amount" content="9.99"><meta property="product:price:currency" content="EUR">
			<meta property="product:price:amount" content="11"><meta property="product:price:currency" content="USD">
			<meta property="music:song" content="https://example.com/s1"><meta property="music:song:disc" content="1">
			<meta property="music:song:track" content="2"><meta property="music:song" content="https://example.com/s2">
			<meta property="video:actor" content="https://example.com/p1"><meta property="video:actor:role" content="Lead">
			<meta property="book:isbn" content="978-3"><meta property="profile:username" content="ann">
			<meta property="fb:app_id" content="1"><meta name="twitter:card" content="summary">`,
		want: `{"book:isbn":"978-3","music:song":[{"disc":"1","track":"2","url":"https://example.com/s1"},{"url":"https://example.com/s2"}],` +
			`"product:price":[{"amount":"9.99","currency":"EUR"},{"amount":"11","currency":"USD"}],"profile:username":"ann",` +
			`"video:actor":[{"role":"Lead","url":"https://example.com/p1"}]}`,
	}, {
		name: "none",
		tags: `<meta name="description" content="x">`,
		want: `null`,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			if got := jsonOf(t, extract(t, "<head>"+tc.tags+"</head>", nil).OpenGraph); got != tc.want {
				t.Errorf("\n got %s\nwant %s", got, tc.want)
			}
		})
	}
}

func TestOpenGraphLimits(t *testing.T) {
	tags := strings.Repeat(`<meta property="og:image" content="/i.png"><meta property="article:tag" content="t">`, 3) +
		`<meta property="og:title" content="T">`
	res := extract(t, tags, &Options{MaxItems: 2})
	want := `{"article:tag":["t","t"],"og:image":[{"url":"https://example.com/i.png"},{"url":"https://example.com/i.png"}]}`
	if got := jsonOf(t, res.OpenGraph); got != want {
		t.Errorf("\n got %s\nwant %s", got, want)
	}
	if jsonOf(t, res.Truncated) != `["open_graph"]` {
		t.Errorf("truncated %v", res.Truncated)
	}
}

func TestTwitter(t *testing.T) {
	for _, tc := range []struct {
		name string
		tags string
		want string // the twitter section as JSON
	}{{
		name: "name and property, first wins, images absolute",
		tags: `<meta name="twitter:card" content="summary_large_image"><meta property="twitter:site" content="@birds">
			<meta name="twitter:card" content="summary"><meta name="twitter:image" content="/t.jpg">
			<meta name="twitter:image:alt" content="A heron"><meta name="twitter:label1" content="Reading time">
			<meta name="twitter:data1" content="3 min"><meta name="Twitter:Creator" content="@ann">`,
		want: `{"twitter:card":"summary_large_image","twitter:creator":"@ann","twitter:data1":"3 min","twitter:image":"https://example.com/t.jpg",` +
			`"twitter:image:alt":"A heron","twitter:label1":"Reading time","twitter:site":"@birds"}`,
	}, {
		name: "player",
		tags: `<meta name="twitter:card" content="player"><meta name="twitter:player" content="https://example.com/embed/1">
			<meta name="twitter:player:width" content="480">`,
		want: `{"twitter:card":"player","twitter:player":"https://example.com/embed/1","twitter:player:width":"480"}`,
	}, {
		name: "none",
		tags: `<meta property="og:title" content="x">`,
		want: `null`,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			if got := jsonOf(t, extract(t, "<head>"+tc.tags+"</head>", nil).Twitter); got != tc.want {
				t.Errorf("\n got %s\nwant %s", got, tc.want)
			}
		})
	}
}
