package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/webinfra/webinfra/server"
	"github.com/webinfra/webinfra/store"
)

// The export is one JSON document, a download, with the profile, ledger,
// usage (capped, saying how much was left out), key metadata without
// secrets, masked forwarders and memberships.
func TestExportAccount(t *testing.T) {
	t.Parallel()
	forEachDriver(t, func(t *testing.T, driver envOption) {
		e := newEnv(t, driver, withServer(func(o *server.Options) { o.AllowHTTPForwarders = true }))
		key := e.signup("export@example.com")
		e.want(e.call("POST", "/v1/extract/contacts", key, map[string]string{"text": "a@example.com"}), 200)
		e.want(e.call("POST", "/v1/orgs", key, map[string]string{"name": "Exporters"}), 200)
		e.want(e.call("POST", "/v1/me/forwarders", key, map[string]any{"endpoint": refusedURL(t) + "/v1/traces",
			"auth_header": "Authorization", "auth_value": "Bearer sekret-value-9876"}), 200)
		e.flushUsage()
		acct, err := e.st.AccountByEmail(context.Background(), "export@example.com")
		if err != nil {
			t.Fatal(err)
		}

		r := e.want(e.call("GET", "/v1/me/export", key, nil), 200)
		if cd := r.header.Get("Content-Disposition"); !strings.HasPrefix(cd, "attachment;") {
			t.Errorf("Content-Disposition = %q", cd)
		}
		for _, secret := range []string{key, key[len(key)-16:], "sekret-value", "whsec_"} {
			if strings.Contains(string(r.body), secret) {
				t.Errorf("the export carries a secret (%q)", secret[:6])
			}
		}
		var doc struct {
			Profile struct {
				AccountID int64  `json:"account_id"`
				Email     string `json:"email"`
				Login     string `json:"login"`
			} `json:"profile"`
			Credits struct {
				Balance int64             `json:"balance"`
				Ledger  []json.RawMessage `json:"ledger"`
			} `json:"credits"`
			Usage struct {
				Total, Included, Omitted int64
				Cap                      int
				Note                     string
				Rows                     []struct {
					Endpoint string `json:"endpoint"`
				}
			} `json:"usage"`
			Keys       []map[string]any `json:"keys"`
			Forwarders []struct {
				AuthValue string `json:"auth_value"`
			} `json:"forwarders"`
			Orgs []struct {
				Name string `json:"name"`
				Role string `json:"role"`
			} `json:"orgs"`
		}
		r.json(t, &doc)
		if doc.Profile.AccountID != acct.ID || doc.Profile.Email != "export@example.com" || doc.Profile.Login != "password" {
			t.Errorf("profile = %+v", doc.Profile)
		}
		if doc.Credits.Balance != 999 || len(doc.Credits.Ledger) != 2 {
			t.Errorf("credits = %d with %d ledger rows", doc.Credits.Balance, len(doc.Credits.Ledger))
		}
		if doc.Usage.Omitted != 0 || doc.Usage.Total != int64(len(doc.Usage.Rows)) || doc.Usage.Total < 3 {
			t.Errorf("usage = %+v", doc.Usage)
		}
		if len(doc.Keys) != 1 || doc.Keys[0]["prefix"] == nil || doc.Keys[0]["api_key"] != nil || doc.Keys[0]["hash"] != nil {
			t.Errorf("keys = %+v", doc.Keys)
		}
		if len(doc.Forwarders) != 1 || doc.Forwarders[0].AuthValue != strings.Repeat("*", 20)+"9876" {
			t.Errorf("forwarders = %+v", doc.Forwarders)
		}
		if len(doc.Orgs) != 1 || doc.Orgs[0].Name != "Exporters" || doc.Orgs[0].Role != "owner" {
			t.Errorf("orgs = %+v", doc.Orgs)
		}

		// Past the cap the newest rows are kept and the note says how many
		// were left out.
		rows := make([]store.UsageRow, 0, 10_050)
		for i := range 10_050 {
			rows = append(rows, store.UsageRow{RequestID: fmt.Sprintf("bulk-%d", i), AccountID: acct.ID, KeyID: 1,
				CreatedAt: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Second),
				Endpoint:  "/v1/scrape", Method: "POST", Status: 200, CreditsCharged: 1})
		}
		if err := e.st.InsertUsage(context.Background(), rows); err != nil {
			t.Fatal(err)
		}
		e.want(e.call("GET", "/v1/me/export", key, nil), 200).json(t, &doc)
		want := doc.Usage.Total - 10_000
		if doc.Usage.Cap != 10_000 || doc.Usage.Included != 10_000 || len(doc.Usage.Rows) != 10_000 || doc.Usage.Omitted != want ||
			!strings.Contains(doc.Usage.Note, fmt.Sprint(want)) {
			t.Errorf("capped usage: total %d included %d rows %d omitted %d note %q", doc.Usage.Total, doc.Usage.Included,
				len(doc.Usage.Rows), doc.Usage.Omitted, doc.Usage.Note)
		}
	})
}
