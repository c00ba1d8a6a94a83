package server

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/webinfra/webinfra/store"
)

// exportCap bounds the usage rows and the ledger rows one export carries:
// the newest are kept, and the document says how many were left out.
const exportCap = 10_000

// exportPage is how many rows the export reads from the store at a time,
// so a large account never sits in memory.
const exportPage = 1000

// AccountExport documents the shape of GET /v1/me/export. The server
// writes it as a stream, member by member, in this order.
type AccountExport struct {
	ExportedAt time.Time       `json:"exported_at"`
	Profile    ExportProfile   `json:"profile"`
	Credits    ExportCredits   `json:"credits"`
	Usage      ExportUsage     `json:"usage"`
	Keys       []KeyInfo       `json:"keys" doc:"Metadata only: never a key or its hash."`
	Forwarders []ForwarderInfo `json:"forwarders" doc:"Auth values masked."`
	Orgs       []OrgInfo       `json:"orgs" doc:"Organization memberships."`
}

// ExportProfile is the account itself.
type ExportProfile struct {
	AccountID int64       `json:"account_id"`
	Email     string      `json:"email"`
	Plan      string      `json:"plan"`
	Login     store.Login `json:"login" enum:"password,oauth"`
	CreatedAt time.Time   `json:"created_at"`
}

// ExportCredits is the balance and the ledger, newest first, capped.
type ExportCredits struct {
	Balance int64               `json:"balance"`
	Ledger  []store.LedgerEntry `json:"ledger"`
	Note    string              `json:"note"`
}

// ExportUsage is the request log, newest first, capped.
type ExportUsage struct {
	Total    int64         `json:"total" doc:"Rows in the log."`
	Included int64         `json:"included" doc:"Rows in this document: the newest, at most the cap."`
	Omitted  int64         `json:"omitted" doc:"Older rows left out; GET /v1/me/usage?format=csv streams them all."`
	Cap      int           `json:"cap"`
	Note     string        `json:"note"`
	Rows     []UsageRecord `json:"rows"`
}

func exportOp(o Operation, h func(context.Context, *struct{}) (*huma.StreamResponse, error)) Operation {
	o = paramOp(o, h)
	register := o.register
	o.register = func(api huma.API, hop huma.Operation) {
		schema := api.OpenAPI().Components.Schemas.Schema(reflect.TypeOf(AccountExport{}), true, "AccountExport")
		hop.Responses["200"] = &huma.Response{
			Description: "The account as one JSON document, sent as a download (Content-Disposition: attachment).",
			Content:     map[string]*huma.MediaType{"application/json": {Schema: schema}},
		}
		register(api, hop)
	}
	return o
}

// exportAccount gathers the small parts first (so a failing store answers
// with a proper error), then streams the document, reading the ledger and
// the usage log a page at a time.
func (s *Server) exportAccount(ctx context.Context, _ *struct{}) (*huma.StreamResponse, error) {
	p := callFrom(ctx).principal
	acct := p.account
	head, err := s.exportHead(ctx, acct)
	if err != nil {
		return nil, err
	}
	return &huma.StreamResponse{Body: func(hctx huma.Context) {
		hctx.SetHeader("Content-Type", "application/json")
		hctx.SetHeader("Content-Disposition", fmt.Sprintf(`attachment; filename="webinfra-export-%d.json"`, acct.ID))
		hctx.SetStatus(http.StatusOK)
		if err := s.streamExport(hctx.Context(), hctx.BodyWriter(), acct.ID, head); err != nil {
			s.log.Error("account export", "account_id", acct.ID, "err", err) // the status line is out: a cut document says it
		}
	}}, nil
}

// exportHead is everything but the two long lists.
type exportHead struct {
	doc        AccountExport
	usageTotal int64
}

func (s *Server) exportHead(ctx context.Context, acct store.Account) (*exportHead, error) {
	h := &exportHead{doc: AccountExport{ExportedAt: s.now().UTC(), Profile: ExportProfile{AccountID: acct.ID, Email: acct.Email,
		Plan: acct.Plan, Login: acct.Login, CreatedAt: acct.CreatedAt.UTC()}}}
	var err error
	if h.doc.Credits.Balance, err = s.store.Balance(ctx, acct.ID); err != nil {
		return nil, err
	}
	if h.usageTotal, err = s.store.CountUsage(ctx, acct.ID); err != nil {
		return nil, err
	}
	keys, err := s.store.ListKeys(ctx, acct.ID)
	if err != nil {
		return nil, err
	}
	h.doc.Keys = make([]KeyInfo, 0, len(keys))
	for _, k := range keys {
		h.doc.Keys = append(h.doc.Keys, keyInfo(k))
	}
	if h.doc.Forwarders, err = s.forwarderInfos(ctx, acct.ID); err != nil {
		return nil, err
	}
	orgs, err := s.store.ListOrgs(ctx, acct.ID)
	if err != nil {
		return nil, err
	}
	h.doc.Orgs = make([]OrgInfo, 0, len(orgs))
	for _, o := range orgs {
		m, err := s.store.OrgMember(ctx, o.ID, acct.ID)
		if err != nil {
			return nil, err
		}
		h.doc.Orgs = append(h.doc.Orgs, orgInfo(o, m.Role, acct.ID))
	}
	return h, nil
}

