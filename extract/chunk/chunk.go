package chunk

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"strings"
	"unicode/utf8"

	"github.com/webinfra/webinfra/errs"
)

// Defaults and limits of Options.
const (
	DefaultChunkSize    = 512
	DefaultChunkOverlap = 64
	MinChunkSize        = 32
	MaxChunkSize        = 8192
)

// MaxHeadingBytes caps each heading of a chunk's HeadingPath: a longer
// heading is cut at a word and ends with "…". Every chunk repeats its
// path, so an uncapped heading of 1 MB made a 7.5 MB page answer 1.3 GB.
const MaxHeadingBytes = 256

// Options configures Split. The zero value (and nil) means the defaults:
// markdown content, 512-token chunks overlapping by 64 tokens.
type Options struct {
	ChunkSize    int    `json:"chunk_size,omitempty" default:"512" doc:"Most tokens in a chunk (estimated for cl100k_base): 0 (the default, 512) or 32 to 8192."`
	ChunkOverlap int    `json:"chunk_overlap,omitempty" default:"64" doc:"Tokens at the start of each chunk that repeat the end of the previous one: 0 (the default, 64 or a quarter of chunk_size, whichever is less), -1 (none), or 1 to half of chunk_size."`
	Format       string `json:"format,omitempty" enum:"markdown,text" default:"markdown" doc:"What the content is: markdown (headings, links, images, emphasis, lists, tables and code are understood) or plain text (one paragraph per line)."`
	// MaxChunks, when > 0, caps the chunks of one result: content that
	// would make more is refused (chunk_size), before any chunk's text is
	// built. A server sets it so that one call's answer is bounded.
	MaxChunks int `json:"-"`
}

// Validate checks the options as Split would, without splitting.
func (opts *Options) Validate() error {
	_, err := opts.resolve()
	return err
}

// Result is the chunked content.
type Result struct {
	Chunks       []Chunk `json:"chunks" doc:"The chunks, in content order."`
	Tokenizer    string  `json:"tokenizer" example:"cl100k_base-estimate-v1" doc:"How token_count is counted: an estimate of OpenAI's cl100k_base tokenizer."`
	ChunkSize    int     `json:"chunk_size" doc:"The chunk size used, in tokens."`
	ChunkOverlap int     `json:"chunk_overlap" doc:"The overlap used, in tokens."`
	ContentWords int     `json:"content_words" doc:"Words in the content."`
	AlignedWords int     `json:"aligned_words" doc:"Words of the content found in the page's text, in order; only these are in the chunks. Words that are not (an image's alt text, a number the markdown made up) are dropped."`
}

// Chunk is a piece of the content sized for an embedding model.
type Chunk struct {
	ID            string   `json:"id" example:"3f9a1c0e5b7d2a64" doc:"Stable id: a hash of start, end and text, so the same page and options always give the same ids."`
	Index         int      `json:"index" doc:"Position in the chunk list, from 0."`
	Text          string   `json:"text" doc:"The text to embed: readable text without markdown syntax (links keep their text, images are dropped). Its words occur in order in the page between start and end."`
	Start         int      `json:"start" doc:"Byte offset in the fetched page where the chunk's first word starts."`
	End           int      `json:"end" doc:"Byte offset in the fetched page just after the chunk's last word: the chunk is page[start:end], markup included."`
	HeadingPath   []string `json:"heading_path" doc:"The headings the chunk sits under, outermost first, from the content's headings (markdown # lines, or lines that are h1–h6 in the page). Empty before the first heading."`
	TokenCount    int      `json:"token_count" doc:"Tokens in text (estimate, see tokenizer); at most chunk_size unless one word alone is longer."`
	CharCount     int      `json:"char_count" doc:"Unicode code points in text."`
	OverlapChars  int      `json:"overlap_chars" doc:"Code points at the start of text that repeat the end of the previous chunk's text; 0 for the first chunk."`
	OverlapTokens int      `json:"overlap_tokens" doc:"Tokens of that repeated start (estimate, see tokenizer); at most chunk_overlap."`
}

