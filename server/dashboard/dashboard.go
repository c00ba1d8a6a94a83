package dashboard

import (
	"encoding/base64"
	"errors"
	"log/slog"
	"maps"
	"net/http"
	"net/url"

	"github.com/webinfra/webinfra/server"
)

// Path is where the dashboard is served.
const Path = "/dashboard"

// Options configure the dashboard; nil means defaults.
type Options struct {
	// SecureCookies marks the cookies Secure even on plain-HTTP requests:
	// for a server behind a proxy that ends TLS. Requests that came over
	// TLS always get Secure cookies.
	SecureCookies bool
	Logger        *slog.Logger // default slog.Default()
}

// Dashboard is the web console, an http.Handler for Path and below.
type Dashboard struct {
	api     api
	opts    Options
	mux     *http.ServeMux
	origins *http.CrossOriginProtection
	log     *slog.Logger
}

// New builds the dashboard over the API handler it calls in-process (the
// *server.Server it is mounted on).
func New(apiHandler http.Handler, opts *Options) *Dashboard {
	d := &Dashboard{api: api{h: apiHandler}, mux: http.NewServeMux(), origins: http.NewCrossOriginProtection()}
	if opts != nil {
		d.opts = *opts
	}
	d.log = d.opts.Logger
	if d.log == nil {
		d.log = slog.Default()
	}
	d.routes()
	return d
}

// Mount serves a new dashboard on srv under Path; GET / links to it.
func Mount(srv *server.Server, opts *Options) *Dashboard {
	d := New(srv, opts)
	srv.Mount(Path, "dashboard", "the dashboard: keys, usage, jobs, webhooks, forwarders, organizations", d)
	return d
}

// ServeHTTP serves the dashboard's pages.
func (d *Dashboard) ServeHTTP(w http.ResponseWriter, r *http.Request) { d.mux.ServeHTTP(w, r) }

func (d *Dashboard) routes() {
	m := d.mux
	m.HandleFunc("GET "+Path, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, Path+"/", http.StatusMovedPermanently)
	})
	m.HandleFunc("GET "+Path+"/static/{file}", serveStatic)
	m.HandleFunc("GET "+Path+"/login", d.loginPage)
	m.HandleFunc("POST "+Path+"/login", d.loginPost)
	m.HandleFunc("GET "+Path+"/signup", d.signupPage)
	m.HandleFunc("POST "+Path+"/signup", d.signupPost)
	m.HandleFunc("POST "+Path+"/logout", d.page(d.logout))
	m.HandleFunc("GET "+Path+"/{$}", d.page(d.overview))
	d.keyRoutes(m)
	d.usageRoutes(m)
	d.jobRoutes(m)
	d.webhookRoutes(m)
	d.forwarderRoutes(m)
	d.orgRoutes(m)
	d.accountRoutes(m)
	m.HandleFunc(Path+"/", d.page(func(*req) error {
		return &apiError{Status: http.StatusNotFound, Detail: "There is no such page in the dashboard."}
	}))
}

// req is one signed-in request.
type req struct {
	d   *Dashboard
	w   http.ResponseWriter
	r   *http.Request
	key string
	me  server.MeResponse
}

// call sends one API call with the session's key.
func (q *req) call(method, path string, body, out any) error {
	return q.d.api.do(q.r, q.key, method, path, body, out)
}

// page checks the session (GET /v1/me with its key) and, on a POST, the
// origin and the CSRF token, then runs h. A missing or ended session goes
// to the log-in page; errors h returns become an error page.
func (d *Dashboard) page(h func(*req) error) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		q := &req{d: d, w: w, r: r, key: sessionKey(r)}
		if q.key == "" {
			d.toLogin(w, r)
			return
		}
		if r.Method == http.MethodPost {
			r.Body = http.MaxBytesReader(w, r.Body, 1<<20)
			if err := d.checkPost(r, q.key); err != nil {
				d.forbidden(w, r, err)
				return
			}
		}
		err := q.call(http.MethodGet, "/v1/me", nil, &q.me)
		if err == nil {
			err = h(q)
		}
		if err != nil {
			d.fail(q, err)
		}
	}
}

