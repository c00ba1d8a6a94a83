package structured

import (
	"context"
	"strings"
	"testing"
)

func TestLinks(t *testing.T) {
	for _, tc := range []struct {
		name    string
		baseURL string
		head    string
		want    string // the links section as JSON
	}{{
		name:    "every kind, against base_url",
		baseURL: base,
		head: `<link rel="canonical" href="/herons"><link rel="canonical" href="/other">
			<link rel="amphtml" href="herons.amp"><link rel="prev" href="?page=1"><link rel="next" href="?page=3">
			<link rel="manifest" href="/site.webmanifest">
			<link rel="alternate" hreflang="fr" href="/fr/herons"><link rel="alternate" hreflang="x-default" href="/herons">
			<link rel="alternate" hreflang="fr" href="/fr/herons">
			<link rel="alternate" media="only screen and (max-width: 640px)" href="https://m.example.com/herons">
			<link rel="alternate" type="application/rss+xml" title=" Birds  RSS " href="/feed.xml">
			<link rel="alternate" type="application/atom+xml" href="/atom.xml">
			<link rel="alternate" type="application/feed+json; charset=utf-8" href="/feed.json">
			<link rel="alternate" type="application/json+oembed" href="/oembed?format=json" title="Herons">
			<link rel="alternate" type="text/xml+oembed" href="/oembed?format=xml">
			<link rel="Shortcut Icon" href="/favicon.ico"><link rel="icon" type="image/png" sizes="32x32" href="/i32.png">
			<link rel="apple-touch-icon" href="/touch.png"><link rel="mask-icon" href="/mask.svg">
			<link rel="stylesheet" href="/s.css"><link rel="canonical" href="">`,
		want: `{"canonical":"https://example.com/herons","amphtml":"https://example.com/dir/herons.amp",` +
			`"prev":"https://example.com/dir/page?page=1","next":"https://example.com/dir/page?page=3",` +
			`"manifest":"https://example.com/site.webmanifest",` +
			`"alternates":[{"href":"https://example.com/fr/herons","hreflang":"fr"},{"href":"https://example.com/herons","hreflang":"x-default"},` +
			`{"href":"https://m.example.com/herons","media":"only screen and (max-width: 640px)"}],` +
			`"feeds":[{"href":"https://example.com/feed.xml","type":"application/rss+xml","title":"Birds RSS"},` +
			`{"href":"https://example.com/atom.xml","type":"application/atom+xml"},` +
			`{"href":"https://example.com/feed.json","type":"application/feed+json; charset=utf-8"}],` +
			`"icons":[{"href":"https://example.com/favicon.ico","rel":"shortcut icon"},` +
			`{"href":"https://example.com/i32.png","rel":"icon","type":"image/png","sizes":"32x32"},` +
			`{"href":"https://example.com/touch.png","rel":"apple-touch-icon"},{"href":"https://example.com/mask.svg","rel":"mask-icon"}],` +
			`"oembed":[{"href":"https://example.com/oembed?format=json","type":"application/json+oembed","title":"Herons"},` +
			`{"href":"https://example.com/oembed?format=xml","type":"text/xml+oembed"}]}`,
	}, {
		name:    "base href against base_url",
		baseURL: base,
		head:    `<base href="/static/"><link rel="canonical" href="page.html"><link rel="icon" href="//cdn.example.org/i.ico">`,
		want:    `{"canonical":"https://example.com/static/page.html","icons":[{"href":"https://cdn.example.org/i.ico","rel":"icon"}]}`,
	}, {
		name: "absolute base href without base_url",
		head: `<base href="https://example.org/a/"><link rel="canonical" href="b">`,
		want: `{"canonical":"https://example.org/a/b"}`,
	}, {
		name: "relative without any base",
		head: `<base href="/a/"><link rel="canonical" href="b">`,
		want: `{"canonical":"b"}`,
	}, {
		name:    "none",
		baseURL: base,
		head:    `<link rel="stylesheet" href="/s.css">`,
		want:    `null`,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Extract(context.Background(), Input{HTML: "<head>" + tc.head + "</head>", BaseURL: tc.baseURL}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := jsonOf(t, res.Links); got != tc.want {
				t.Errorf("\n got %s\nwant %s", got, tc.want)
			}
		})
	}
}

func TestLinksLimits(t *testing.T) {
	head := strings.Repeat(`<link rel="alternate" hreflang="fr" href="/fr"><link rel="alternate" hreflang="de" href="/de">`, 2) +
		`<link rel="alternate" hreflang="it" href="/it">`
	res := extract(t, head, &Options{MaxItems: 2})
	if got := jsonOf(t, res.Links.Alternates); got != `[{"href":"https://example.com/fr","hreflang":"fr"},{"href":"https://example.com/de","hreflang":"de"}]` {
		t.Errorf("alternates %s", got)
	}
	if jsonOf(t, res.Truncated) != `["links"]` {
		t.Errorf("truncated %v", res.Truncated)
	}
}
