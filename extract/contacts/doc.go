// Package contacts finds e-mail addresses, phone numbers and social-network
// profile URLs in supplied HTML or text. It is pure pattern extraction:
// nothing is fetched. It backs POST /v1/extract/contacts; Input is that
// endpoint's JSON body and Result its response.
//
//	res, err := contacts.Extract(ctx, contacts.Input{HTML: page, BaseURL: pageURL}, nil)
//
// # What is read
//
// From HTML: the visible text (script, style, iframe and noscript content
// skipped; JSON-LD scripts kept), the href of every a, area and link
// element, Cloudflare-protected addresses (data-cfemail and
// /cdn-cgi/l/email-protection links), and twitter:site/twitter:creator meta
// tags. Block elements start new lines and inline ones do not, so an
// address split over <span>s is found, but nothing is stitched across two
// blocks. Character references are decoded, in Text too.
//
// # E-mail addresses
//
// Plain addresses, mailto: links (percent-decoded, several addresses and
// cc/bcc included, ?subject and the like ignored) and obfuscations:
// "name [at] domain [dot] com", "(at)"/"(dot)", "{at}", "[@]",
// "name@domain[.]com". Words without brackets are accepted only when
// unambiguous: "john AT example DOT com" in capitals, or
// "john at example dot com" right after "e-mail" or "contact"; "looked at
// google dot com" in prose is not an address. Domains are lower-cased and
// the local part kept. Not addresses:
//
//   - a domain without a dot (user@localhost) or whose TLD is not 2-24
//     letters or an xn-- label: package@1.2.3, x@10.0.0.1;
//   - file names: logo@2x.png, icon@3x.jpg (a TLD that is a file extension);
//   - CSS at-rules (@media has no local part) and URL user info
//     (https://key@host);
//   - the user@host of a fediverse handle, @user@host, which is a Mastodon
//     profile instead.
//
// # Phone numbers
//
// tel:, callto: and sms: links, and numbers written in text, parsed with
// libphonenumber (github.com/nyaruka/phonenumbers). A number written with
// "+" or "00" is normalized to E.164; one written nationally needs a
// region: Input.DefaultRegion, else the ccTLD of the page's URL (base_url,
// <base>, canonical or og:url; generic ones such as .io and .co ignored),
// else a region in <html lang> or og:locale ("en-GB"). Without one it is
// kept raw, with no E.164 form, and Valid false.
//
// Links keep any possible number. Text needs more, because digits are
// everywhere. A candidate (digit groups joined by spaces, dots, dashes,
// slashes or parentheses, with an optional extension) is rejected when
//
//   - a letter, digit or currency sign touches it, or it sits in a path or
//     query (/4155552671, id=...), or continues a decimal (1.234.567,89);
//   - it is a date (2024-01-15, 15/01/2024, 01.02.2024), a range of years
//     (2019-2024), an IP address or a version (192.168.0.1, 1.2.3.4);
//   - it follows an ID label ("Order", "No.", "VAT", "ISBN", "SKU") and
//     no phone label;
//   - it has fewer than 7 digits or more than 17.
//
// It is then kept only if libphonenumber finds it valid (VALID leniency,
// national prefix included where the plan requires one) and it is written
// internationally, follows a phone label ("Tel:", "Phone", "Fax", "M:",
// "☎", also across a line such as <dt>Phone</dt><dd>…), or is grouped the
// way the numbering plan groups it (STRICT_GROUPING: "020 7946 0958", not
// "0207 946 0958"); an unformatted run of digits needs a label or "+". A
// number written nationally with no region is kept raw only after a phone
// label. Two numbers run together ("… 0958 / 020 …") are split.
//
// # Social profiles
//
// Links and URLs in text (with or without scheme for the networks below;
// Mastodon needs one) on LinkedIn (/in/, /company/, /school/,
// /showcase/), X and Twitter, Facebook (names, profile.php?id=, /people/),
// Instagram, GitHub (users and organizations), YouTube (/@handle,
// /channel/, /c/, /user/), TikTok (/@handle), Threads, Bluesky
// (/profile/), Pinterest, Reddit (/user/, /u/ and subreddits /r/),
// Telegram (t.me), WhatsApp (wa.me and api.whatsapp.com/send?phone=), and
// Mastodon: /@user on any other host, and @user@host handles in text.
// Only profiles count: share buttons and intents (sharer.php, /intent/,
// /share, shareArticle, /pin/create/, /submit, wa.me/?text=), posts and
// statuses (/status/, /p/, /comments/, t.me/name/123), videos, repositories
// (github.com/owner/repo) and the networks' own pages (/about, /login,
// /explore) do not. URLs are normalized to https, the network's canonical
// host (twitter.com becomes x.com), no query or fragment, and lower case
// except YouTube channel IDs.
//
// # Results and limits
//
// Each list is de-duplicated (e-mails case-insensitively, phones by E.164
// and extension, raw ones by digits, profiles by normalized URL) in order
// of first appearance, with a count of occurrences. Input over
// Options.MaxInputBytes (5 MiB) is refused with errs.KindTooLarge; empty
// input is errs.KindInvalid naming "html". Matching uses RE2 regular
// expressions and the HTML tokenizer, both linear in the input, with no
// tree built; lists stop at Options.MaxItems (1000) each, and phone
// parsing, the costly step, at 10 distinct candidates per item, setting
// Result.Truncated.
package contacts