// toLogin sends a browser without a (live) session to the log-in page.
func (d *Dashboard) toLogin(w http.ResponseWriter, r *http.Request) {
	target := Path + "/login"
	if r.Method == http.MethodGet && r.URL.Path != Path+"/" {
		target += "?next=" + url.QueryEscape(r.URL.RequestURI())
	}
	http.Redirect(w, r, target, http.StatusSeeOther)
}

// fail shows an error that no form takes: a page with the API's words.
func (d *Dashboard) fail(q *req, err error) {
	var e *apiError
	if !errors.As(err, &e) {
		d.log.Error("dashboard page", "path", q.r.URL.Path, "err", err)
		e = &apiError{Status: http.StatusInternalServerError, Detail: "Something went wrong on our side; try again."}
	}
	switch e.Status {
	case http.StatusUnauthorized:
		d.cookie(q.w, q.r, sessionCookie, "", -1)
		d.toLogin(q.w, q.r)
		return
	}
	v := q.view("Request failed", "")
	if e.Status == http.StatusNotFound {
		v.Title = "Not found"
	}
	v.Error = e.Detail
	if e.RetryAfter != "" {
		v.Error += " (retry in " + e.RetryAfter + " s)"
	}
	d.renderStatus(q.w, q.r, e.Status, v, "message")
}

// done ends a POST that changed something: a flash message for the next
// page, then a redirect to it (post/redirect/get).
func (q *req) done(target, flash string) error {
	q.d.redirect(q.w, q.r, target, flash)
	return nil
}

func (d *Dashboard) redirect(w http.ResponseWriter, r *http.Request, target, flash string) {
	d.cookie(w, r, flashCookie, base64.RawURLEncoding.EncodeToString([]byte(flash)), 60)
	http.Redirect(w, r, target, http.StatusSeeOther)
}

const flashCookie = "webinfra_flash"

// takeFlash reads and clears the flash message.
func (d *Dashboard) takeFlash(w http.ResponseWriter, r *http.Request) string {
	c, err := r.Cookie(flashCookie)
	if err != nil {
		return ""
	}
	d.cookie(w, r, flashCookie, "", -1)
	b, err := base64.RawURLEncoding.DecodeString(c.Value)
	if err != nil {
		return ""
	}
	return string(b)
}

// view starts the page data of a signed-in page.
func (q *req) view(title, nav string) *view {
	return &view{Title: title, Nav: nav, Email: q.me.User.Email, CSRF: csrfToken(q.key), Flash: q.d.takeFlash(q.w, q.r), Fields: map[string]string{}}
}

// render writes a signed-in page.
func (q *req) render(v *view, name string) error {
	q.d.renderStatus(q.w, q.r, http.StatusOK, v, name)
	return nil
}

// formFailed shows an API refusal of a form on the form's page: the
// detail on top, each field's message beside the field. Errors that no
// form fixes (401, 404, 5xx) are returned for the error page.
func (q *req) formFailed(v *view, name string, err error) error {
	var e *apiError
	if !errors.As(err, &e) || e.Status == http.StatusUnauthorized || e.Status == http.StatusNotFound || e.Status >= 500 {
		return err
	}
	q.r.ParseForm()
	v.Form = q.r.Form
	v.showRefusal(e)
	q.d.renderStatus(q.w, q.r, e.Status, v, name)
	return nil
}

// showRefusal puts the API's refusal e on a form's page: the detail on
// top (with when to retry, if the API said), each field's message beside
// its field.
func (v *view) showRefusal(e *apiError) {
	v.Error = e.Detail
	if e.RetryAfter != "" {
		v.Error += " (retry in " + e.RetryAfter + " s)"
	}
	maps.Copy(v.Fields, e.Fields)
}
