package main

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/webinfra/webinfra/extract/contacts"
	"github.com/webinfra/webinfra/extract/content"
	"github.com/webinfra/webinfra/extract/structured"
	"github.com/webinfra/webinfra/extract/tables"
)

// The human forms of the extractions. --json gives everything; these
// give what a person reads first.

// writeArticle prints an article as markdown or as text, under its
// headline when the extraction left it out. A page without an article prints nothing and says
// so on stderr: it is not an error, as in the HTTP API.
func writeArticle(w, stderr io.Writer, res *content.Result, format string) error {
	if res.NoContent {
		_, err := fmt.Fprintf(stderr, "webinfra: no article found (the page looks like a %s page); --json gives its metadata\n", res.PageType)
		return err
	}
	body, head := res.Text, res.Title
	if format == "markdown" {
		body, head = res.Markdown, "# "+res.Title
	}
	if res.Title != "" && !strings.HasPrefix(body, head) {
		fmt.Fprintf(w, "%s\n\n", head)
	}
	return writeText(w, body)
}

// writeStructured prints a summary of a page's structured data, one
// "name: value" line each: the meta tags a person looks for, the types of
// the JSON-LD, microdata and RDFa items, the OpenGraph and Twitter
// properties and the page's feeds.
func writeStructured(w io.Writer, res *structured.Result) error {
	line := func(name, value string) {
		if value != "" {
			fmt.Fprintf(w, "%s: %s\n", name, value)
		}
	}
	if m := res.Meta; m != nil {
		line("title", m.Title)
		line("description", m.Description)
		line("author", m.Author)
		line("language", m.Language)
		line("published", m.Published)
		line("modified", m.Modified)
	}
	if l := res.Links; l != nil {
		line("canonical", l.Canonical)
		for _, f := range l.Feeds {
			line("feed", strings.TrimSpace(f.Href+" "+f.Type))
		}
	}
	if j := res.JSONLD; j != nil {
		line("json-ld", itemsSummary(len(j.Items), j.Types))
		for _, e := range j.Errors {
			line("json-ld error", fmt.Sprintf("block %d: %s", e.Block, e.Message))
		}
	}
	line("microdata", itemTypes(res.Microdata))
	line("rdfa", itemTypes(res.RDFa))
	for _, name := range slices.Sorted(maps.Keys(res.OpenGraph)) {
		line(name, propertyValue(res.OpenGraph[name]))
	}
	for _, name := range slices.Sorted(maps.Keys(res.Twitter)) {
		line(name, res.Twitter[name])
	}
	if len(res.Truncated) > 0 {
		line("truncated", strings.Join(res.Truncated, ", "))
	}
	return nil
}

// itemTypes summarizes microdata or RDFa items: how many, of which types.
func itemTypes(items []*structured.Item) string {
	var types []string
	for _, it := range items {
		for _, t := range it.Type {
			if !slices.Contains(types, t) {
				types = append(types, t)
			}
		}
	}
	return itemsSummary(len(items), types)
}

// itemsSummary is "N items: type, type", or "" for none.
func itemsSummary(n int, types []string) string {
	if n == 0 {
		return ""
	}
	s := fmt.Sprintf("%d item", n)
	if n > 1 {
		s += "s"
	}
	if len(types) > 0 {
		s += ": " + strings.Join(types, ", ")
	}
	return s
}

// propertyValue is an OpenGraph value as text: a string as it is, a list
// or object as compact JSON.
func propertyValue(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// writeContacts prints the e-mail addresses, phone numbers (E.164 when
// known, as written otherwise) and social profiles, one per line under a
// heading per kind; kinds with none are left out.
func writeContacts(w io.Writer, res *contacts.Result) error {
	var lines []string
	section := func(title string, items []string) {
		if len(items) > 0 {
			lines = append(lines, title)
			for _, it := range items {
				lines = append(lines, "  "+it)
			}
		}
	}
	var emails, phones, social []string
	for _, e := range res.Emails {
		emails = append(emails, e.Address)
	}
	for _, p := range res.Phones {
		n := p.E164
		if n == "" {
			n = p.Raw
		}
		if p.Extension != "" {
			n += " ext. " + p.Extension
		}
		if p.Type != "" {
			n += " (" + strings.ReplaceAll(p.Type, "_", " ") + ")"
		}
		phones = append(phones, n)
	}
	for _, p := range res.Social {
		social = append(social, fmt.Sprintf("%-10s %s", p.Network, p.URL))
	}
	section("E-mail:", emails)
	section("Phone:", phones)
	section("Social:", social)
	if len(lines) == 0 {
		lines = append(lines, "no contacts found")
	}
	return writeText(w, strings.Join(lines, "\n"))
}

// writeTables prints every table as a GitHub-flavoured markdown table,
// under a heading with its number and caption.
func writeTables(w io.Writer, res *tables.Result) error {
	if len(res.Tables) == 0 {
		return writeText(w, "no tables found")
	}
	for i, t := range res.Tables {
		if i > 0 {
			fmt.Fprintln(w)
		}
		head := fmt.Sprintf("Table %d", t.Index+1)
		if t.Caption != "" {
			head += ": " + t.Caption
		}
		fmt.Fprintf(w, "%s (%d rows × %d columns)\n\n", head, t.RowCount, t.ColumnCount)
		if err := writeMarkdownTable(w, t); err != nil {
			return err
		}
	}
	return nil
}

// writeMarkdownTable writes a table's headers (blank when it has none), a
// separator row and its rows.
func writeMarkdownTable(w io.Writer, t tables.Table) error {
	headers := t.Headers
	if len(headers) == 0 {
		headers = make([]string, t.ColumnCount)
	}
	var b strings.Builder
	row := func(cells []string) {
		b.WriteString("|")
		for _, c := range cells {
			b.WriteString(" " + markdownCell(c) + " |")
		}
		b.WriteString("\n")
	}
	row(headers)
	b.WriteString(strings.Repeat("| --- ", len(headers)) + "|\n")
	for _, r := range t.Rows {
		row(r)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// markdownCell makes a cell's text fit on one line of a markdown table.
func markdownCell(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	return strings.Join(strings.Fields(s), " ")
}
