package convert

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/webinfra/webinfra/errs"
)

// TesseractFlag is the server flag that names the tesseract binary;
// errors name it so an operator knows what to set.
const TesseractFlag = "--tesseract"

// installFix is the remedy every "tesseract missing" error names.
const installFix = "install tesseract-ocr (apt-get install tesseract-ocr tesseract-ocr-eng) or start the server with " + TesseractFlag + " PATH"

// Bounds on what a tesseract process may produce and how long the
// start-up queries may take.
const (
	// maxTSVBytes caps the TSV read from one recognition: about 200,000
	// words, more than a 40-megapixel page of small print holds.
	maxTSVBytes = 32 << 20
	// maxStderrBytes caps the diagnostics kept from one run.
	maxStderrBytes = 64 << 10
	// infoTimeout bounds tesseract --version and --list-langs.
	infoTimeout = 15 * time.Second
	// killGrace is how long a killed tesseract may keep its pipes open
	// before Wait gives up on them (exec.Cmd.WaitDelay).
	killGrace = 2 * time.Second
)

// Tesseract is the Engine that runs the tesseract command-line program,
// one process per image: `tesseract stdin stdout -l LANGS --psm 3 tsv`,
// the image on stdin and the TSV (one row per page, block, paragraph,
// line and word, each with its box and confidence) on stdout.
//
// It runs the CLI rather than linking libtesseract through gosseract
// because gosseract needs cgo and this module builds without it (pure Go,
// a static binary, cross-compiles). A process per image also isolates the
// server from a crash or leak in tesseract or leptonica on a hostile
// image, and lets OCR kill a run that takes too long, which an in-process
// call cannot be made to stop.
//
// Each process runs with OMP_THREAD_LIMIT=1: OCR already runs one
// process per CPU (Options.Concurrency), and tesseract's OpenMP threads
// on top of that oversubscribe the machine and slow every image down.
type Tesseract struct {
	path string // as configured: "" means look up "tesseract" in PATH

	mu   sync.Mutex
	bin  string      // the resolved binary, once Info has succeeded
	info *EngineInfo // cached after the first successful Info
}

// NewTesseract returns the tesseract Engine for the binary at path, or
// for "tesseract" in PATH when path is empty. Nothing is run until the
// first call: a missing binary makes every call errs.KindUnavailable.
func NewTesseract(path string) *Tesseract { return &Tesseract{path: path} }

// Info runs `tesseract --version` and `tesseract --list-langs` once and
// remembers the answer (a failure is not remembered, so installing
// tesseract later needs no restart). The osd data is left out of
// Languages: it detects orientation and script but recognizes no text.
func (t *Tesseract) Info(ctx context.Context) (EngineInfo, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.info != nil {
		return *t.info, nil
	}
	bin, err := t.lookPath()
	if err != nil {
		return EngineInfo{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, infoTimeout)
	defer cancel()
	out, err := runQuiet(ctx, bin, "--version")
	if err != nil {
		return EngineInfo{}, errs.Wrap(errs.KindUnavailable, err, "%s --version failed; %s", bin, installFix)
	}
	name := parseVersion(out)
	if out, err = runQuiet(ctx, bin, "--list-langs"); err != nil {
		return EngineInfo{}, errs.Wrap(errs.KindUnavailable, err, "%s --list-langs failed; %s", bin, installFix)
	}
	langs := parseLanguages(out)
	if len(langs) == 0 {
		return EngineInfo{}, errs.New(errs.KindUnavailable,
			"%s has no language data installed; install one (apt-get install tesseract-ocr-eng)", bin)
	}
	t.bin, t.info = bin, &EngineInfo{Name: name, Languages: langs}
	return *t.info, nil
}

// lookPath resolves the binary, or says how to install it.
func (t *Tesseract) lookPath() (string, error) {
	if t.path == "" {
		bin, err := exec.LookPath("tesseract")
		if err != nil {
			return "", errs.Wrap(errs.KindUnavailable, err, "OCR is unavailable: tesseract is not in PATH; %s", installFix)
		}
		return bin, nil
	}
	bin, err := exec.LookPath(t.path)
	if err != nil {
		return "", errs.Wrap(errs.KindUnavailable, err, "OCR is unavailable: no tesseract at %s; %s", t.path, installFix)
	}
	return bin, nil
}

// runQuiet runs bin with one argument and returns stdout and stderr
// together (older releases print --list-langs on stderr), capped.
func runQuiet(ctx context.Context, bin, arg string) ([]byte, error) {
	var out cappedBuffer
	out.limit = maxStderrBytes
	cmd := exec.CommandContext(ctx, bin, arg)
	cmd.Stdout, cmd.Stderr = &out, &out
	isolate(cmd)
	cmd.WaitDelay = killGrace
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%w: %s", err, tail(out.Bytes()))
	}
	return out.Bytes(), nil
}

// parseVersion takes the first line of --version ("tesseract 5.3.0").
func parseVersion(out []byte) string {
	for line := range strings.Lines(string(out)) {
		if line = strings.TrimSpace(line); line != "" {
			return line
		}
	}
	return "tesseract"
}

// parseLanguages reads --list-langs: a heading, then one code a line.
func parseLanguages(out []byte) []string {
	var langs []string
	for line := range strings.Lines(string(out)) {
		line = strings.TrimSpace(line)
		if line == osdLanguage || !languagePattern.MatchString(line) {
			continue // the heading, osd, warnings
		}
		langs = append(langs, line)
	}
	slices.Sort(langs)
	return slices.Compact(langs)
}

