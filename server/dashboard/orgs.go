package dashboard

import (
	"net/http"
	"strconv"

	"github.com/webinfra/webinfra/server"
	"github.com/webinfra/webinfra/store"
)

func (d *Dashboard) orgRoutes(m *http.ServeMux) {
	m.HandleFunc("GET "+Path+"/orgs", d.page(d.orgs))
	m.HandleFunc("POST "+Path+"/orgs", d.page(d.createOrg))
	m.HandleFunc("GET "+Path+"/orgs/{id}", d.page(d.org))
	m.HandleFunc("POST "+Path+"/orgs/{id}/members", d.page(d.addMember))
	m.HandleFunc("POST "+Path+"/orgs/{id}/members/{account}/role", d.page(d.setRole))
	m.HandleFunc("POST "+Path+"/orgs/{id}/members/{account}/remove", d.page(d.removeMember))
	m.HandleFunc("POST "+Path+"/orgs/{id}/transfer", d.page(d.transferOrg))
}

func orgPath(id int64) string { return "/v1/orgs/" + strconv.FormatInt(id, 10) }

func (q *req) orgsData(v *view) error {
	var list server.OrgList
	err := q.call(http.MethodGet, "/v1/orgs", nil, &list)
	v.Data = list
	return err
}

// orgs lists the caller's organizations (GET /v1/orgs).
func (d *Dashboard) orgs(q *req) error {
	v := q.view("Organizations", "orgs")
	if err := q.orgsData(v); err != nil {
		return err
	}
	return q.render(v, "orgs")
}

// createOrg creates a team organization (POST /v1/orgs).
func (d *Dashboard) createOrg(q *req) error {
	var out server.OrgInfo
	if err := q.call(http.MethodPost, "/v1/orgs", server.OrgRequest{Name: q.r.PostFormValue("name")}, &out); err != nil {
		v := q.view("Organizations", "orgs")
		if lerr := q.orgsData(v); lerr != nil {
			return lerr
		}
		return q.formFailed(v, "orgs", err)
	}
	return q.done(Path+"/orgs/"+strconv.FormatInt(out.OrgID, 10), "Organization "+out.Name+" created; you own it.")
}

// orgData is an organization's page.
type orgData struct {
	server.OrgDetail
	CanManage bool // owner or admin: adds members
}

// orgPage fills v with the organization (GET /v1/orgs/{id}).
func (q *req) orgPage(v *view, id int64) error {
	var o server.OrgDetail
	if err := q.call(http.MethodGet, orgPath(id), nil, &o); err != nil {
		return err
	}
	v.Title = "Organization " + o.Name
	v.Data = orgData{OrgDetail: o, CanManage: o.Role == store.RoleOwner || o.Role == store.RoleAdmin}
	return nil
}

func (d *Dashboard) org(q *req) error {
	id, err := q.pathID("id")
	if err != nil {
		return err
	}
	v := q.view("Organization", "orgs")
	if err := q.orgPage(v, id); err != nil {
		return err
	}
	return q.render(v, "org")
}

// orgAction runs one change to organization {id} with the API call send;
// a refusal is shown on the organization's page, beside its form.
func (q *req) orgAction(send func(id int64) (string, error)) error {
	id, err := q.pathID("id")
	if err != nil {
		return err
	}
	msg, err := send(id)
	if err == nil {
		return q.done(Path+"/orgs/"+strconv.FormatInt(id, 10), msg)
	}
	v := q.view("Organization", "orgs")
	if lerr := q.orgPage(v, id); lerr != nil {
		return lerr
	}
	return q.formFailed(v, "org", err)
}

func (d *Dashboard) addMember(q *req) error {
	return q.orgAction(func(id int64) (string, error) {
		in := server.AddOrgMemberRequest{Email: q.r.PostFormValue("email"), Role: q.r.PostFormValue("role")}
		return in.Email + " added as " + in.Role + ".", q.call(http.MethodPost, orgPath(id)+"/members", in, nil)
	})
}

// memberAction sends method with body to the member {account} of
// organization {id}; say words the outcome once out is filled in.
func (q *req) memberAction(method string, body, out any, say func() string) error {
	return q.orgAction(func(id int64) (string, error) {
		acct, err := q.pathID("account")
		if err != nil {
			return "", err
		}
		err = q.call(method, orgPath(id)+"/members/"+strconv.FormatInt(acct, 10), body, out)
		return say(), err
	})
}

func (d *Dashboard) setRole(q *req) error {
	var m server.OrgMemberInfo
	return q.memberAction(http.MethodPatch, server.SetOrgRoleRequest{Role: q.r.PostFormValue("role")}, &m,
		func() string { return m.Email + " is now " + string(m.Role) + "." })
}

func (d *Dashboard) removeMember(q *req) error {
	var out server.MemberRemoved
	return q.memberAction(http.MethodDelete, nil, &out,
		func() string {
			return "Member removed; " + strconv.Itoa(out.RevokedKeys) + " of their keys of this organization revoked."
		})
}

func (d *Dashboard) transferOrg(q *req) error {
	return q.orgAction(func(id int64) (string, error) {
		acct, _ := strconv.ParseInt(q.r.PostFormValue("account_id"), 10, 64)
		err := q.call(http.MethodPost, orgPath(id)+"/transfer", server.OrgTransferRequest{AccountID: acct}, nil)
		return "Ownership transferred; you are now an admin.", err
	})
}
