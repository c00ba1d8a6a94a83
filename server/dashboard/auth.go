package dashboard

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/webinfra/webinfra/server"
)

// anonView is the page data of the log-in and sign-up pages, whose forms
// carry the token of the browser's pre-session cookie.
func (d *Dashboard) anonView(w http.ResponseWriter, r *http.Request, title string) *view {
	return &view{Title: title, CSRF: csrfToken(d.preSecret(w, r)), Flash: d.takeFlash(w, r), Fields: map[string]string{}}
}

// checkAnonPost checks a log-in or sign-up POST against the browser's
// pre-session cookie.
func (d *Dashboard) checkAnonPost(w http.ResponseWriter, r *http.Request) bool {
	r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
	pre := ""
	if c, err := r.Cookie(preCookie); err == nil {
		pre = c.Value
	}
	if err := d.checkPost(r, pre); err != nil {
		d.forbidden(w, r, err)
		return false
	}
	return true
}

func (d *Dashboard) loginPage(w http.ResponseWriter, r *http.Request) {
	v := d.anonView(w, r, "Log in")
	v.Form = url.Values{"next": {r.URL.Query().Get("next")}}
	d.renderStatus(w, r, http.StatusOK, v, "login")
}

// loginPost logs in through POST /v1/auth/login (its password hashing
// gate and failed-login throttle), then keeps the dashboard key it mints
// in the session cookie.
func (d *Dashboard) loginPost(w http.ResponseWriter, r *http.Request) {
	if !d.checkAnonPost(w, r) {
		return
	}
	var out server.LoginResponse
	in := server.LoginRequest{Email: r.PostFormValue("email"), Password: r.PostFormValue("password")}
	if err := d.api.do(r, "", http.MethodPost, "/v1/auth/login", in, &out); err != nil {
		d.anonFailed(w, r, "Log in", "login", err)
		return
	}
	d.cookie(w, r, sessionCookie, out.APIKey, 0)
	http.Redirect(w, r, safeNext(r.PostFormValue("next")), http.StatusSeeOther)
}

// safeNext is where to go after logging in: a dashboard path, never
// another site.
func safeNext(next string) string {
	if strings.HasPrefix(next, Path+"/") && !strings.ContainsAny(next, "\\\r\n") && !strings.HasPrefix(next, Path+"//") {
		return next
	}
	return Path + "/"
}

func (d *Dashboard) signupPage(w http.ResponseWriter, r *http.Request) {
	d.renderStatus(w, r, http.StatusOK, d.anonView(w, r, "Create an account"), "signup")
}

// signupPost creates the account (POST /v1/auth/signup), logs in, and
// shows the account's first developer key once.
func (d *Dashboard) signupPost(w http.ResponseWriter, r *http.Request) {
	if !d.checkAnonPost(w, r) {
		return
	}
	in := server.SignupRequest{Email: r.PostFormValue("email"), Password: r.PostFormValue("password")}
	if confirm := r.PostFormValue("password_confirm"); confirm != in.Password {
		d.anonFailed(w, r, "Create an account", "signup", &apiError{Status: http.StatusUnprocessableEntity,
			Detail: "The passwords differ.", Fields: map[string]string{"password_confirm": "does not match the password"}})
		return
	}
	var created server.SignupResponse
	if err := d.api.do(r, "", http.MethodPost, "/v1/auth/signup", in, &created); err != nil {
		d.anonFailed(w, r, "Create an account", "signup", err)
		return
	}
	var session server.LoginResponse
	if err := d.api.do(r, "", http.MethodPost, "/v1/auth/login", server.LoginRequest(in), &session); err != nil {
		d.anonFailed(w, r, "Log in", "login", err)
		return
	}
	d.cookie(w, r, sessionCookie, session.APIKey, 0)
	v := &view{Title: "Welcome to Webinfra", Email: created.User.Email, CSRF: csrfToken(session.APIKey), Data: created}
	d.renderStatus(w, r, http.StatusOK, v, "welcome")
}

// anonFailed shows the log-in or sign-up form again with the API's words.
func (d *Dashboard) anonFailed(w http.ResponseWriter, r *http.Request, title, name string, err error) {
	v := d.anonView(w, r, title)
	v.Form = r.PostForm
	status := statusOf(err)
	if e, ok := err.(*apiError); ok {
		v.showRefusal(e)
	} else {
		d.log.Error("dashboard "+name, "err", err)
		v.Error = "Something went wrong on our side; try again."
	}
	d.renderStatus(w, r, status, v, name)
}

// logout revokes the session's dashboard key (DELETE /v1/keys/{id}) and
// forgets the cookie.
func (d *Dashboard) logout(q *req) error {
	id, err := q.sessionKeyID()
	if err != nil {
		return err
	}
	if err := q.call(http.MethodDelete, keyPath(id), nil, nil); err != nil {
		return err
	}
	d.cookie(q.w, q.r, sessionCookie, "", -1)
	d.redirect(q.w, q.r, Path+"/login", "You are logged out; this session's key is revoked.")
	return nil
}
