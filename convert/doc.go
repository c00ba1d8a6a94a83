// Package convert turns documents from one form into another. It holds
// OCR for now: OCR.OCR reads the text of a PNG, JPEG, WebP, BMP or TIFF
// image, optionally with every word's and line's bounding box and
// confidence. It backs POST /v1/convert/ocr.
//
// The text is recognized by an Engine, the package's seam. The in-tree
// engine, Tesseract, runs the tesseract command-line program (Debian's
// tesseract-ocr with tesseract-ocr-eng; the server's --tesseract names
// another binary), one process per image, the image on stdin and TSV on
// stdout; the CLI rather than gosseract because this module builds
// without cgo. With no tesseract installed, New still succeeds and every
// call answers errs.KindUnavailable naming the fix. The installed
// languages are read once (tesseract --list-langs); a call may combine up
// to five of them (default eng), and a code that is malformed or not
// installed is refused before anything runs.
//
// An image comes inline (image_base64, decoded under Options.MaxBytes,
// its encoded length checked first) or from a URL, fetched through the
// fetch.Fetcher's SSRF-guarded client and read under the same cap. Either
// way the bytes are then:
//
//  1. sniffed: the format comes from the magic bytes, never from a URL's
//     extension or a Content-Type; anything but PNG, JPEG, WebP, BMP or
//     TIFF is errs.KindInvalid naming those formats;
//  2. measured: the header alone is read (image.DecodeConfig's work with
//     the standard library's and golang.org/x/image's decoders), and an
//     image over Options.MaxSide (10,000 px) on a side or Options.MaxPixels
//     (40 megapixels) is errs.KindTooLarge naming the limit, before any
//     pixel is decoded by anyone: a few hundred bytes can declare an
//     image of 40 GB;
//  3. cut to its first page when it is a multi-page TIFF (the link to the
//     next page is cleared in a copy), since only the first page was
//     measured; the other pages are not read;
//  4. recognized in one of Options.Concurrency slots (one tesseract
//     process per CPU by default), within Options.Timeout (60 s): a run
//     over it is killed with its process group and is errs.KindTimeout; a
//     call that waited Options.Timeout for a slot is errs.KindUnavailable
//     with a RetryAfter. The engine's output is read under a cap.
//
// The result's text joins a line's words with spaces, lines with a
// newline, and paragraphs (tesseract's blocks and paragraphs) with a
// blank line. mean_confidence is the mean of the word confidences
// (0-100). With boxes, words and lines carry boxes in image pixels
// (origin top left), each word the index of its line.
package convert
