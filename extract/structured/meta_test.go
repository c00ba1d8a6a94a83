package structured

import (
	"strings"
	"testing"
)

func TestMeta(t *testing.T) {
	for _, tc := range []struct {
		name string
		page string
		want string // the meta section as JSON
	}{{
		name: "standard tags",
		page: `<html lang="en-GB"><head><meta charset="UTF-8"><title>
			Grey   herons </title>
			<meta name="Description" content=" All about herons. "><meta name="description" content="second">
			<meta name="keywords" content="birds, herons ,, water">
			<meta name="author" content="Ann"><meta name="robots" content="index, follow">
			<meta name="viewport" content="width=device-width"><meta name="theme-color" content="#fff">
			<meta name="generator" content="Hugo"><meta name="googlebot" content="noarchive">
			<meta property="fb:app_id" content="42"><meta name="title" content="Herons">
			<meta name="rating" content=""></head>
			<body><svg><title>icon</title></svg></body></html>`,
		want: `{"title":"Grey herons","description":"All about herons.","keywords":["birds","herons","water"],"author":"Ann",` +
			`"robots":"index, follow","viewport":"width=device-width","theme_color":"#fff","generator":"Hugo","charset":"UTF-8",` +
			`"language":"en-GB","other":{"fb:app_id":"42","googlebot":"noarchive","title":"Herons"}}`,
	}, {
		name: "http-equiv",
		page: `<head><meta http-equiv="Content-Type" content="text/html; charset=ISO-8859-1">
			<meta http-equiv="content-language" content="de, en"></head>`,
		want: `{"charset":"ISO-8859-1","language":"de"}`,
	}, {
		name: "dates, best hint first",
		page: `<head><meta name="date" content="2024-01-01"><meta property="article:published_time" content="2024-01-02T08:00:00Z">
			<meta name="last-modified" content="2024-02-01"><meta name="dcterms.modified" content="2024-02-02"></head>`,
		want: `{"published":"2024-01-02T08:00:00Z","modified":"2024-02-01","dublin_core":{"dcterms.modified":["2024-02-02"]},` +
			`"other":{"date":"2024-01-01","last-modified":"2024-02-01"}}`,
	}, {
		name: "Dublin Core",
		page: `<head><meta name="DC.title" content="Herons"><meta name="dc.creator" content="Ann"><meta name="dc.creator" content="Bo">
			<meta name="DCTERMS.issued" content="2024-03-01"><meta property="dc:subject" content="birds"></head>`,
		want: `{"published":"2024-03-01","dublin_core":{"dc.creator":["Ann","Bo"],"dc.title":["Herons"],` +
			`"dc:subject":["birds"],"dcterms.issued":["2024-03-01"]}}`,
	}, {
		name: "none",
		page: `<p>text</p>`,
		want: `null`,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			if got := jsonOf(t, extract(t, tc.page, nil).Meta); got != tc.want {
				t.Errorf("\n got %s\nwant %s", got, tc.want)
			}
		})
	}
}

func TestMetaLimits(t *testing.T) {
	var page strings.Builder
	for _, name := range []string{"a", "b", "c"} {
		page.WriteString(`<meta name="` + name + `" content="x"><meta name="dc.` + name + `" content="x">`)
	}
	page.WriteString(`<meta name="keywords" content="k1,k2,k3">`)
	res := extract(t, page.String(), &Options{MaxItems: 2})
	want := `{"keywords":["k1","k2"],"dublin_core":{"dc.a":["x"],"dc.b":["x"]},"other":{"a":"x","b":"x"}}`
	if got := jsonOf(t, res.Meta); got != want {
		t.Errorf("\n got %s\nwant %s", got, want)
	}
	if jsonOf(t, res.Truncated) != `["meta"]` {
		t.Errorf("truncated %v", res.Truncated)
	}
}
