package dashboard

import (
	"net/http"
	"strconv"

	"github.com/webinfra/webinfra/server"
)

func (d *Dashboard) accountRoutes(m *http.ServeMux) {
	m.HandleFunc("GET "+Path+"/account", d.page(d.account))
	m.HandleFunc("POST "+Path+"/account/password", d.page(d.changePassword))
	m.HandleFunc("GET "+Path+"/account/export", d.page(d.export))
	m.HandleFunc("POST "+Path+"/account/delete", d.page(d.deleteAccount))
}

func (d *Dashboard) account(q *req) error {
	v := q.view("Account", "account")
	v.Data = q.me
	return q.render(v, "account")
}

// changePassword verifies the current password and sets the new one
// (POST /v1/me/password): other browser sessions end, this one stays.
func (d *Dashboard) changePassword(q *req) error {
	in := server.ChangePasswordRequest{CurrentPassword: q.r.PostFormValue("current_password"), NewPassword: q.r.PostFormValue("new_password")}
	var out server.ChangePasswordResponse
	var err error
	if q.r.PostFormValue("new_password_confirm") != in.NewPassword {
		err = badForm(map[string]string{"new_password_confirm": "does not match the new password"})
	} else {
		err = q.call(http.MethodPost, "/v1/me/password", in, &out)
	}
	if err != nil {
		v := q.view("Account", "account")
		v.Data = q.me
		return q.formFailed(v, "account", err)
	}
	return q.done(Path+"/account", "Password changed; "+strconv.Itoa(out.RevokedSessions)+" other browser session(s) ended.")
}

// export downloads the account as one JSON document (GET /v1/me/export).
func (d *Dashboard) export(q *req) error {
	return q.d.api.stream(q.w, q.r, q.key, "/v1/me/export")
}

// ownsTeamExplained is what the 409 of a deletion means, in words.
const ownsTeamExplained = "The account cannot be deleted yet: you own a team organization that still has other members. " +
	"Open Organizations, and in each organization you own either transfer ownership to another member or remove the other members; then delete the account."

// deleteAccount erases the account (POST /v1/me/delete) and ends the
// session.
func (d *Dashboard) deleteAccount(q *req) error {
	var out server.AccountDeleted
	in := server.DeleteAccountRequest{Password: q.r.PostFormValue("password"), ConfirmEmail: q.r.PostFormValue("confirm_email")}
	if err := q.call(http.MethodPost, "/v1/me/delete", in, &out); err != nil {
		if statusOf(err) == http.StatusConflict {
			err.(*apiError).Detail = ownsTeamExplained
		}
		v := q.view("Account", "account")
		v.Data = q.me
		return q.formFailed(v, "account", err)
	}
	q.d.cookie(q.w, q.r, sessionCookie, "", -1)
	v := &view{Title: "Account deleted", Flash: "The account " + out.Email + " and everything under it are erased.", Data: out}
	q.d.renderStatus(q.w, q.r, http.StatusOK, v, "deleted")
	return nil
}
