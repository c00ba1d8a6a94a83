package convert

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"image"
	"image/jpeg"
	"image/png"
	"io"
	"net/http"
	"strings"

	"golang.org/x/image/bmp"
	"golang.org/x/image/tiff"
	"golang.org/x/image/webp"

	"github.com/webinfra/webinfra/errs"
)

// The image formats OCR takes, as OCRResult.Format names them.
const (
	FormatPNG  = "png"
	FormatJPEG = "jpeg"
	FormatWebP = "webp"
	FormatBMP  = "bmp"
	FormatTIFF = "tiff"
)

// acceptedFormats is how errors name the formats OCR takes.
const acceptedFormats = "PNG, JPEG, WebP, BMP or TIFF"

// format is one accepted image format: how its bytes start and how its
// header is read.
type format struct {
	name         string
	label        string // for messages
	match        func(b []byte) bool
	decodeConfig func(io.Reader) (image.Config, error)
}

// formats are told apart by their magic bytes alone: neither the URL's
// extension nor a Content-Type header is trusted.
var formats = []format{
	{FormatPNG, "PNG", func(b []byte) bool { return bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")) }, png.DecodeConfig},
	{FormatJPEG, "JPEG", func(b []byte) bool { return bytes.HasPrefix(b, []byte{0xFF, 0xD8, 0xFF}) }, jpeg.DecodeConfig},
	{FormatWebP, "WebP", func(b []byte) bool {
		return len(b) >= 12 && string(b[:4]) == "RIFF" && string(b[8:12]) == "WEBP"
	}, webp.DecodeConfig},
	{FormatBMP, "BMP", func(b []byte) bool { return bytes.HasPrefix(b, []byte("BM")) }, bmp.DecodeConfig},
	{FormatTIFF, "TIFF", func(b []byte) bool {
		return bytes.HasPrefix(b, []byte("II*\x00")) || bytes.HasPrefix(b, []byte("MM\x00*"))
	}, tiff.DecodeConfig},
}

// checkedImage is an image that passed inspect: its format is one OCR
// takes and its declared size is within the limits.
type checkedImage struct {
	data          []byte // what the engine gets (a multi-page TIFF cut to its first page)
	format        string
	width, height int
}

// inspect sniffs data's format from its magic bytes and reads its
// dimensions from its header alone (image.DecodeConfig's work, no pixel
// is decoded), refusing anything over maxPixels or maxSide before an
// engine sees it: a few hundred bytes of PNG can claim 100000 x 100000
// pixels, 40 GB once decoded. field names the input for errors.
func inspect(data []byte, field string, maxPixels int64, maxSide int) (*checkedImage, error) {
	f, ok := sniff(data)
	if !ok {
		return nil, errs.Invalid(field, "is not a %s image (its bytes look like %s); send one of those formats",
			acceptedFormats, http.DetectContentType(data))
	}
	cfg, err := f.decodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, errs.Invalid(field, "is a %s image whose header cannot be read (%v); send an undamaged %s image",
			f.label, err, acceptedFormats)
	}
	w, h := cfg.Width, cfg.Height
	switch {
	case w <= 0 || h <= 0:
		return nil, errs.Invalid(field, "is a %s image of %d x %d pixels: it has nothing to read", f.label, w, h)
	case w > maxSide || h > maxSide:
		return nil, tooLarge(field, "is a %s image of %d x %d pixels; the longest side may be %d pixels: scale it down",
			f.label, w, h, maxSide)
	case int64(w)*int64(h) > maxPixels:
		return nil, tooLarge(field, "is a %s image of %d x %d = %d pixels; the limit is %d pixels: scale it down or crop it",
			f.label, w, h, int64(w)*int64(h), maxPixels)
	}
	if f.name == FormatTIFF {
		data = firstTIFFPage(data)
	}
	return &checkedImage{data: data, format: f.name, width: w, height: h}, nil
}

// sniff returns the accepted format data's magic bytes announce.
func sniff(data []byte) (format, bool) {
	for _, f := range formats {
		if f.match(data) {
			return f, true
		}
	}
	return format{}, false
}

// firstTIFFPage returns data with its first image file directory's link
// to the next one cleared, so that an engine reads the first page only
// (tiff.DecodeConfig checked that page, and only that page). data is not
// changed; a single-page TIFF is returned as it is.
func firstTIFFPage(data []byte) []byte {
	var order binary.ByteOrder = binary.LittleEndian
	if data[0] == 'M' {
		order = binary.BigEndian
	}
	ifd := int64(order.Uint32(data[4:8]))
	if ifd+2 > int64(len(data)) {
		return data
	}
	next := ifd + 2 + 12*int64(order.Uint16(data[ifd:]))
	if next+4 > int64(len(data)) || order.Uint32(data[next:]) == 0 {
		return data
	}
	out := bytes.Clone(data)
	order.PutUint32(out[next:], 0)
	return out
}

// decodeBase64 decodes image_base64 under maxBytes: the encoded length is
// checked before anything is decoded. The standard and URL-safe
// alphabets are taken, with or without padding, with line breaks, and
// after a data: URL prefix ("data:image/png;base64,").
func decodeBase64(s string, maxBytes int64) ([]byte, error) {
	const field = "image_base64"
	if strings.HasPrefix(s, "data:") {
		if _, after, ok := strings.Cut(s[:min(len(s), 256)], ";base64,"); ok {
			s = after + s[min(len(s), 256):]
		}
	}
	s = strings.TrimSpace(s)
	// Four characters per three bytes, plus a CRLF per 76-character MIME
	// line at most.
	encodedMax := base64.StdEncoding.EncodedLen(int(maxBytes))
	if int64(len(s)) > int64(encodedMax)+int64(encodedMax/76+1)*2 {
		return nil, tooLarge(field, "is %d characters of base64, more than the %d bytes an image may have once decoded",
			len(s), maxBytes)
	}
	if strings.ContainsAny(s, "\r\n") {
		s = strings.NewReplacer("\r", "", "\n", "").Replace(s)
	}
	enc := base64.StdEncoding
	if strings.ContainsAny(s, "-_") {
		enc = base64.URLEncoding
	}
	if !strings.HasSuffix(s, "=") {
		enc = enc.WithPadding(base64.NoPadding)
	}
	data, err := enc.DecodeString(s)
	switch {
	case err != nil:
		return nil, errs.Invalid(field, "is not valid base64 (%v); send the image's bytes base64-encoded", err)
	case len(data) == 0:
		return nil, errs.Invalid(field, "is empty; send the image's bytes base64-encoded")
	case int64(len(data)) > maxBytes:
		return nil, tooLarge(field, "decodes to %d bytes; an image may have at most %d", len(data), maxBytes)
	}
	return data, nil
}

// tooLarge is errs.KindTooLarge about one input field.
func tooLarge(field, format string, args ...any) *errs.Error {
	e := errs.New(errs.KindTooLarge, format, args...)
	e.Field = field
	return e
}
