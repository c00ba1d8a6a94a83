package contacts

import (
	"cmp"
	"context"
	"fmt"
	"iter"
	"net/url"
	"slices"
	"strings"

	"github.com/nyaruka/phonenumbers"

	"github.com/webinfra/webinfra/errs"
)

// Sources of an Email or a Phone.
const (
	SourceMailto     = "mailto"     // a mailto: link, Cloudflare-protected addresses included
	SourceTelLink    = "tel_link"   // a tel:, callto: or sms: link
	SourceText       = "text"       // text
	SourceObfuscated = "obfuscated" // text written as name [at] domain [dot] com and the like
)

// Defaults of Options.
const (
	DefaultMaxInputBytes = 5 << 20 // html and text together
	DefaultMaxItems      = 1000    // per kind: emails, phones, social profiles
)

// Input is what to scan. The same struct is the JSON body of
// POST /v1/extract/contacts.
type Input struct {
	HTML          string `json:"html,omitempty" doc:"An HTML document or fragment. Visible text, JSON-LD blocks, mailto:/tel: links, other links and twitter:site meta tags are scanned; scripts and styles are not. html, text or both are required." example:"<footer><a href=\"mailto:sales@example.co.uk?subject=Hi\">Sales</a> Tel: 020 7946 0958 <a href=\"https://x.com/example\">X</a></footer>"`
	Text          string `json:"text,omitempty" doc:"Plain text, scanned after html when both are given. HTML character references (&#64;) are decoded first." example:"Write to info [at] example [dot] com or call +1 (415) 555-2671."`
	DefaultRegion string `json:"default_region,omitempty" minLength:"2" maxLength:"2" doc:"ISO 3166-1 alpha-2 region (GB, US, DE) for phone numbers written without a country code. When empty it is inferred from the ccTLD of base_url (or of the page's <base>, canonical or og:url), else from a region in <html lang> or og:locale; with no region such numbers are kept raw, unnormalized." example:"GB"`
	BaseURL       string `json:"base_url,omitempty" maxLength:"2048" doc:"The page's URL (http or https): resolves relative links and hints the phone region by its country-code TLD." example:"https://www.example.co.uk/contact"`
}

// Options configure Extract. Nil means defaults.
type Options struct {
	// MaxInputBytes bounds len(HTML)+len(Text); 0 means
	// DefaultMaxInputBytes. Larger input is an errs.KindTooLarge error.
	MaxInputBytes int
	// MaxItems bounds each list of the Result; 0 means DefaultMaxItems.
	// Items past it are dropped and Result.Truncated is set. It also bounds
	// the costly phone parsing to 10 distinct candidates per item.
	MaxItems int
}

// Result is what Extract found, each list de-duplicated in order of first
// appearance.
type Result struct {
	Emails       []Email   `json:"emails" doc:"E-mail addresses, de-duplicated case-insensitively."`
	Phones       []Phone   `json:"phones" doc:"Phone numbers, de-duplicated by E.164 number (by digits when not normalized)."`
	Social       []Profile `json:"social" doc:"Social-network profiles, de-duplicated by normalized URL. Share buttons, posts and videos are not profiles."`
	Region       string    `json:"region,omitempty" doc:"The region applied to phone numbers without a country code." example:"GB"`
	RegionSource string    `json:"region_source,omitempty" enum:"default_region,tld,lang" doc:"Where region came from: the default_region field, a country-code TLD, or the page's language tag."`
	Truncated    bool      `json:"truncated,omitempty" doc:"A list was cut at the item limit, or the input held so many phone-like numbers that not all were examined."`
}

// Extract finds e-mail addresses, phone numbers and social profiles in
// in.HTML and in.Text. It only matches patterns: nothing is fetched. Bad
// input is an errs.KindInvalid error naming the field; input over
// Options.MaxInputBytes is errs.KindTooLarge.
func Extract(ctx context.Context, in Input, opts *Options) (*Result, error) {
	o, err := opts.resolve()
	if err != nil {
		return nil, err
	}
	region, base, err := in.validate(o.MaxInputBytes)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	doc := newDocument(in.HTML, in.Text, base)
	res := &Result{Region: region}
	if region != "" {
		res.RegionSource = "default_region"
	} else {
		res.Region, res.RegionSource = doc.inferRegion()
	}
	for _, find := range []func(){
		func() { res.Emails = findEmails(doc) },
		func() { res.Phones, res.Truncated = findPhones(doc, res.Region, parsesPerItem*o.MaxItems) },
		func() { res.Social = findProfiles(doc) },
	} {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		find()
	}
	res.Emails, res.Truncated = capped(res.Emails, o.MaxItems, res.Truncated)
	res.Phones, res.Truncated = capped(res.Phones, o.MaxItems, res.Truncated)
	res.Social, res.Truncated = capped(res.Social, o.MaxItems, res.Truncated)
	return res, nil
}

