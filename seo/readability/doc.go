// Package readability scores how hard a text is to read, with the
// formulas and counting rules of the Python library textstat, version
// 0.7.4 (January 2024), at its default English settings. It backs
// POST /v1/seo/readability: Input is that endpoint's body and Result its
// answer.
//
//	r, err := readability.Text(ctx, "The cat sat on the mat. It was happy.", nil)
//	r, err := readability.HTML(ctx, page, nil) // the page's visible text
//
// # Which textstat
//
// textstat 0.7.4 is the last release whose syllable counter is pyphen
// alone: a word has as many syllables as pyphen's en_US hyphenation points
// plus one (Liang's TeX patterns, with pyphen's rule that no point is
// within two letters of either end). From 0.7.5 on textstat looks words up
// in the CMU pronouncing dictionary first, so its syllable counts, and the
// scores built on them, differ. The dictionary embedded here,
// hyph_en_US.dic, is the file pyphen ships on PyPI (BSD-style licence, see
// hyph_en_US.README.txt); easy_words.txt is textstat's Dale-Chall list of
// familiar words (textstat, MIT licence, see easy_words.LICENSE.txt).
//
// The port is exact, not approximate: on the reference texts in testdata
// (a children's story, a news report, an academic abstract, a licence
// clause, a list-heavy text, web prose) and on the 181 article bodies of
// the shared extraction benchmark every field equals what textstat 0.7.4
// itself computes (testdata/gen_textstat_reference.py runs it, and says
// how).
//
// # What is counted (textstat's rules)
//
//   - words: white-space separated tokens holding a letter, digit or "_";
//     punctuation is removed first, so "well-known" and "don't" are one word
//     each and a lone dash is none;
//   - sentences: runs from a word character through the next run of
//     ".", "!" or "?"; runs of two words or fewer are not counted; at least 1;
//   - syllables: pyphen's en_US hyphenation points + 1 per word, lower-cased;
//   - characters: non-space characters, punctuation included; letters: word
//     characters only;
//   - polysyllables: words of 3+ syllables; difficult words: distinct words
//     not on the easy list with 2+ syllables (3+ inside Gunning fog, any
//     count inside Dale-Chall).
//
// # Formulas and rounding
//
// As textstat computes them, with its intermediate rounding: words per
// sentence and syllables per word are rounded to 1 decimal before Flesch
// reading ease (rounded to 2 decimals) and Flesch-Kincaid grade (1
// decimal); Gunning fog 2 decimals; SMOG 1 decimal and 0 below three
// sentences; ARI from characters per word and words per sentence each
// rounded to 2 decimals, result 1 decimal; Coleman-Liau from letters and
// sentences per 100 words, 2 decimals; Dale-Chall 2 decimals; reading time
// 14.69 ms per character (Options.MsPerChar), in seconds, 2 decimals.
// Rounding is half away from zero.
//
// # HTML
//
// HTML scores the visible text: script, style, template, head
// and hidden elements are skipped, and each block element (p, li, h1-h6,
// td, div, br, ...) is scored as its own run of text, so a heading or a
// list item without a full stop never merges with the next sentence.
// Counts are otherwise textstat's, summed over the blocks.
//
// # Bad and huge input
//
// Empty input, input without a word, or both text and html given is an
// errs.KindInvalid error naming the field ("text" or "html"). Text over
// Options.MaxInputBytes (default 2 MiB; HTML may be four times that) is
// cut at a white space before the cap and Result.Truncated is set. A 50 KB
// text takes about 6 ms.
package readability
