package pageinfo

import (
	"net/http"
	"strings"
)

// ServerHeaders are the response headers that describe the server, its
// caches and its CDN, as written (each cut to 160 bytes). Security
// headers are graded by package secheaders.
type ServerHeaders struct {
	Server          string `json:"server,omitempty" example:"nginx/1.25.3"`
	XPoweredBy      string `json:"x_powered_by,omitempty" example:"PHP/8.2.12"`
	XGenerator      string `json:"x_generator,omitempty" example:"Drupal 10 (https://www.drupal.org)"`
	ContentType     string `json:"content_type,omitempty" example:"text/html; charset=UTF-8"`
	ContentLanguage string `json:"content_language,omitempty"`
	CacheControl    string `json:"cache_control,omitempty" example:"max-age=600"`
	Expires         string `json:"expires,omitempty"`
	Age             string `json:"age,omitempty" doc:"Seconds the answer spent in a shared cache."`
	ETag            bool   `json:"etag" doc:"An ETag was sent (conditional requests possible)."`
	LastModified    string `json:"last_modified,omitempty"`
	Vary            string `json:"vary,omitempty"`
	Via             string `json:"via,omitempty"`
	XCache          string `json:"x_cache,omitempty" example:"HIT"`
	XServedBy       string `json:"x_served_by,omitempty"`
	CFCacheStatus   string `json:"cf_cache_status,omitempty" example:"HIT"`
	CFRay           bool   `json:"cf_ray" doc:"A CF-Ray header was sent: the answer came through Cloudflare."`
	HTTP3           bool   `json:"http3" doc:"Alt-Svc offers HTTP/3 (h3)."`
}

func serverHeaders(h http.Header) ServerHeaders {
	get := func(name string) string { return quote(strings.TrimSpace(strings.Join(h.Values(name), ", "))) }
	return ServerHeaders{
		Server:          get("Server"),
		XPoweredBy:      get("X-Powered-By"),
		XGenerator:      get("X-Generator"),
		ContentType:     get("Content-Type"),
		ContentLanguage: get("Content-Language"),
		CacheControl:    get("Cache-Control"),
		Expires:         get("Expires"),
		Age:             get("Age"),
		ETag:            h.Get("ETag") != "",
		LastModified:    get("Last-Modified"),
		Vary:            get("Vary"),
		Via:             get("Via"),
		XCache:          get("X-Cache"),
		XServedBy:       get("X-Served-By"),
		CFCacheStatus:   get("CF-Cache-Status"),
		CFRay:           h.Get("CF-Ray") != "",
		HTTP3:           offersHTTP3(h.Values("Alt-Svc")),
	}
}

// offersHTTP3 reads Alt-Svc values (RFC 7838) for an h3 alternative.
func offersHTTP3(values []string) bool {
	for _, v := range values {
		for alt := range strings.SplitSeq(v, ",") {
			proto, _, _ := strings.Cut(strings.TrimSpace(alt), "=")
			if proto == "h3" {
				return true
			}
		}
	}
	return false
}
