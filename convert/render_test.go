package convert

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"hash/crc32"
	"image"
	"strings"
	"testing"

	"github.com/webinfra/webinfra/internal/ocrtest"
)

func TestWordAccuracy(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		want, got string
		acc       float64
	}{
		{"The quick fox.", "the Quick fox", 1},
		{"a b c d", "a b d", 0.75},
		{"a b c d", "a b x c d", 0.8},
		{"a b", "", 0},
		{"", "", 1},
	} {
		if got := ocrtest.WordAccuracy(strings.Fields(c.want), strings.Fields(c.got)); got != c.acc {
			t.Errorf("ocrtest.WordAccuracy(%q, %q) = %v, want %v", c.want, c.got, got, c.acc)
		}
	}
}

// bombPNG is a valid PNG signature and IHDR claiming w x h 8-bit gray
// pixels, followed by a token IDAT and IEND: a few dozen bytes.
func bombPNG(w, h uint32) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	chunk := func(typ string, data []byte) {
		var n [4]byte
		binary.BigEndian.PutUint32(n[:], uint32(len(data)))
		b.Write(n[:])
		body := append([]byte(typ), data...)
		b.Write(body)
		binary.BigEndian.PutUint32(n[:], crc32.ChecksumIEEE(body))
		b.Write(n[:])
	}
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	ihdr[8] = 8 // bit depth; colour type 0 (gray), no interlace
	chunk("IHDR", ihdr)
	chunk("IDAT", []byte{0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01})
	chunk("IEND", nil)
	return b.Bytes()
}

// twoPageTIFF returns a TIFF whose first page is img and whose second
// page is a copy of the first page's directory claiming side x side
// pixels: any reader that goes past page one meets a bomb.
func twoPageTIFF(tb testing.TB, img image.Image, side uint32) []byte {
	tb.Helper()
	data := ocrtest.Encode(tb, img, FormatTIFF)
	order := binary.LittleEndian
	if string(data[:4]) != "II*\x00" {
		tb.Fatalf("x/image/tiff wrote a %q header, want little-endian", data[:4])
	}
	ifd := int(order.Uint32(data[4:8]))
	n := int(order.Uint16(data[ifd:]))
	next := ifd + 2 + 12*n
	second := bytes.Clone(data[ifd : next+4])
	for i := range n {
		e := second[2+12*i:]
		switch order.Uint16(e) {
		case 256, 257: // ImageWidth, ImageLength
			if order.Uint16(e[2:]) == 3 { // SHORT
				order.PutUint16(e[8:], uint16(min(side, 65535)))
			} else {
				order.PutUint32(e[8:], side)
			}
		}
	}
	order.PutUint32(second[len(second)-4:], 0)
	for len(data)%2 != 0 {
		data = append(data, 0)
	}
	order.PutUint32(data[next:], uint32(len(data)))
	return append(data, second...)
}

func b64(data []byte) string { return base64.StdEncoding.EncodeToString(data) }