// Split splits the extracted content of a page into chunks for embedding.
// page is the page exactly as fetched (UTF-8 HTML); content is the text a
// main-content extractor took from it, markdown unless opts.Format says
// text. Each chunk's Start and End are byte offsets into page; doc.go
// describes the algorithm and its guarantees.
//
// Errors are errs.KindInvalid: bad options (fields chunk_size,
// chunk_overlap, format), content without words, or content none of whose
// words are in the page (field content).
func Split(page []byte, content string, opts *Options) (*Result, error) {
	o, err := opts.resolve()
	if err != nil {
		return nil, err
	}
	content = strings.ToValidUTF8(content, "\uFFFD")
	blocks := parseContent(content, o.Format)
	var cws []cword
	var words []string
	for bi := range blocks {
		for _, sp := range wordSpans(blocks[bi].text, nil) {
			cws = append(cws, cword{block: int32(bi), span: sp})
			words = append(words, blocks[bi].text[sp.s:sp.e])
		}
	}
	if len(words) == 0 {
		return nil, errs.Invalid("content", "has no words")
	}
	src := parseSource(page)
	m := align(words, src.words)
	for i := range cws {
		cws[i].m = m[i]
	}
	cws = cutApart(cws, src)
	markHeadings(blocks, cws, src)
	d := newDoc(blocks, cws, src)
	res := &Result{
		Tokenizer:    TokenizerName,
		ChunkSize:    o.ChunkSize,
		ChunkOverlap: o.ChunkOverlap,
		ContentWords: len(words),
		AlignedWords: len(d.units),
	}
	if len(d.units) == 0 {
		return nil, errs.Invalid("content", "none of its %d words were found in the page's text", len(words))
	}
	ranges := d.chunks(o.ChunkSize*1000, o.ChunkOverlap*1000)
	if o.MaxChunks > 0 && len(ranges) > o.MaxChunks {
		need := (o.ChunkSize*len(ranges) + o.MaxChunks - 1) / o.MaxChunks
		return nil, errs.Invalid("chunk_size", "at %d tokens this content makes %d chunks; at most %d are returned per call: use a chunk_size of at least %d (or a smaller chunk_overlap)",
			o.ChunkSize, len(ranges), o.MaxChunks, min(need, MaxChunkSize))
	}
	for _, r := range ranges {
		text := d.render(r.from, r.to)
		// Units follow the page (the alignment keeps both sides in
		// order), so the first starts the chunk and the last ends it.
		start, end := d.units[r.from].start, d.units[r.to-1].end
		c := Chunk{
			Index:       len(res.Chunks),
			Text:        text,
			Start:       start,
			End:         end,
			HeadingPath: d.path(r.own),
			TokenCount:  d.est.tokens(text),
			CharCount:   utf8.RuneCountInString(text),
		}
		if r.own > r.from {
			ov := d.render(r.from, r.own)
			c.OverlapChars = utf8.RuneCountInString(ov)
			c.OverlapTokens = d.est.tokens(ov)
		}
		c.ID = chunkID(start, end, text)
		res.Chunks = append(res.Chunks, c)
	}
	return res, nil
}

// cutApart cuts each content word that glues page words with text
// between them into one word per page word.
func cutApart(cws []cword, src *source) []cword {
	n := 0
	for _, w := range cws {
		if w.m.apart {
			n += int(w.m.hi - w.m.lo)
		}
	}
	if n == 0 {
		return cws
	}
	out := make([]cword, 0, len(cws)+n)
	for _, w := range cws {
		if !w.m.apart {
			out = append(out, w)
			continue
		}
		s := w.span.s
		for j := w.m.lo; j <= w.m.hi; j++ {
			e := s + len(src.words[j].text)
			out = append(out, cword{block: w.block, span: span{s, e}, m: match{lo: j, hi: j}})
			s = e
		}
	}
	return out
}

// resolve applies the defaults and checks the options.
func (opts *Options) resolve() (Options, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.ChunkSize == 0 {
		o.ChunkSize = DefaultChunkSize
	}
	if o.ChunkSize < MinChunkSize || o.ChunkSize > MaxChunkSize {
		return o, errs.Invalid("chunk_size", "must be 0 (the default, %d) or between %d and %d tokens, got %d", DefaultChunkSize, MinChunkSize, MaxChunkSize, o.ChunkSize)
	}
	// Overlap is at most half a chunk: at chunk_size 32 and overlap 31,
	// each chunk moved one token on, and a 7.5 MB page made 275 MB of JSON.
	switch {
	case o.ChunkOverlap == 0:
		o.ChunkOverlap = min(DefaultChunkOverlap, o.ChunkSize/4)
	case o.ChunkOverlap == -1:
		o.ChunkOverlap = 0
	case o.ChunkOverlap < -1 || o.ChunkOverlap > o.ChunkSize/2:
		return o, errs.Invalid("chunk_overlap", "must be 0 (the default), -1 (none) or between 1 and half of chunk_size (%d), got %d", o.ChunkSize/2, o.ChunkOverlap)
	}
	switch strings.ToLower(o.Format) {
	case "", FormatMarkdown:
		o.Format = FormatMarkdown
	case FormatText:
		o.Format = FormatText
	default:
		return o, errs.Invalid("format", "must be %q or %q, got %q", FormatMarkdown, FormatText, o.Format)
	}
	return o, nil
}

// chunkID hashes a chunk's offsets and text.
func chunkID(start, end int, text string) string {
	h := sha256.New()
	var b [16]byte
	binary.BigEndian.PutUint64(b[:8], uint64(start))
	binary.BigEndian.PutUint64(b[8:], uint64(end))
	h.Write(b[:])
	h.Write([]byte(text))
	return hex.EncodeToString(h.Sum(nil)[:8])
}
