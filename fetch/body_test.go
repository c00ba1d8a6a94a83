package fetch

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"context"
	"io"
	"net/http"
	"strconv"
	"testing"

	"github.com/webinfra/webinfra/errs"
)

func compress(t *testing.T, coding string, data []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	var w io.WriteCloser
	switch coding {
	case "gzip":
		w = gzip.NewWriter(&buf)
	case "zlib":
		w = zlib.NewWriter(&buf)
	case "flate":
		w, _ = flate.NewWriter(&buf, flate.BestCompression)
	}
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// staticHandler serves body with the given headers, streaming it without a
// Content-Length unless one is set.
func staticHandler(headers map[string]string, body []byte) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		for k, v := range headers {
			w.Header().Set(k, v)
		}
		w.WriteHeader(http.StatusOK)
		for chunk := range slicesChunk(body, 4096) {
			w.Write(chunk)
			w.(http.Flusher).Flush()
		}
	}
}

func slicesChunk(b []byte, n int) func(func([]byte) bool) {
	return func(yield func([]byte) bool) {
		for len(b) > 0 {
			k := min(n, len(b))
			if !yield(b[:k]) {
				return
			}
			b = b[k:]
		}
	}
}

func TestFetchCharsets(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		contentType string
		body        []byte
		wantBody    string
		wantCharset string
		wantType    string
	}{
		{"iso-8859-1 header", "text/html; charset=ISO-8859-1", []byte("<p>caf\xe9 \xa3</p>"), "<p>café £</p>", "windows-1252", "text/html"},
		{"windows-1252 meta", "text/html", []byte("<html><head><meta charset=\"windows-1252\"></head><body>caf\xe9 \x93q\x94</body></html>"),
			`<html><head><meta charset="windows-1252"></head><body>café “q”</body></html>`, "windows-1252", "text/html"},
		{"http-equiv meta", "", []byte("<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=iso-8859-15\"></head>\xa4</html>"),
			`<html><head><meta http-equiv="Content-Type" content="text/html; charset=iso-8859-15"></head>€</html>`, "iso-8859-15", "text/html"},
		{"shift_jis header", "text/plain; charset=Shift_JIS", []byte("\x93\xfa\x96\x7b"), "日本", "shift_jis", "text/plain"},
		{"undeclared utf-8", "text/html", []byte("<p>naïve — ok</p>"), "<p>naïve — ok</p>", "utf-8", "text/html"},
		{"undeclared latin-1", "text/plain", []byte("na\xefve"), "naïve", "windows-1252", "text/plain"},
		{"utf-8 bom", "text/plain", []byte("\xef\xbb\xbfhi é"), "hi é", "utf-8", "text/plain"},
		{"utf-16le bom", "text/plain", []byte("\xff\xfeh\x00i\x00"), "hi", "utf-16le", "text/plain"},
		{"invalid utf-8 declared", "application/json; charset=utf-8", []byte("{\"a\":\"\xff\"}"), "{\"a\":\"\uFFFD\"}", "utf-8", "application/json"},
		{"binary untouched", "image/png", []byte("\x89PNG\r\n\x1a\n\xff"), "\x89PNG\r\n\x1a\n\xff", "", "image/png"},
		{"sniffed type", "", []byte("<!DOCTYPE html><p>x</p>"), "<!DOCTYPE html><p>x</p>", "windows-1252", "text/html"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := map[string]string{"Content-Type": tt.contentType}
			if tt.contentType == "" {
				h = map[string]string{"Content-Type": ""} // suppress net/http's sniffing
			}
			srv := serve(t, staticHandler(h, tt.body))
			res, err := privateFetcher(t, Options{}).Fetch(context.Background(), Request{URL: srv.URL})
			if err != nil {
				t.Fatal(err)
			}
			if string(res.Body) != tt.wantBody || res.Charset != tt.wantCharset || res.ContentType != tt.wantType {
				t.Errorf("got body %q charset %q type %q; want %q %q %q",
					res.Body, res.Charset, res.ContentType, tt.wantBody, tt.wantCharset, tt.wantType)
			}
		})
	}
}

