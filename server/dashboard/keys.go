package dashboard

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/webinfra/webinfra/server"
	"github.com/webinfra/webinfra/store"
)

func (d *Dashboard) keyRoutes(m *http.ServeMux) {
	m.HandleFunc("GET "+Path+"/keys", d.page(d.keys))
	m.HandleFunc("POST "+Path+"/keys", d.page(d.createKey))
	m.HandleFunc("GET "+Path+"/keys/{id}/edit", d.page(d.editKey))
	m.HandleFunc("POST "+Path+"/keys/{id}", d.page(d.updateKey))
	m.HandleFunc("POST "+Path+"/keys/{id}/rotate", d.page(d.rotateKey))
	m.HandleFunc("POST "+Path+"/keys/{id}/revoke", d.page(d.revokeKey))
}

// keysData is the keys page: the active keys, the revoked ones, and a key
// just minted (shown once).
type keysData struct {
	Active, Revoked []server.KeyInfo
	Minted          *server.MintedKey
	Session         string // the prefix of this browser's own dashboard key
	Orgs            []server.OrgInfo
}

func keyPath(id int64) string { return "/v1/keys/" + strconv.FormatInt(id, 10) }

// pathID is the {id} of the page's path; an id that is no number is a
// page that does not exist.
func (q *req) pathID(name string) (int64, error) {
	id, err := strconv.ParseInt(q.r.PathValue(name), 10, 64)
	if err != nil || id < 1 {
		return 0, &apiError{Status: http.StatusNotFound, Detail: "There is no such page in the dashboard."}
	}
	return id, nil
}

func (q *req) listKeys() ([]server.KeyInfo, error) {
	var list server.KeyList
	err := q.call(http.MethodGet, "/v1/keys", nil, &list)
	return list.Keys, err
}

// sessionKeyID is the id of this browser's own dashboard key.
func (q *req) sessionKeyID() (int64, error) {
	keys, err := q.listKeys()
	if err != nil {
		return 0, err
	}
	for _, k := range keys {
		if k.Active && k.Kind == store.KeyDashboard && strings.HasPrefix(q.key, k.Prefix) {
			return k.KeyID, nil
		}
	}
	return 0, &apiError{Status: http.StatusUnauthorized, Detail: "session ended"}
}

// keysData gathers the keys page: the keys and the organizations a key
// may be minted for.
func (q *req) keysData(minted *server.MintedKey) (keysData, error) {
	data := keysData{Minted: minted, Session: q.key[:min(len(q.key), 12)]}
	keys, err := q.listKeys()
	if err != nil {
		return data, err
	}
	for _, k := range keys {
		if k.Active {
			data.Active = append(data.Active, k)
		} else {
			data.Revoked = append(data.Revoked, k)
		}
	}
	var orgs server.OrgList
	err = q.call(http.MethodGet, "/v1/orgs", nil, &orgs)
	data.Orgs = orgs.Orgs
	return data, err
}

func (q *req) keysPage(v *view, minted *server.MintedKey) error {
	data, err := q.keysData(minted)
	if err != nil {
		return err
	}
	v.Data = data
	return q.render(v, "keys")
}

func (d *Dashboard) keys(q *req) error { return q.keysPage(q.view("API keys", "keys"), nil) }

// formInt reads an optional whole-number field: "" is 0; anything else
// that is not a number is put in bad under the field's name.
func formInt(q *req, name string, bad map[string]string) int64 {
	s := strings.TrimSpace(q.r.PostFormValue(name))
	if s == "" {
		return 0
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		bad[name] = "must be a whole number"
	}
	return n
}

// badForm is the refusal of fields the dashboard could not even send.
func badForm(fields map[string]string) error {
	if len(fields) == 0 {
		return nil
	}
	return &apiError{Status: http.StatusUnprocessableEntity, Detail: "Some fields need fixing.", Fields: fields}
}