// Recognize runs one tesseract process on img and parses its TSV. Only
// the first page's words are returned (OCR hands it single-page images).
func (t *Tesseract) Recognize(ctx context.Context, img []byte, languages []string) ([]EngineWord, error) {
	if _, err := t.Info(ctx); err != nil {
		return nil, err
	}
	t.mu.Lock()
	bin := t.bin
	t.mu.Unlock()
	for _, l := range languages {
		if !languagePattern.MatchString(l) {
			return nil, errs.Invalid("languages", "%q is not a language code", l)
		}
	}
	stdout := &cappedBuffer{limit: maxTSVBytes, strict: true}
	stderr := &cappedBuffer{limit: maxStderrBytes}
	cmd := exec.CommandContext(ctx, bin, "stdin", "stdout", "-l", strings.Join(languages, "+"), "--psm", "3", "tsv")
	cmd.Stdin = bytes.NewReader(img)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.Env = append(os.Environ(), "OMP_THREAD_LIMIT=1")
	isolate(cmd)
	cmd.WaitDelay = killGrace
	err := cmd.Run()
	switch {
	case ctx.Err() != nil:
		return nil, fmt.Errorf("tesseract stopped: %w", ctx.Err())
	case stdout.over:
		return nil, errs.New(errs.KindTooLarge, "tesseract produced more than %d bytes of TSV; send a smaller image", maxTSVBytes)
	case err != nil:
		return nil, tesseractFailed(err, stderr.Bytes())
	}
	return parseTSV(stdout.Bytes())
}

// tesseractFailed classifies a failed run: an image leptonica cannot read
// is the caller's (KindInvalid), anything else ours (KindInternal).
func tesseractFailed(err error, stderr []byte) error {
	msg := tail(stderr)
	for _, marker := range []string{"pixRead", "Unsupported image", "Image file", "image type", "Error in find"} {
		if strings.Contains(msg, marker) {
			return errs.New(errs.KindInvalid, "tesseract could not read the image: %s", msg)
		}
	}
	return errs.Wrap(errs.KindInternal, err, "tesseract failed: %s", msg)
}

// tail returns the end of a diagnostic output on one line, at most 400
// bytes, for an error message.
func tail(b []byte) string {
	s := strings.Join(strings.Fields(string(b)), " ")
	if len(s) > 400 {
		s = "..." + strings.ToValidUTF8(s[len(s)-400:], "")
	}
	if s == "" {
		return "no diagnostics"
	}
	return s
}

// tsvColumns are the columns of tesseract's TSV, in order.
var tsvColumns = []string{"level", "page_num", "block_num", "par_num", "line_num", "word_num",
	"left", "top", "width", "height", "conf", "text"}

// tsvWordLevel is the level of a word row (1 page, 2 block, 3 paragraph,
// 4 line, 5 word).
const tsvWordLevel = 5

// parseTSV reads the word rows of page 1 of tesseract's TSV output. Rows
// of other levels carry no text and are skipped, as are words whose text
// is blank. A header that is not tesseract's is an internal error.
func parseTSV(tsv []byte) ([]EngineWord, error) {
	var words []EngineWord
	first := true
	for line := range strings.Lines(string(tsv)) {
		line = strings.TrimRight(line, "\r\n")
		if first {
			first = false
			if line != strings.Join(tsvColumns, "\t") {
				return nil, errs.New(errs.KindInternal, "tesseract TSV has an unexpected header %q", tail([]byte(line)))
			}
			continue
		}
		if line == "" {
			continue
		}
		cols := strings.SplitN(line, "\t", len(tsvColumns))
		if len(cols) < len(tsvColumns)-1 {
			return nil, errs.New(errs.KindInternal, "tesseract TSV row has %d columns, want %d", len(cols), len(tsvColumns))
		}
		if len(cols) == len(tsvColumns)-1 {
			cols = append(cols, "")
		}
		w, ok, err := parseWordRow(cols)
		if err != nil {
			return nil, err
		}
		if ok {
			words = append(words, w)
		}
	}
	if first {
		return nil, errs.New(errs.KindInternal, "tesseract wrote no TSV")
	}
	return words, nil
}

// parseWordRow turns one TSV row into a word; ok is false for rows that
// are not words of page 1 or hold no text.
func parseWordRow(cols []string) (w EngineWord, ok bool, err error) {
	var n [10]int
	for i := range 10 {
		if n[i], err = strconv.Atoi(cols[i]); err != nil {
			return w, false, errs.New(errs.KindInternal, "tesseract TSV column %s is %q, not a number", tsvColumns[i], cols[i])
		}
	}
	text := strings.TrimSpace(cols[11])
	if n[0] != tsvWordLevel || n[1] != 1 || text == "" {
		return w, false, nil
	}
	conf, err := strconv.ParseFloat(cols[10], 64)
	if err != nil {
		return w, false, errs.New(errs.KindInternal, "tesseract TSV column conf is %q, not a number", cols[10])
	}
	return EngineWord{
		Text:       text,
		Confidence: min(max(conf, 0), 100),
		Box:        Box{X: n[6], Y: n[7], Width: n[8], Height: n[9]},
		Block:      n[2],
		Paragraph:  n[3],
		Line:       n[4],
	}, true, nil
}

// cappedBuffer collects at most limit bytes. Past the limit it drops the
// rest, or, when strict, fails the write (which ends the copy from the
// process, closing its pipe) and records that it went over.
type cappedBuffer struct {
	bytes.Buffer
	limit  int
	strict bool
	over   bool
}

var errOutputTooLarge = errors.New("output over its cap")

func (c *cappedBuffer) Write(p []byte) (int, error) {
	room := c.limit - c.Len()
	if len(p) <= room {
		return c.Buffer.Write(p)
	}
	c.Buffer.Write(p[:max(room, 0)])
	if c.strict {
		c.over = true
		return max(room, 0), errOutputTooLarge
	}
	return len(p), nil
}
