// Package keywords extracts keywords from a text with RAKE, Rapid
// Automatic Keyword Extraction: S. Rose, D. Engel, N. Cramer and W. Cowley,
// "Automatic keyword extraction from individual documents", in M. W. Berry
// and J. Kogan (eds.), Text Mining: Applications and Theory, Wiley, 2010.
// It backs POST /v1/seo/keyword-extract: Input is that endpoint's body and
// Result its answer.
//
//	res, err := keywords.Extract(ctx, keywords.Input{Text: text}, nil)
//	for _, k := range res.Keywords { fmt.Println(k.Phrase, k.Score) }
//
// # Algorithm
//
// The text is split into candidate phrases at phrase delimiters and at stop
// words; a candidate is a run of consecutive content words. Every word w
// gets freq(w), the number of candidates it occurs in, and deg(w), the
// summed length in words of those candidates (its co-occurrences,
// itself included); its score is deg(w)/freq(w). A candidate's score is
// the sum of its words' scores. Distinct candidates are answered best
// first; equal scores (compared to 9 decimals) keep the order of first
// occurrence, so the answer is deterministic. Scores are exact (the paper
// prints them to 1 decimal). max_keywords caps the answer (default 20);
// top_third applies the paper's own cut-off instead, T = one third of the
// number of distinct candidate words. The paper's optional "adjoining
// keywords" step (keywords that contain a stop word, such as "axis of
// evil") is not implemented.
//
// # Splitting (Unicode-aware)
//
// A word is a run of letters, combining marks and digits in any script,
// kept together across an apostrophe, hyphen or underscore between two
// such characters (don't, well-known, l'homme) and across "." or ","
// between digits. Everything else that is not white space is a phrase
// delimiter: punctuation, symbols, emoji. A blank line also ends a phrase
// (in HTML every block element does: p, li, h1-h6, td, div, br, ...), a
// single line break does not. Words are lower-cased and typographic
// apostrophes read as "'". A stop word ends the phrase; so does a word
// without a letter (a number), and an elided stop word in front of an
// apostrophe ("l'", "d'" in French) is cut off the word it is attached to.
// min_words and max_words (default 1 and 5) bound a candidate's length in
// words: runs outside the range are not candidates and do not count towards
// any word's score (max_words stops navigation menus and lists of names,
// which have no stop words, from dominating a web page).
//
// # Stop lists
//
// English (the default, "en") uses the SMART stop list of Salton's SMART
// retrieval system (1971; 571 entries, from Cornell's english.stop as
// shipped by the reference RAKE implementation github.com/aneesha/RAKE,
// MIT licence). da, de, es, fi, fr, hu, it, nb, nl, pt, ru and sv use the
// Snowball project's stop lists (snowballstem.org, 3-clause BSD licence,
// copyright Martin Porter and Richard Boulton). stopwords/SOURCES.md gives
// the exact sources and the licence text. Options.StopWords replaces the
// list for Go callers.
//
// On the paper's sample abstract ("Compatibility of systems of linear
// constraints over the set of natural numbers. ...") the SMART list
// reproduces the paper's extracted keywords, scores and order: minimal
// generating sets 8.7, linear diophantine equations 8.5, minimal supporting
// set 7.7, minimal set 4.7, linear constraints 4.5, natural numbers 4,
// strict inequations 4, nonstrict inequations 4, upper bounds 4 (its top
// third of 29 candidate words). Below those the lists differ: the stop
// list behind the paper's example (not given with it) also dropped
// "types", "mixed", "considered" and "construction" and kept
// "corresponding", as its Figure 1.2 of candidates shows, whereas SMART
// holds "corresponding" and not the others, so our 10th keyword is "mixed
// types" (3.7) where the paper's candidate list has "corresponding
// algorithms" (3.5). Fed the paper's own split (its Figure 1.2), the
// package gives the paper's degrees, frequencies and word scores exactly;
// the tests check both.
//
// # Bad and huge input
//
// Empty text, text with no candidate phrase, both text and html, an unknown
// language or an out-of-range limit is an errs.KindInvalid error naming the
// field. Input is bounded: at most 1 MiB of text is read
// (Options.MaxInputBytes; HTML may be four times as long, its visible text
// is capped the same), cut at white space, and scanning stops after 100,000
// candidate occurrences (Options.MaxCandidates); Result.Truncated then
// says so. max_keywords is at most 500 and max_words at most 16. A 50 KB
// text takes about 2 ms.
package keywords