func (d *Dashboard) createKey(q *req) error {
	bad := map[string]string{}
	in := server.CreateKeyRequest{Label: q.r.PostFormValue("label"), ProjectTag: q.r.PostFormValue("project_tag"),
		Scope: q.r.PostFormValue("scope"), DailyCapCredits: formInt(q, "daily_cap_credits", bad), OrgID: formInt(q, "org_id", bad)}
	var minted server.MintedKey
	err := badForm(bad)
	if err == nil {
		err = q.call(http.MethodPost, "/v1/keys", in, &minted)
	}
	if err != nil {
		v := q.view("API keys", "keys")
		data, lerr := q.keysData(nil)
		if lerr != nil {
			return lerr
		}
		v.Data = data
		return q.formFailed(v, "keys", err)
	}
	v := q.view("API keys", "keys")
	v.Flash = "Key " + minted.Key.Prefix + "… created. Copy it now: it is shown only once."
	return q.keysPage(v, &minted)
}

// findKey is one of the account's keys, or 404 as the API says it.
func (q *req) findKey(id int64) (server.KeyInfo, error) {
	keys, err := q.listKeys()
	if err != nil {
		return server.KeyInfo{}, err
	}
	for _, k := range keys {
		if k.KeyID == id {
			return k, nil
		}
	}
	return server.KeyInfo{}, &apiError{Status: http.StatusNotFound, Detail: "no key " + strconv.FormatInt(id, 10) + " in this account"}
}

func (d *Dashboard) editKey(q *req) error {
	id, err := q.pathID("id")
	if err != nil {
		return err
	}
	k, err := q.findKey(id)
	if err != nil {
		return err
	}
	v := q.view("Edit key "+k.Prefix+"…", "keys")
	v.Data = k
	return q.render(v, "key_edit")
}

func (d *Dashboard) updateKey(q *req) error {
	id, err := q.pathID("id")
	if err != nil {
		return err
	}
	bad := map[string]string{}
	label, tag := q.r.PostFormValue("label"), q.r.PostFormValue("project_tag")
	capCredits := formInt(q, "daily_cap_credits", bad)
	var out server.KeyOutput
	err = badForm(bad)
	if err == nil {
		err = q.call(http.MethodPatch, keyPath(id), server.UpdateKeyRequest{Label: &label, ProjectTag: &tag, DailyCapCredits: &capCredits}, &out)
	}
	if err != nil {
		k, ferr := q.findKey(id)
		if ferr != nil {
			return ferr
		}
		v := q.view("Edit key "+k.Prefix+"…", "keys")
		v.Data = k
		return q.formFailed(v, "key_edit", err)
	}
	return q.done(Path+"/keys", "Key "+out.Key.Prefix+"… saved.")
}

func (d *Dashboard) rotateKey(q *req) error {
	id, err := q.pathID("id")
	if err != nil {
		return err
	}
	var minted server.MintedKey
	if err := q.call(http.MethodPost, keyPath(id)+"/rotate", nil, &minted); err != nil {
		return err
	}
	v := q.view("API keys", "keys")
	v.Flash = "Key rotated: the old key is revoked. Copy the new one now: it is shown only once."
	return q.keysPage(v, &minted)
}

func (d *Dashboard) revokeKey(q *req) error {
	id, err := q.pathID("id")
	if err != nil {
		return err
	}
	var out server.KeyOutput
	if err := q.call(http.MethodDelete, keyPath(id), nil, &out); err != nil {
		return err
	}
	if strings.HasPrefix(q.key, out.Key.Prefix) && out.Key.Kind == store.KeyDashboard {
		q.d.cookie(q.w, q.r, sessionCookie, "", -1)
		q.d.redirect(q.w, q.r, Path+"/login", "You revoked this session's own key, so you are logged out.")
		return nil
	}
	return q.done(Path+"/keys", "Key "+out.Key.Prefix+"… revoked: calls with it now get 401.")
}