func (o *Options) resolve() (Options, error) {
	var r Options
	if o != nil {
		r = *o
	}
	switch {
	case r.MaxInputBytes < 0:
		return r, errs.Invalid("options.max_input_bytes", "must not be negative")
	case r.MaxInputBytes == 0:
		r.MaxInputBytes = DefaultMaxInputBytes
	}
	switch {
	case r.MaxItems < 0:
		return r, errs.Invalid("options.max_items", "must not be negative")
	case r.MaxItems == 0:
		r.MaxItems = DefaultMaxItems
	}
	return r, nil
}

// validate checks in and returns its region (upper-cased, "" when not
// given) and base URL (nil when not given).
func (in *Input) validate(maxBytes int) (string, *url.URL, error) {
	switch {
	case len(in.HTML) > maxBytes:
		return "", nil, tooLarge("html", len(in.HTML), maxBytes)
	case len(in.Text) > maxBytes:
		return "", nil, tooLarge("text", len(in.Text), maxBytes)
	case len(in.HTML)+len(in.Text) > maxBytes:
		return "", nil, tooLarge("", len(in.HTML)+len(in.Text), maxBytes)
	case strings.TrimSpace(in.HTML) == "" && strings.TrimSpace(in.Text) == "":
		return "", nil, errs.Invalid("html", "html or text is required")
	}
	region := strings.ToUpper(strings.TrimSpace(in.DefaultRegion))
	if region != "" && !phonenumbers.GetSupportedRegions()[region] {
		return "", nil, errs.Invalid("default_region", "must be an ISO 3166-1 alpha-2 region with a phone numbering plan, not %q", in.DefaultRegion)
	}
	var base *url.URL
	if s := strings.TrimSpace(in.BaseURL); s != "" {
		u, err := url.Parse(s)
		switch {
		case err != nil:
			return "", nil, errs.Invalid("base_url", "is not a valid URL")
		case u.Scheme != "http" && u.Scheme != "https":
			return "", nil, errs.Invalid("base_url", "scheme must be http or https, not %q", u.Scheme)
		case u.Hostname() == "":
			return "", nil, errs.Invalid("base_url", "must have a host")
		}
		base = u
	}
	return region, base, nil
}

func tooLarge(field string, size, limit int) error {
	what := field
	if what == "" {
		what = "html and text together"
	}
	return &errs.Error{Kind: errs.KindTooLarge, Field: field,
		Message: fmt.Sprintf("%s is %d bytes, over the limit of %d", what, size, limit)}
}

// capped cuts items to at most max, or'ing truncated with whether it did.
func capped[T any](items []T, max int, truncated bool) ([]T, bool) {
	if len(items) > max {
		return items[:max], true
	}
	return items, truncated
}

// hit is an item and the offset in the document's text where it was found.
type hit[T any] struct {
	pos  int
	item T
}

// tally orders hits by position and keeps the first item of each key, its
// count (the field count returns) set to the number of hits with that key.
// The result is never nil, so that JSON shows an empty list.
func tally[T any](hits []hit[T], key func(T) string, count func(*T) *int) []T {
	slices.SortStableFunc(hits, func(a, b hit[T]) int { return cmp.Compare(a.pos, b.pos) })
	index := map[string]int{}
	items := []T{}
	for _, h := range hits {
		k := key(h.item)
		if i, ok := index[k]; ok {
			*count(&items[i])++
			continue
		}
		*count(&h.item) = 1
		index[k] = len(items)
		items = append(items, h.item)
	}
	return items
}

// lines yields the lines of text that keep accepts, with their offsets: a
// cheap test per line spares the regular expressions most of a page.
func lines(text string, keep func(string) bool) iter.Seq2[int, string] {
	return func(yield func(int, string) bool) {
		for start := 0; start < len(text); {
			end := strings.IndexByte(text[start:], '\n')
			if end < 0 {
				end = len(text)
			} else {
				end += start
			}
			if line := text[start:end]; keep(line) && !yield(start, line) {
				return
			}
			start = end + 1
		}
	}
}
