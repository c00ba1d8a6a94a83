package content

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/webinfra/webinfra/extract/pagetype"
)

// commentedPost is a WordPress blog post followed by its readers'
// comments, each one an <article> of its own, inside the post's
// container, as a theme lays them out.
func commentedPost() string {
	var comments strings.Builder
	for i := range 12 {
		fmt.Fprintf(&comments, `<li class="comment depth-1" id="li-comment-%d"><article id="comment-%d" class="comment">
<footer class="comment-meta"><div class="comment-author vcard"><span class="comment-name">Reader %d</span></div></footer>
<div class="comment-content"><p>Reader remark %d: I read the whole post twice and I think the second half about the telescope mirrors was the strongest part of it, although the bit about the observatory's budget deserved a longer treatment than it got here.</p></div>
</article></li>`, i, i, i, i)
	}
	return `<!doctype html><html><head><title>Europa's water vapour</title></head><body>
<div id="content"><div class="post">
<h1>Europa's water vapour, confirmed</h1>
<div class="entry">` + body + `</div>
<div id="comments" class="comments-wrapper"><h3 id="comments-title">12 Comments</h3>
<ol class="commentlist">` + comments.String() + `</ol></div>
</div></div>
<footer><p>Copyright the blog's author</p></footer>
</body></html>`
}

// TestReaderCommentsLeftOut checks that an article's reader comments are
// not extracted as its text, in either mode, while a thread keeps them.
func TestReaderCommentsLeftOut(t *testing.T) {
	page := commentedPost()
	for _, mode := range []Mode{ModeAccurate, ModeFast} {
		r, err := Extract(context.Background(), Input{HTML: page, Mode: mode}, &Options{TypeModel: twoTypeModel(pagetype.Article, pagetype.Listing, 5)})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(r.Text, "water vapour above the surface") {
			t.Errorf("%s: the article is missing:\n%s", mode, r.Text)
		}
		if strings.Contains(r.Text, "Reader remark") {
			t.Errorf("%s: the readers' comments came out with the article:\n%s", mode, r.Text)
		}
	}
	// On a page the detector takes for a thread, or for an article but
	// under minCommentedArticleConfidence (e^0.85 to 1: 0.70), the
	// section stays: there the comments may be the content.
	for _, m := range []*pagetype.Model{twoTypeModel(pagetype.Forum, pagetype.Article, 5), twoTypeModel(pagetype.Article, pagetype.Forum, 0.85)} {
		r, err := Extract(context.Background(), Input{HTML: page}, &Options{TypeModel: m})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(r.Text, "Reader remark 11") {
			t.Errorf("typed %s at %.2f: the comments are missing:\n%s", r.PageType, r.PageTypeConfidence, r.Text)
		}
	}
}

// TestCommentSectionsOnly checks what dropCommentSection leaves: a
// section the rules match but that holds the page's headline, and an
// opinion site's "commentary" container.
func TestCommentSectionsOnly(t *testing.T) {
	for _, page := range []string{
		`<div class="comment-column"><h1>On the budget</h1>` + body + `</div>`,
		`<h1>On the budget</h1><div class="entry commentary-body">` + body + `</div>`,
	} {
		doc, err := parseHTML(`<html><body>` + page + `</body></html>`)
		if err != nil {
			t.Fatal(err)
		}
		dropCommentSection(doc)
		if text := articleText(doc); !strings.Contains(text, "On the budget") || !strings.Contains(text, "water vapour") {
			t.Errorf("%.50s…: the article went:\n%s", page, text)
		}
	}
}
