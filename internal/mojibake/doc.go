// Package mojibake repairs text that was UTF-8, was read by mistake as
// Latin-1 or Windows-1252, and was written out as UTF-8 again: a page
// whose "doesn’t" reads "doesnâ€™t", or "doesnâ" followed by two
// invisible C1 controls. Pages served that way exist (a CMS that
// double-encodes what an editor pasted), and for a reader, a search
// index or a language model the word is broken: "doesnâ" is one word,
// not "doesn" and "t".
//
// Only sequences that cannot be meant are repaired: a character from
// U+00C2 to U+00F4 (the lead byte of a UTF-8 sequence, read as Latin-1)
// followed by the characters its continuation bytes were read as, when
// at least one of those is a C1 control (U+0080–U+009F, which no page
// means to show) or the no-break space after "Â", or is a character
// Windows-1252 puts at 0x80–0x9F (€, ™, “ and the like) where a two-byte
// sequence stands for a character text is written in ("CAFÉ’S" stays: it
// would stand for an IPA letter). A text with none of those is left as it is;
// in one that has them, the sequences that could be meant on their own
// ("Ã©" for é, "æ¼¢" for 漢) are repaired as well: the text went through
// the mix-up. (Python's ftfy weighs each sequence with a model of what
// text looks like; no Go library does this, hence this package.)
package mojibake
