package dashboard

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"strings"
)

const (
	sessionCookie = "webinfra_session" // the dashboard key (osk_...)
	preCookie     = "webinfra_pre"     // a random value that keys the CSRF token of the log-in and sign-up forms
	csrfField     = "csrf_token"
)

// errCSRF refuses a POST that did not come from one of our own forms.
var errCSRF = errors.New("this form did not come from this dashboard (cross-site request or stale page): reload the page and try again")

// cookie sets a dashboard cookie: HttpOnly, SameSite=Strict, limited to
// the dashboard's path, Secure when the request came over TLS. maxAge < 0
// deletes it; 0 makes it a browser-session cookie.
func (d *Dashboard) cookie(w http.ResponseWriter, r *http.Request, name, value string, maxAge int) {
	http.SetCookie(w, &http.Cookie{Name: name, Value: value, Path: Path, MaxAge: maxAge,
		HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil || d.opts.SecureCookies})
}

// sessionKey is the browser's dashboard key, or "".
func sessionKey(r *http.Request) string {
	c, err := r.Cookie(sessionCookie)
	if err != nil || !strings.HasPrefix(c.Value, "osk_") {
		return ""
	}
	return c.Value
}

// csrfToken is the token the forms of a session (or of a browser not yet
// signed in, keyed by its pre-session cookie) carry: an HMAC-SHA256 keyed
// with that secret, which never leaves the HttpOnly cookie, so another
// site can neither read nor compute it. It holds across restarts and
// across the processes of a scaled-out deployment.
func csrfToken(secret string) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte("webinfra dashboard csrf v1"))
	return hex.EncodeToString(m.Sum(nil))
}

// preSecret is the browser's pre-session value, minted (and set) when it
// has none.
func (d *Dashboard) preSecret(w http.ResponseWriter, r *http.Request) string {
	if c, err := r.Cookie(preCookie); err == nil && len(c.Value) == 32 {
		return c.Value
	}
	b := make([]byte, 16)
	rand.Read(b)
	v := hex.EncodeToString(b)
	d.cookie(w, r, preCookie, v, 0)
	return v
}

// checkPost refuses a POST that another origin sent (net/http's
// CrossOriginProtection: Sec-Fetch-Site, else Origin against Host) or that
// lacks the token of secret.
func (d *Dashboard) checkPost(r *http.Request, secret string) error {
	if err := d.origins.Check(r); err != nil {
		return errCSRF
	}
	got := r.PostFormValue(csrfField)
	if secret == "" || !hmac.Equal([]byte(got), []byte(csrfToken(secret))) {
		return errCSRF
	}
	return nil
}

// forbidden answers a refused POST.
func (d *Dashboard) forbidden(w http.ResponseWriter, r *http.Request, err error) {
	d.renderStatus(w, r, http.StatusForbidden, &view{Title: "Request refused", Error: err.Error()}, "message")
}