// streamExport writes the document: the members of AccountExport in
// order, the ledger and usage rows one page of the store at a time.
func (s *Server) streamExport(ctx context.Context, w io.Writer, accountID int64, h *exportHead) error {
	ew := &exportWriter{w: w}
	d := h.doc
	ew.raw(`{"exported_at":`)
	ew.value(d.ExportedAt)
	ew.raw(`,"profile":`)
	ew.value(d.Profile)

	ew.raw(`,"credits":{"balance":`)
	ew.value(d.Credits.Balance)
	ew.raw(`,"ledger":[`)
	ledgerRows, err := s.exportPages(ctx, ew, func(limit, offset int) (int, error) {
		rows, err := s.store.Ledger(ctx, accountID, limit, offset)
		for _, r := range rows {
			ew.item(r)
		}
		return len(rows), err
	})
	if err != nil {
		return err
	}
	ew.raw(`],"note":`)
	ew.value(capNote("ledger rows", ledgerRows, ledgerRows == exportCap))

	ew.raw(`},"usage":`)
	included := min(h.usageTotal, exportCap)
	ew.raw(fmt.Sprintf(`{"total":%d,"included":%d,"omitted":%d,"cap":%d,"note":`, h.usageTotal, included, h.usageTotal-included, exportCap))
	ew.value(usageNote(h.usageTotal, included))
	ew.raw(`,"rows":[`)
	if _, err := s.exportPages(ctx, ew, func(limit, offset int) (int, error) {
		rows, err := s.store.ListUsage(ctx, store.UsageQuery{AccountID: accountID, Limit: limit, Offset: offset})
		for _, r := range rows {
			ew.item(usageRecord(r))
		}
		return len(rows), err
	}); err != nil {
		return err
	}
	ew.raw(`]},"keys":`)
	ew.value(d.Keys)
	ew.raw(`,"forwarders":`)
	ew.value(d.Forwarders)
	ew.raw(`,"orgs":`)
	ew.value(d.Orgs)
	ew.raw("}\n")
	return ew.err
}

// exportPages calls read for pages of exportPage rows until it returns a
// short page or exportCap rows were read, and returns how many it read.
func (s *Server) exportPages(ctx context.Context, ew *exportWriter, read func(limit, offset int) (int, error)) (int, error) {
	ew.first = true
	total := 0
	for total < exportCap && ew.err == nil {
		if err := ctx.Err(); err != nil {
			return total, err
		}
		limit := min(exportPage, exportCap-total)
		n, err := read(limit, total)
		if err != nil {
			return total, err
		}
		total += n
		if n < limit {
			break
		}
	}
	return total, ew.err
}

func capNote(what string, n int, capped bool) string {
	if capped {
		return fmt.Sprintf("the newest %d %s, the cap: older ones, if any, are left out", n, what)
	}
	return fmt.Sprintf("all %d %s", n, what)
}

func usageNote(total, included int64) string {
	if total > included {
		return fmt.Sprintf("the newest %d of %d calls: %d older rows are left out (the cap is %d); GET /v1/me/usage?format=csv streams the whole log",
			included, total, total-included, exportCap)
	}
	return fmt.Sprintf("all %d calls", total)
}

// exportWriter writes JSON pieces, remembering the first error.
type exportWriter struct {
	w     io.Writer
	err   error
	first bool // no array item written yet since the last exportPages
}

func (ew *exportWriter) raw(s string) {
	if ew.err == nil {
		_, ew.err = io.WriteString(ew.w, s)
	}
}

func (ew *exportWriter) value(v any) {
	if ew.err != nil {
		return
	}
	b, err := json.Marshal(v)
	if err != nil {
		ew.err = err
		return
	}
	_, ew.err = ew.w.Write(b)
}

// item writes one array element, with a comma before all but the first.
func (ew *exportWriter) item(v any) {
	if !ew.first {
		ew.raw(",")
	}
	ew.first = false
	ew.value(v)
}
