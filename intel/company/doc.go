// Package company reads a company profile from one of its pages, best
// its home page or about page. It backs POST /v1/enrich/company: the
// server fetches the URL with its SSRF-guarded fetcher and passes the
// answer (pageinfo.FromResponse) to Profile, a pure function that fetches
// nothing and never fails.
//
//	rep := company.Profile(pageinfo.FromResponse(res))
//	fmt.Println(rep.Name, rep.Logo, rep.SocialProfiles, rep.Confidence)
//
// # Signals, strongest first
//
//   - Organization data: JSON-LD (package extract/structured; @graph and
//     nested objects included), else microdata or RDFa, of type
//     Organization, Corporation, LocalBusiness or another of their
//     schema.org subtypes. When the page describes several, the one most
//     likely the site's own is used: its url is the site's home page, it
//     is the publisher other items point to (@id), it says the most; one
//     sitting under brand, manufacturer, author and the like is another
//     company, and types repeated three times or more (a review list) are
//     about others. It gives name, legal and alternate names, type,
//     description, url, logo, founding date, founders, employees, address,
//     telephone, email, contact points and sameAs.
//   - Tags: og:site_name and application-name (name), meta and OpenGraph
//     descriptions, twitter:site (X profile), article:publisher (Facebook
//     page), icons (the largest apple-touch-icon, else icon) and og:image
//     (logo).
//   - The title, as a last resort for the name: the words that spell the
//     site's registrable domain ("Postman" in "Postman API Platform |
//     Sign Up for Free" on postman.com), else a part of it.
//   - The page's e-mail addresses, phone numbers and social links, found
//     by extract/contacts (those on the site's domain first); the
//     twitter:creator of an article, its author, is left out. On a home,
//     contact or about page they fill the telephone and email the data
//     lacks; elsewhere they may be others' (a listing of companies).
//   - Links to the site's contact, about, imprint (Impressum) and careers
//     pages, by path and link text in several languages; careers links on
//     applicant-tracking hosts (Greenhouse, Lever, Workable, ...) too.
//
// Social profiles are de-duplicated per network and handle, the first
// source kept. Report.Sources names the signal of each field and
// Report.Confidence sums them up (high: organization data about this site;
// medium: data of uncertain scope, or a site name with contacts; low: a
// guess from the title), with Notes saying why.
//
// # Limits
//
// The first 10 MiB of the page are read (contacts: its first and last
// 2.5 MiB, where headers and footers are); lists are capped (20 e-mails,
// phones, founders and contact points, 50 sameAs URLs, 30 social
// profiles, 12 company pages) and the organization search stops at 50
// candidates and 8 levels of nesting.
package company
