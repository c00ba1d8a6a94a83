package dashboard

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/webinfra/webinfra/server"
)

// apiError is an API answer other than 2xx, from its problem body.
type apiError struct {
	Status     int
	Detail     string
	Kind       string
	Fields     map[string]string // form field name (the location less "body." or "query.") → message
	RetryAfter string
}

func (e *apiError) Error() string { return e.Detail }

// statusOf is the API status behind err, or 500.
func statusOf(err error) int {
	if e, ok := err.(*apiError); ok {
		return e.Status
	}
	return http.StatusInternalServerError
}

// api calls the server's /v1 pipeline in-process.
type api struct{ h http.Handler }

// do sends method path (with body as JSON when not nil) for the browser
// request r, authenticated by key when it is not "", and decodes a 2xx
// answer into out when out is not nil.
func (a api) do(r *http.Request, key, method, path string, body, out any) error {
	res := &response{header: http.Header{}}
	a.h.ServeHTTP(res, a.request(r, key, method, path, body))
	if res.status == 0 {
		res.status = http.StatusOK
	}
	if res.status/100 != 2 {
		return problemOf(res)
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(res.body.Bytes(), out); err != nil {
		return fmt.Errorf("dashboard: decode %s %s: %w", method, path, err)
	}
	return nil
}

// stream answers the browser with the API's 2xx answer to GET path (a
// download: CSV, the export), passing its body through as it comes; an
// error answer is returned instead, for a page to explain.
func (a api) stream(w http.ResponseWriter, r *http.Request, key, path string) error {
	res := &response{header: http.Header{}, pass: w}
	a.h.ServeHTTP(res, a.request(r, key, http.MethodGet, path, nil))
	if res.passing || res.status == 0 {
		return nil
	}
	return problemOf(res)
}

func (a api) request(r *http.Request, key, method, path string, body any) *http.Request {
	var rd io.Reader = http.NoBody
	if body != nil {
		raw, _ := json.Marshal(body) // the dashboard's own request structs always encode
		rd = bytes.NewReader(raw)
	}
	req, _ := http.NewRequestWithContext(server.Console(r.Context()), method, path, rd) // path is the dashboard's own
	req.RemoteAddr, req.Host = r.RemoteAddr, r.Host                                     // the browser's address: per-IP limits and the login throttle's log
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", r.UserAgent())
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	return req
}

func problemOf(res *response) *apiError {
	var p struct {
		Detail string `json:"detail"`
		Kind   string `json:"kind"`
		Errors []struct {
			Location string `json:"location"`
			Message  string `json:"message"`
		} `json:"errors"`
	}
	e := &apiError{Status: res.status, RetryAfter: res.header.Get("Retry-After"), Fields: map[string]string{}}
	if json.Unmarshal(res.body.Bytes(), &p) != nil || p.Detail == "" {
		e.Detail = http.StatusText(res.status)
		return e
	}
	e.Detail, e.Kind = p.Detail, p.Kind
	for _, f := range p.Errors {
		name := f.Location
		if _, rest, ok := strings.Cut(name, "."); ok {
			name = rest
		}
		if _, dup := e.Fields[name]; !dup {
			e.Fields[name] = f.Message
		}
	}
	return e
}

// response collects an in-process answer; with pass set, a 2xx answer
// goes straight through to the browser instead.
type response struct {
	header  http.Header
	status  int
	body    bytes.Buffer
	pass    http.ResponseWriter
	passing bool
}

// passHeaders are the API answer's headers a download keeps.
var passHeaders = []string{"Content-Type", "Content-Disposition", "Cache-Control"}

func (res *response) Header() http.Header { return res.header }

func (res *response) WriteHeader(status int) {
	if res.status != 0 {
		return
	}
	res.status = status
	if res.pass != nil && status/100 == 2 {
		for _, h := range passHeaders {
			if v := res.header.Get(h); v != "" {
				res.pass.Header().Set(h, v)
			}
		}
		res.pass.WriteHeader(status)
		res.passing = true
	}
}

func (res *response) Write(b []byte) (int, error) {
	if res.status == 0 {
		res.WriteHeader(http.StatusOK)
	}
	if res.passing {
		return res.pass.Write(b)
	}
	return res.body.Write(b)
}
