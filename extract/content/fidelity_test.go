package content

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/webinfra/webinfra/extract/markdown"
	"github.com/webinfra/webinfra/internal/articlebench"
	"github.com/webinfra/webinfra/internal/testenv"
	"github.com/webinfra/webinfra/internal/wcxb"
)

// TestMarkdownFidelity checks the article's Markdown against the
// whole-page Markdown (what the markdown format of a scrape gives) on
// every page of both data sets, in both modes: each line of the article
// that the whole page has once (the same text) has the links, inline code
// spans and heading level the whole page's line has; each code block the
// whole page has is fenced with the same language; and no permalink mark
// ("¶") is left in a heading (unless it is the page's text). Images are
// not compared: the two pick different sources of lazily loaded ones.
//
// Accurate mode renders the Markdown from the page's own elements that
// hold the extracted text (see findRegion); on the few pages where they
// are not found, it renders the extractor's tree, whose links go-
// trafilatura dropped. Those pages are listed and their share bounded.
func TestMarkdownFidelity(t *testing.T) {
	if testing.Short() || testenv.Race {
		t.Skip("extracts 1,678 pages twice")
	}
	var pages []articlebench.Page
	pages = append(pages, articlebench.Load(t)...)
	for _, p := range wcxb.Load(t) {
		pages = append(pages, articlebench.Page{ID: "wcxb/" + p.ID, URL: p.URL, HTML: p.HTML})
	}
	for _, mode := range []Mode{ModeAccurate, ModeFast} {
		t.Run(string(mode), func(t *testing.T) {
			var mu sync.Mutex
			var failures, fromTree []string
			lines, checked := 0, 0
			parallel(len(pages), func(i int) {
				p := pages[i]
				r, err := Extract(context.Background(), Input{HTML: string(p.HTML), URL: p.URL, Mode: mode}, nil)
				if err != nil {
					t.Errorf("page %s: %v", p.ID, err)
					return
				}
				u, _ := url.Parse(p.URL)
				problems, n, c := compareMarkdown(markdown.Convert(p.HTML, u), r.Markdown)
				mu.Lock()
				defer mu.Unlock()
				lines, checked = lines+n, checked+c
				if r.fromTree {
					fromTree = append(fromTree, fmt.Sprintf("%s (%d problems)", p.ID, len(problems)))
					return
				}
				for _, pr := range problems {
					failures = append(failures, p.ID+": "+pr)
				}
			})
			t.Logf("%s: %d article lines, %d found in the whole-page markdown and checked, %d problems", mode, lines, checked, len(failures))
			slices.Sort(fromTree)
			t.Logf("%s: %d of %d pages rendered from the extractor's tree: %s", mode, len(fromTree), len(pages), strings.Join(fromTree, ", "))
			if len(fromTree)*100 > len(pages)*maxFromTreePercent {
				t.Errorf("%d pages rendered from the extractor's tree, over %d%%", len(fromTree), maxFromTreePercent)
			}
			slices.Sort(failures)
			for _, f := range failures {
				t.Log(f)
			}
			if len(failures)*10000 > checked*maxProblemsPer10k {
				t.Errorf("%d problems in %d lines checked, over %d in 10,000", len(failures), checked, maxProblemsPer10k)
			}
			if os.Getenv("FIDELITY_DUMP") != "" {
				os.WriteFile(os.Getenv("FIDELITY_DUMP")+string(mode), []byte(strings.Join(failures, "\n")), 0o644)
			}
		})
	}
}

// maxFromTreePercent bounds the share of pages whose Markdown is
// rendered from the extractor's tree (16 of 1,678 on 2026-11-30: 1.0%).
const maxFromTreePercent = 2

// maxProblemsPer10k bounds the problems found per 10,000 lines checked.
// It is not zero because lines are matched by their words: a line of the
// article can be another element with the same words as the one the
// whole page's line came from (a table of contents' entry and its
// heading, a product's name in a heading and in a list), and the two may
// differ in links or heading level though neither converter erred.
const maxProblemsPer10k = 2

