package structured

import (
	"strings"
	"testing"
)

func TestRDFa(t *testing.T) {
	for _, tc := range []struct {
		name string
		page string
		want string // the rdfa section as JSON
	}{{
		name: "vocab, nested items, values",
		page: `<div vocab="https://schema.org/" typeof="Event" resource="/events/1">
			<span property="name">Concert</span>
			<meta property="startDate" content="2024-06-01">
			<a property="url" href="tickets">tickets</a>
			<img property="image" src="/poster.png">
			<time property="endDate" datetime="2024-06-02">June 2</time>
			<span property="sameAs" resource="https://example.org/e1">elsewhere</span>
			<div property="location" typeof="Place"><span property="name">Hall</span></div>
			<div property="performer organizer" typeof="Person"><span property="name">Ann</span></div>
		</div>`,
		want: `[{"type":["https://schema.org/Event"],"id":"https://example.com/events/1","properties":{` +
			`"endDate":["2024-06-02"],"image":["https://example.com/poster.png"],` +
			`"location":[{"type":["https://schema.org/Place"],"properties":{"name":["Hall"]}}],"name":["Concert"],` +
			`"organizer":[{"type":["https://schema.org/Person"],"properties":{"name":["Ann"]}}],` +
			`"performer":[{"type":["https://schema.org/Person"],"properties":{"name":["Ann"]}}],` +
			`"sameAs":["https://example.org/e1"],"startDate":["2024-06-01"],"url":["https://example.com/dir/tickets"]}}]`,
	}, {
		name: "prefixes",
		page: `<div prefix="ex: http://example.org/ns#" typeof="ex:Widget foaf:Agent http://other.org/T un:known">
			<span property="ex:size">3</span></div>`,
		want: `[{"type":["http://example.org/ns#Widget","http://xmlns.com/foaf/0.1/Agent","http://other.org/T","un:known"],"properties":{"ex:size":["3"]}}]`,
	}, {
		name: "Drupal subjects",
		page: `<div about="/node/7" typeof="sioc:Item foaf:Document"><span property="dc:title" content="Hi"></span>
			<img typeof="foaf:Image" src="/a.jpg"></div>`,
		want: `[{"type":["sioc:Item","http://xmlns.com/foaf/0.1/Document"],"id":"https://example.com/node/7","properties":{"dc:title":["Hi"]}},` +
			`{"type":["http://xmlns.com/foaf/0.1/Image"],"id":"https://example.com/a.jpg"}]`,
	}, {
		name: "properties outside items are left out",
		page: `<head><meta property="og:title" content="T"></head><body vocab="https://schema.org/"><p property="name">x</p></body>`,
		want: `null`,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			if got := jsonOf(t, extract(t, tc.page, nil).RDFa); got != tc.want {
				t.Errorf("\n got %s\nwant %s", got, tc.want)
			}
		})
	}
}

func TestRDFaLimits(t *testing.T) {
	page := `<div vocab="https://schema.org/" typeof="Thing">` +
		strings.Repeat(`<div property="part" typeof="Thing"><span property="name">x</span>`, 5) +
		strings.Repeat(`</div>`, 6) + `<p typeof="Other"></p>`
	res := extract(t, page, &Options{MaxDepth: 2, MaxItems: 1})
	want := `[{"type":["https://schema.org/Thing"],"properties":{"part":[{"type":["https://schema.org/Thing"],"properties":{"name":["x"]}}]}}]`
	if got := jsonOf(t, res.RDFa); got != want {
		t.Errorf("\n got %s\nwant %s", got, want)
	}
	if jsonOf(t, res.Truncated) != `["rdfa"]` {
		t.Errorf("truncated %v", res.Truncated)
	}
	res = extract(t, page, &Options{MaxValues: 2})
	want = want[:len(want)-1] + `,{"type":["Other"]}]`
	if got := jsonOf(t, res.RDFa); got != want {
		t.Errorf("\n got %s\nwant %s", got, want)
	}
}
