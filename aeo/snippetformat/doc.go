// Package snippetformat classifies a page's answer-shaped content into the
// four formats search and answer engines lift as snippets: paragraph,
// list, table and definition. It counts the blocks of each format, gives
// examples with the heading they answer, and predicts the format that
// fits the page best.
//
// What counts (blocks inside nav, header, footer, aside, forms and hidden
// elements are skipped):
//
//   - paragraph: a <p> of 15 to 120 words (40-60 is the snippet sweet spot);
//   - list: a <ul> or <ol> of 3 or more items, each of at most 40 words,
//     not a list of links only (menus);
//   - table: a <table> of 2 or more rows and 2 or more columns with a
//     header (<th>) row or column;
//   - definition: a <dl> with a <dt> and <dd>, or a paragraph that opens
//     like a definition ("X is a …", "X are …", "X refers to …", "X means …")
//     right after a heading.
//
// The prediction weighs what the page has by what its headings ask:
// "how to", "steps", "ways", "tips" and numbered headings favour a list;
// "vs", "compare", "price", "cost", "best" and "top" a table; "what is",
// "what are", "who is", "define" and "meaning" a definition; other
// questions a paragraph. With no cue, the format with the most blocks
// wins. The confidence is the winner's share of the weighted total.
package snippetformat