// compareMarkdown checks an article's Markdown against the whole page's.
// It returns the problems, the article's lines and how many of them the
// whole page has.
func compareMarkdown(whole, article string) (problems []string, lines, checked int) {
	wl := parseLines(whole)
	byPlain := map[string][]mdLine{}
	for _, l := range wl.lines {
		byPlain[l.plain] = append(byPlain[l.plain], l)
	}
	al := parseLines(article)
	for _, l := range al.lines {
		lines++
		same := byPlain[l.plain]
		if strings.Contains(l.raw, "¶") && l.heading > 0 && len(same) == 0 {
			problems = append(problems, fmt.Sprintf("permalink mark in heading %q", l.raw))
		}
		if len(same) != 1 {
			continue // not on the page, or more than once: which is the article's is unknown
		}
		checked++
		if !slices.ContainsFunc(same, func(w mdLine) bool { return w.within(l) }) {
			problems = append(problems, fmt.Sprintf("line %q lacks what the whole page's %q has", l.raw, same[0].raw))
		}
	}
	for first, lang := range al.code {
		if langs, ok := wl.code[first]; ok && !slices.Contains(langs, lang[0]) {
			problems = append(problems, fmt.Sprintf("code block %q fenced as %q, the whole page's as %q", first, lang[0], langs))
		}
	}
	return problems, lines, checked
}

// mdLine is one line of Markdown outside code blocks. Lines are matched
// by their words: the two converters' inputs differ in what is not text
// (a button's emoji, an image-only link, a permalink).
type mdLine struct {
	raw     string
	plain   string   // the text, markup removed
	links   []string // link and image destinations
	code    []string // inline code spans
	heading int      // the heading level, 0 for none
	item    bool     // in a list item or quote
}

// within reports whether l's links, code spans and heading level are all
// in m.
func (l mdLine) within(m mdLine) bool {
	for _, x := range l.links {
		if !slices.Contains(m.links, x) {
			return false
		}
	}
	for _, x := range l.code {
		if !slices.Contains(m.code, x) {
			return false
		}
	}
	// A list item with a heading's text is a table of contents' entry,
	// not the heading.
	return l.heading == m.heading || m.item
}

// parsed is a Markdown document's lines (outside code blocks) and its
// code blocks' languages by their first line.
type parsed struct {
	lines []mdLine
	code  map[string][]string
}

var (
	linePrefix  = regexp.MustCompile(`^(\s*([-*+]|\d+\.|>)\s+)+`)
	headingMark = regexp.MustCompile(`^(#{1,6}) `)
	imageRef    = regexp.MustCompile(`!\[[^\]]*\]\((<[^>]*>|[^)\s]*)\)`)
	imageLink   = regexp.MustCompile(`\[!\[[^\]]*\]\((<[^>]*>|[^)\s]*)\)\]\((<[^>]*>|[^)\s]*)\)`)
	wordRun     = regexp.MustCompile(`[\p{L}\p{N}]+`)
	linkRef     = regexp.MustCompile(`\[([^\]]*)\]\((<[^>]*>|[^)\s]*)\)`)
	destination = regexp.MustCompile(`\]\((<[^>]*>|[^)\s]*)\)`)
	codeSpan    = regexp.MustCompile("`+[^`]+`+")
	markup      = regexp.MustCompile("[`*_~\\\\]")
)

func parseLines(md string) parsed {
	p := parsed{code: map[string][]string{}}
	var fence, lang string
	first := false
	for raw := range strings.SplitSeq(md, "\n") {
		body := strings.TrimLeft(linePrefix.ReplaceAllString(raw, ""), " ")
		if fence != "" {
			if strings.HasPrefix(body, fence) && strings.Trim(body, "`") == "" {
				fence = ""
			} else if first {
				key := strings.TrimSpace(body)
				p.code[key] = append(p.code[key], lang)
				first = false
			}
			continue
		}
		if strings.HasPrefix(body, "```") {
			fence = body[:len(body)-len(strings.TrimLeft(body, "`"))]
			lang, first = strings.TrimSpace(body[len(fence):]), true
			continue
		}
		l := mdLine{raw: raw}
		if m := headingMark.FindStringSubmatch(body); m != nil {
			l.heading = len(m[1])
			body = body[len(m[0]):]
		}
		l.item = body != strings.TrimLeft(raw, " ")
		body = imageLink.ReplaceAllString(body, "")
		body = imageRef.ReplaceAllString(body, "")
		for _, m := range destination.FindAllStringSubmatch(body, -1) {
			l.links = append(l.links, m[1])
		}
		l.code = codeSpan.FindAllString(body, -1)
		plain := linkRef.ReplaceAllString(body, "$1")
		l.plain = strings.Join(wordRun.FindAllString(markup.ReplaceAllString(plain, ""), -1), " ")
		if l.plain == "" {
			continue
		}
		p.lines = append(p.lines, l)
	}
	return p
}