func TestFetchContentEncoding(t *testing.T) {
	t.Parallel()
	page := bytes.Repeat([]byte("<p>compressible text</p>\n"), 2000)
	tests := []struct {
		name     string
		encoding string
		body     []byte
	}{
		{"gzip", "gzip", compress(t, "gzip", page)},
		{"x-gzip", "x-gzip", compress(t, "gzip", page)},
		{"deflate zlib", "deflate", compress(t, "zlib", page)},
		{"deflate raw", "deflate", compress(t, "flate", page)},
		{"stacked", "deflate, gzip", compress(t, "gzip", compress(t, "zlib", page))},
		{"identity", "identity", page},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := serve(t, staticHandler(map[string]string{
				"Content-Type": "text/html; charset=utf-8", "Content-Encoding": tt.encoding,
			}, tt.body))
			res, err := privateFetcher(t, Options{}).Fetch(context.Background(), Request{URL: srv.URL})
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(res.Body, page) {
				t.Errorf("decoded body differs: %d bytes, want %d", len(res.Body), len(page))
			}
		})
	}
	t.Run("empty gzip body", func(t *testing.T) {
		t.Parallel()
		srv := serve(t, staticHandler(map[string]string{"Content-Encoding": "gzip"}, nil))
		res, err := privateFetcher(t, Options{}).Fetch(context.Background(), Request{URL: srv.URL})
		if err != nil || len(res.Body) != 0 {
			t.Fatalf("res = %v, err = %v; want empty body", res, err)
		}
	})
	t.Run("unsupported", func(t *testing.T) {
		t.Parallel()
		srv := serve(t, staticHandler(map[string]string{"Content-Encoding": "br"}, []byte("xx")))
		_, err := privateFetcher(t, Options{}).Fetch(context.Background(), Request{URL: srv.URL})
		wantErr(t, err, errs.KindUpstream, `unsupported content encoding "br"`)
	})
	t.Run("corrupt gzip", func(t *testing.T) {
		t.Parallel()
		srv := serve(t, staticHandler(map[string]string{"Content-Encoding": "gzip"}, []byte("not gzip at all")))
		_, err := privateFetcher(t, Options{}).Fetch(context.Background(), Request{URL: srv.URL})
		wantErr(t, err, errs.KindUpstream, "gzip")
	})
}

func TestFetchSizeCaps(t *testing.T) {
	t.Parallel()
	big := bytes.Repeat([]byte("a"), 64<<10)
	// Gzip bombs: n gzip members of 1 MiB of zeros each (about 1 KiB each
	// on the wire); a gzip reader decodes the members as one stream.
	member := compress(t, "gzip", make([]byte, 1<<20))
	bomb := bytes.Repeat(member, 8)
	tests := []struct {
		name    string
		opts    Options
		headers map[string]string
		body    []byte
		want    string
	}{
		{"streamed body over cap", Options{MaxBodyBytes: 1000}, nil, big, "response larger than 1000 bytes"},
		{"content-length over cap", Options{MaxBodyBytes: 1000},
			map[string]string{"Content-Length": strconv.Itoa(len(big))}, big, "response larger than 1000 bytes (Content-Length: 65536)"},
		{"gzip bomb", Options{MaxDecodedBytes: 1 << 20},
			map[string]string{"Content-Encoding": "gzip"}, bomb, "decoded response larger than 1048576 bytes"},
		{"gzip body over wire cap", Options{MaxBodyBytes: 1000},
			map[string]string{"Content-Encoding": "gzip"}, bomb, "response larger than 1000 bytes"},
		{"gzip bomb under default caps", Options{},
			map[string]string{"Content-Encoding": "gzip"}, bytes.Repeat(member, 21), "decoded response larger than 20971520 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := serve(t, staticHandler(tt.headers, tt.body))
			_, err := privateFetcher(t, tt.opts).Fetch(context.Background(), Request{URL: srv.URL})
			wantErr(t, err, errs.KindUpstream, tt.want)
		})
	}
	t.Run("exactly at cap", func(t *testing.T) {
		t.Parallel()
		srv := serve(t, staticHandler(nil, big))
		res, err := privateFetcher(t, Options{MaxBodyBytes: int64(len(big))}).Fetch(context.Background(), Request{URL: srv.URL})
		if err != nil || len(res.Body) != len(big) {
			t.Fatalf("err = %v; want the whole %d-byte body", err, len(big))
		}
	})
}

func TestCappedReaderStopsEarly(t *testing.T) {
	t.Parallel()
	// An endless source: the cap, not the source, must end the read.
	endless := &countingZeroReader{}
	c := &cappedReader{r: endless, limit: 10 << 10, format: "over %d"}
	_, err := io.ReadAll(c)
	if errs.KindOf(err) != errs.KindUpstream || err.Error() != "over 10240" {
		t.Fatalf("err = %v", err)
	}
	if endless.n > 10<<10+1 {
		t.Errorf("read %d bytes from the source, want at most limit+1", endless.n)
	}
}

type countingZeroReader struct{ n int }

func (r *countingZeroReader) Read(p []byte) (int, error) {
	clear(p)
	r.n += len(p)
	return len(p), nil
}
