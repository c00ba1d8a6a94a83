package contacts

import (
	"context"
	"slices"
	"strings"
	"testing"
)

func TestProfiles(t *testing.T) {
	tests := []struct {
		href string
		want string // network url handle, "" for no profile
	}{
		{"https://www.linkedin.com/in/Jane-Doe-123/", "linkedin https://www.linkedin.com/in/jane-doe-123 jane-doe-123"},
		{"https://uk.linkedin.com/company/example-ltd/about/", "linkedin https://www.linkedin.com/company/example-ltd example-ltd"},
		{"https://twitter.com/Example?ref_src=twsrc%5Etfw", "x https://x.com/example example"},
		{"https://mobile.twitter.com/example/", "x https://x.com/example example"},
		{"http://x.com/example", "x https://x.com/example example"},
		{"https://www.facebook.com/ExamplePage/", "facebook https://www.facebook.com/examplepage examplepage"},
		{"https://m.facebook.com/profile.php?id=100012345678", "facebook https://www.facebook.com/profile.php?id=100012345678 100012345678"},
		{"https://www.facebook.com/people/Example-Inc/100064123456789/", "facebook https://www.facebook.com/people/example-inc/100064123456789 100064123456789"},
		{"https://instagram.com/example.shop", "instagram https://www.instagram.com/example.shop example.shop"},
		{"https://github.com/Example-Org", "github https://github.com/example-org example-org"},
		{"https://github.com/orgs/example/people", ""},
		{"https://github.com/orgs/example", "github https://github.com/example example"},
		{"https://www.youtube.com/@ExampleTV/videos", "youtube https://www.youtube.com/@exampletv exampletv"},
		{"https://youtube.com/channel/UCabcdefghijklmnopqrstuv", "youtube https://www.youtube.com/channel/UCabcdefghijklmnopqrstuv UCabcdefghijklmnopqrstuv"},
		{"https://www.youtube.com/c/ExampleChannel", "youtube https://www.youtube.com/c/examplechannel examplechannel"},
		{"https://www.youtube.com/user/example", "youtube https://www.youtube.com/user/example example"},
		{"https://www.tiktok.com/@example.co", "tiktok https://www.tiktok.com/@example.co example.co"},
		{"https://mastodon.social/@Alice", "mastodon https://mastodon.social/@alice alice@mastodon.social"},
		{"https://hachyderm.io/@bob", "mastodon https://hachyderm.io/@bob bob@hachyderm.io"},
		{"https://www.threads.net/@example", "threads https://www.threads.com/@example example"},
		{"https://bsky.app/profile/example.bsky.social", "bluesky https://bsky.app/profile/example.bsky.social example.bsky.social"},
		{"https://www.pinterest.co.uk/example/", "pinterest https://www.pinterest.com/example example"},
		{"https://www.reddit.com/user/Example_User/", "reddit https://www.reddit.com/user/example_user u/example_user"},
		{"https://old.reddit.com/u/someone", "reddit https://www.reddit.com/user/someone u/someone"},
		{"https://reddit.com/r/golang", "reddit https://www.reddit.com/r/golang r/golang"},
		{"https://t.me/example_channel", "telegram https://t.me/example_channel example_channel"},
		{"https://t.me/s/example_channel", "telegram https://t.me/example_channel example_channel"},
		{"https://wa.me/441234567890", "whatsapp https://wa.me/441234567890 +441234567890"},
		{"https://api.whatsapp.com/send?phone=+441234567890&text=hi", "whatsapp https://wa.me/441234567890 +441234567890"},

		// Share buttons, intents, content and site pages.
		{"https://twitter.com/intent/tweet?url=https%3A%2F%2Fexample.com", ""},
		{"https://x.com/share?text=hi", ""},
		{"https://twitter.com/hashtag/golang", ""},
		{"https://x.com/example/status/1234567890", ""},
		{"https://www.facebook.com/sharer/sharer.php?u=https://example.com", ""},
		{"https://www.facebook.com/sharer.php?u=https://example.com", ""},
		{"https://www.facebook.com/dialog/share?app_id=1", ""},
		{"https://www.linkedin.com/shareArticle?mini=true&url=x", ""},
		{"https://www.linkedin.com/sharing/share-offsite/?url=x", ""},
		{"https://www.instagram.com/p/Cabc123/", ""},
		{"https://github.com/golang/go", ""},
		{"https://github.com/features", ""},
		{"https://www.youtube.com/watch?v=dQw4w9WgXcQ", ""},
		{"https://youtu.be/dQw4w9WgXcQ", ""},
		{"https://www.tiktok.com/@example/video/123", ""},
		{"https://pinterest.com/pin/create/button/?url=x", ""},
		{"https://www.reddit.com/submit?url=x", ""},
		{"https://www.reddit.com/r/golang/comments/abc/title/", ""},
		{"https://t.me/share/url?url=x", ""},
		{"https://t.me/example_channel/123", ""},
		{"https://wa.me/?text=hello", ""},
		{"https://api.whatsapp.com/send?text=hello", ""},
		{"https://bsky.app/intent/compose?text=hi", ""},
		{"https://medium.com/@writer", ""},
		{"https://example.com/about", ""},
		{"mailto:a@example.com", ""},
	}
	for _, tt := range tests {
		t.Run(tt.href, func(t *testing.T) {
			res, err := Extract(context.Background(), Input{HTML: `<a href="` + tt.href + `">x</a>`}, nil)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range res.Social {
				got = append(got, p.Network+" "+p.URL+" "+p.Handle)
			}
			var want []string
			if tt.want != "" {
				want = []string{tt.want}
			}
			if !slices.Equal(got, want) {
				t.Errorf("got %q, want %q", got, want)
			}
		})
	}
}

func TestProfilesInText(t *testing.T) {
	in := Input{
		HTML: `<head><meta name="twitter:site" content="@Example"></head>
<body><a href="/example">relative</a>
<script type="application/ld+json">{"@type":"Organization","sameAs":["https://www.instagram.com/example/","https://x.com/example"]}</script>
<p>Find us on linkedin.com/company/example, https://fosstodon.org/@example. Or @carol@social.example.org!</p>
<p>Not example.org/@dave without a scheme.</p></body>`,
		BaseURL: "https://github.com/somewhere",
	}
	res, err := Extract(context.Background(), in, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range res.Social {
		got = append(got, p.URL+" "+strings.Repeat("+", p.Count-1))
	}
	want := []string{
		"https://x.com/example +",
		"https://github.com/example ",
		"https://www.instagram.com/example ",
		"https://www.linkedin.com/company/example ",
		"https://fosstodon.org/@example ",
		"https://social.example.org/@carol ",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}
