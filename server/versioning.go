package server

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/danielgtaylor/huma/v2"
)

// Versioning (SPEC §9). A deprecated catalog entry answers, on every
// response of its route:
//
//	Deprecation: @<unix seconds>                 (RFC 9745)
//	Sunset: <HTTP-date>                          (RFC 8594, when set)
//	Link: <successor>; rel="successor-version"   (when set)
//
// A request whose Host is Options.LegacyHost is served as any other, and
// its answer also carries Deprecation (the time the server started) and,
// with Options.PublicURL, Link: <PublicURL + the same path and query>;
// rel="successor-version". Other Host values are not policed: the server
// answers whatever name reaches it, as it always has.

func (o *Operation) deprecated() bool { return !o.Deprecation.IsZero() }

// deprecationNote is the sentence the OpenAPI description of a deprecated
// operation ends with.
func (o *Operation) deprecationNote() string {
	note := "Deprecated since " + o.Deprecation.UTC().Format(time.DateOnly)
	if !o.Sunset.IsZero() {
		note += "; removed on " + o.Sunset.UTC().Format(time.DateOnly)
	}
	if o.Successor != "" {
		note += "; use " + o.Successor + " instead"
	}
	return note + "."
}

// checkVersioning refuses deprecation fields that contradict each other.
func (o *Operation) checkVersioning() error {
	where := o.Method + " " + o.Path
	if !o.deprecated() {
		if !o.Sunset.IsZero() || o.Successor != "" {
			return fmt.Errorf("server: %s has a Sunset or Successor but no Deprecation date", where)
		}
		return nil
	}
	if !o.Sunset.IsZero() && o.Sunset.Before(o.Deprecation) {
		return fmt.Errorf("server: %s: Sunset %s is before Deprecation %s", where, o.Sunset.Format(time.RFC3339), o.Deprecation.Format(time.RFC3339))
	}
	if o.Successor != "" && !isPath(o.Successor) {
		if _, err := parseBaseURL(o.Successor); err != nil {
			return fmt.Errorf("server: %s: Successor %q must be a path (/v2/...) or an absolute http(s) URL", where, o.Successor)
		}
	}
	return nil
}

// checkHosts validates and normalizes Options.PublicURL (no trailing
// slash) and Options.LegacyHost (lower case).
func (o *Options) checkHosts() error {
	if o.PublicURL != "" {
		u, err := parseBaseURL(o.PublicURL)
		if err != nil {
			return fmt.Errorf("server: public URL %q: %w", o.PublicURL, err)
		}
		o.PublicURL = strings.TrimSuffix(u.String(), "/")
	}
	if o.LegacyHost != "" {
		name := strings.ToLower(strings.TrimSuffix(o.LegacyHost, "."))
		if !hostName.MatchString(name) {
			return fmt.Errorf("server: legacy host %q: want a host name such as old.example.com (no scheme, port or path)", o.LegacyHost)
		}
		if u, _ := url.Parse(o.PublicURL); u != nil && strings.EqualFold(u.Hostname(), name) {
			return fmt.Errorf("server: legacy host %q is the public URL's own host", o.LegacyHost)
		}
		o.LegacyHost = name
	}
	return nil
}

var hostName = regexp.MustCompile(`^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$`)

// parseBaseURL accepts an absolute http(s) URL with a host and nothing
// after its path.
func parseBaseURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		return nil, err
	case u.Scheme != "http" && u.Scheme != "https" || u.Host == "":
		return nil, fmt.Errorf("want an absolute http(s) URL such as https://api.example.com")
	case u.User != nil || u.RawQuery != "" || u.Fragment != "":
		return nil, fmt.Errorf("want a base URL without user, query or fragment")
	}
	return u, nil
}

// servers is the OpenAPI servers list: PublicURL, then the legacy host
// (with PublicURL's scheme, port and path); without PublicURL, the
// relative "/", the host the document was read from.
func (o *Options) servers() []*huma.Server {
	if o.PublicURL == "" {
		return []*huma.Server{{URL: "/", Description: "The host this document was read from."}}
	}
	list := []*huma.Server{{URL: o.PublicURL, Description: "Webinfra API."}}
	if o.LegacyHost != "" {
		u, _ := url.Parse(o.PublicURL)
		if port := u.Port(); port != "" {
			u.Host = net.JoinHostPort(o.LegacyHost, port)
		} else {
			u.Host = o.LegacyHost
		}
		list = append(list, &huma.Server{URL: u.String(), Description: "Legacy host name, deprecated: the same API; use " + o.PublicURL + "."})
	}
	return list
}

// isLegacyHost reports whether a request's Host header names the legacy
// host (any port, any case, with or without the final dot).
func (s *Server) isLegacyHost(host string) bool {
	if s.opts.LegacyHost == "" {
		return false
	}
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	return strings.EqualFold(strings.TrimSuffix(host, "."), s.opts.LegacyHost)
}

// stampVersion sets the versioning headers of a deprecated route or of an
// answer under the legacy host.
func (s *Server) stampVersion(h http.Header, c *call) {
	var since time.Time
	if op := c.op; op != nil && op.deprecated() {
		since = op.Deprecation
		if !op.Sunset.IsZero() {
			h.Set("Sunset", op.Sunset.UTC().Format(http.TimeFormat))
		}
		if op.Successor != "" {
			h.Add("Link", "<"+s.absolute(op.Successor)+`>; rel="successor-version"`)
		}
	}
	if c.legacyURI != "" {
		if since.IsZero() || s.started.Before(since) {
			since = s.started
		}
		if s.opts.PublicURL != "" {
			h.Add("Link", "<"+s.opts.PublicURL+linkSafe.Replace(c.legacyURI)+`>; rel="successor-version"`)
		}
	}
	if !since.IsZero() {
		h.Set("Deprecation", "@"+strconv.FormatInt(since.Unix(), 10))
	}
}

func isPath(ref string) bool { return strings.HasPrefix(ref, "/") && !strings.HasPrefix(ref, "//") }

// linkSafe keeps a request's own path and query from ending a Link target.
var linkSafe = strings.NewReplacer("<", "%3C", ">", "%3E", `"`, "%22", " ", "%20")

// absolute resolves a successor path against PublicURL when it is set.
func (s *Server) absolute(ref string) string {
	if isPath(ref) && s.opts.PublicURL != "" {
		return s.opts.PublicURL + ref
	}
	return ref
}
