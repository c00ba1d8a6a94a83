package dashboard

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"net/url"
	"path"
	"strings"
	"time"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed static
var staticFS embed.FS

// view is what every page template gets.
type view struct {
	Title  string            // the page's h1 and <title>
	Nav    string            // the nav entry to mark current
	Email  string            // the signed-in account; "" on the log-in pages
	CSRF   string            // the token every form carries
	Flash  string            // what the last action did (role=status)
	Error  string            // what went wrong (role=alert)
	Fields map[string]string // form field → its error
	Form   url.Values        // the submitted values, to fill a form in again
	Data   any               // the page's own data
}

// Field is the error of one form field, "" when none.
func (v *view) Field(name string) string { return v.Fields[name] }

// Value is a submitted value, to fill a form in again.
func (v *view) Value(name string) string { return v.Form.Get(name) }

// contentSecurityPolicy allows this origin's stylesheet and script and
// nothing else: no inline script or style, no other origin, no framing.
const contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

var funcs = template.FuncMap{
	"path":   func(p ...string) string { return Path + strings.Join(p, "") },
	"asset":  assetURL,
	"when":   when,
	"whenp":  func(t *time.Time) string { return whenPtr(t) },
	"pretty": pretty,
	"num":    func(n int64) string { return groupDigits(n) },
	"ms":     func(f float64) string { return fmt.Sprintf("%.1f ms", f) },
	"esc":    url.QueryEscape,
	"fld":    fld,
	"add":    func(a, b int) int { return a + b },
	"sub":    func(a, b int) int { return a - b },
	"div":    func(a, b int) int { return a / b },
}

// fieldData is one labelled form field for the "field" template.
type fieldData struct {
	Name, Label, Type, Value, Err, Auto, Hint string
	Required                                  bool
}

// fld describes a field of v's form: opts are "required",
// "auto=<autocomplete>" and "hint=<text>". Passwords are never filled in
// again.
func fld(v *view, name, label, typ string, opts ...string) fieldData {
	f := fieldData{Name: name, Label: label, Type: typ, Err: v.Field(name)}
	if typ != "password" {
		f.Value = v.Value(name)
	}
	for _, o := range opts {
		switch k, val, _ := strings.Cut(o, "="); k {
		case "required":
			f.Required = true
		case "auto":
			f.Auto = val
		case "hint":
			f.Hint = val
		case "value":
			if f.Value == "" && v.Form == nil {
				f.Value = val
			}
		}
	}
	return f
}

// pages are the templates, each with the layout.
var pages = func() map[string]*template.Template {
	names, err := fs.Glob(templateFS, "templates/*.html")
	if err != nil {
		panic(err)
	}
	out := map[string]*template.Template{}
	for _, n := range names {
		name := strings.TrimSuffix(path.Base(n), ".html")
		if name == "layout" || strings.HasPrefix(name, "_") {
			continue
		}
		out[name] = template.Must(template.New("layout.html").Funcs(funcs).ParseFS(templateFS, "templates/layout.html", "templates/_*.html", n))
	}
	return out
}()

// renderStatus writes page name with v, and the headers every page has.
func (d *Dashboard) renderStatus(w http.ResponseWriter, r *http.Request, status int, v *view, name string) {
	var buf bytes.Buffer
	if err := pages[name].Execute(&buf, v); err != nil {
		d.log.Error("dashboard template", "page", name, "err", err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", contentSecurityPolicy)
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "same-origin")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

// assetVersions are the static files' content hashes, so their URLs can
// be cached for good.
var assetVersions = func() map[string]string {
	out := map[string]string{}
	fs.WalkDir(staticFS, "static", func(p string, e fs.DirEntry, err error) error {
		if err == nil && !e.IsDir() {
			b, _ := staticFS.ReadFile(p)
			sum := sha256.Sum256(b)
			out[path.Base(p)] = hex.EncodeToString(sum[:6])
		}
		return nil
	})
	return out
}()

func assetURL(name string) string { return Path + "/static/" + name + "?v=" + assetVersions[name] }

// serveStatic serves the embedded stylesheet and script.
func serveStatic(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("file")
	b, err := staticFS.ReadFile("static/" + name)
	if err != nil || strings.Contains(name, "/") {
		http.NotFound(w, r)
		return
	}
	types := map[string]string{".css": "text/css; charset=utf-8", ".js": "text/javascript; charset=utf-8"}
	w.Header().Set("Content-Type", types[path.Ext(name)])
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	w.Write(b)
}

func when(t time.Time) string {
	if t.IsZero() {
		return "never"
	}
	return t.UTC().Format("2006-01-02 15:04 UTC")
}

func whenPtr(t *time.Time) string {
	if t == nil {
		return "never"
	}
	return when(*t)
}

// pretty indents JSON for reading, capped at 64 KiB.
func pretty(v any) string {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Sprint(v)
	}
	const limit = 64 << 10
	if len(b) > limit {
		return string(b[:limit]) + "\n… (cut at 64 KiB)"
	}
	return string(b)
}

// groupDigits writes 12345 as 12,345.
func groupDigits(n int64) string {
	s := fmt.Sprint(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
