package docsui

import (
	"embed"
	"html/template"
	"io/fs"
	"net/http"
	"path"
)

// Version is the embedded Stoplight Elements release.
const Version = "9.0.25"

//go:embed elements/web-components.min.js elements/styles.min.css elements/LICENSE elements/web-components.min.js.LICENSE.txt
var assets embed.FS

// AssetsPath is where the viewer's files are served; the version is part of
// the path, so they can be cached for good.
const AssetsPath = "/docs/assets/elements-" + Version + "/"

// CSP is the page's Content-Security-Policy: everything from this server
// only. Elements sets style attributes from script, hence 'unsafe-inline'
// for styles (not scripts); images may be data: URIs (icons).
const CSP = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
	"font-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

var page = template.Must(template.New("docs").Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}} reference</title>
<link rel="stylesheet" href="{{.Assets}}styles.min.css">
<script src="{{.Assets}}web-components.min.js"></script>
</head>
<body style="height: 100vh; margin: 0">
<elements-api apiDescriptionUrl="{{.Spec}}" router="hash" layout="sidebar" tryItCredentialsPolicy="omit"></elements-api>
</body>
</html>
`))

// Register serves the page at GET /docs and the viewer's files under
// AssetsPath, on mux. spec is the OpenAPI document's path.
func Register(mux *http.ServeMux, title, spec string) {
	files, _ := fs.Sub(assets, "elements")
	static := http.StripPrefix(AssetsPath, http.FileServerFS(files))
	mux.HandleFunc("GET "+AssetsPath+"{file}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
		static.ServeHTTP(w, r)
	})
	mux.HandleFunc("GET /docs", func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Type", "text/html; charset=utf-8")
		h.Set("Content-Security-Policy", CSP)
		page.Execute(w, struct{ Title, Assets, Spec string }{title, AssetsPath, path.Clean(spec)})
	})
}
