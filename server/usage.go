package server

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/store"
)

// UsageRecord is one row of the request log.
type UsageRecord struct {
	CreatedAt      time.Time `json:"created_at"`
	Endpoint       string    `json:"endpoint"`
	Method         string    `json:"method"`
	URL            string    `json:"url"`
	Status         int       `json:"status"`
	TimeMS         float64   `json:"time_ms"`
	CreditsCharged int64     `json:"credits_charged"`
	TierUsed       string    `json:"tier_used"`
	RequestID      string    `json:"request_id"`
	KeyID          int64     `json:"key_id"`
}

func usageRecord(r store.UsageRow) UsageRecord {
	return UsageRecord{CreatedAt: r.CreatedAt.UTC(), Endpoint: r.Endpoint, Method: r.Method, URL: r.URL,
		Status: r.Status, TimeMS: r.TimeMS, CreditsCharged: r.CreditsCharged, TierUsed: r.TierUsed,
		RequestID: r.RequestID, KeyID: r.KeyID}
}

// UsagePage is the JSON envelope of GET /v1/me/usage.
type UsagePage struct {
	Rows   []UsageRecord `json:"rows"`
	Limit  int           `json:"limit"`
	Offset int           `json:"offset"`
}

// usageColumns is the CSV header, in the order SPEC §2 fixes.
var usageColumns = []string{"created_at", "endpoint", "url", "status", "time_ms", "credits_charged", "tier_used", "request_id"}

func (r UsageRecord) csvRow() []string {
	return []string{r.CreatedAt.Format(time.RFC3339Nano), csvText(r.Endpoint), csvText(r.URL), strconv.Itoa(r.Status),
		strconv.FormatFloat(r.TimeMS, 'f', 3, 64), strconv.FormatInt(r.CreditsCharged, 10), csvText(r.TierUsed), csvText(r.RequestID)}
}

// csvText defuses a text cell that a spreadsheet would run as a formula
// (OWASP "CSV Injection"): a cell starting with = + - @, a tab or a carriage
// return gets a leading apostrophe, which spreadsheets show as text. The
// target URL is the caller's input, so a shared export could otherwise
// carry =HYPERLINK(...) or a DDE payload to whoever opens it. Numeric
// columns are written by the server and left alone.
func csvText(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

type usageQuery struct {
	Limit    int    `query:"limit" default:"50" minimum:"1" maximum:"100000" doc:"Rows to return (JSON pages are capped at 1000)."`
	Offset   int    `query:"offset" default:"0" minimum:"0"`
	Endpoint string `query:"endpoint" maxLength:"300" doc:"Only calls of this endpoint path, e.g. /v1/scrape."`
	Format   string `query:"format" default:"json" enum:"json,csv" doc:"csv streams text/csv with the same filters."`
}

const (
	maxJSONUsageRows = 1000
	csvPageRows      = 1000
)

func (s *Server) usageLog(ctx context.Context, in *usageQuery) (*huma.StreamResponse, error) {
	return s.usageOf(ctx, callFrom(ctx).principal.account.ID, in)
}

// usageOf answers a usage-log query of one account (the caller's, or an
// org's wallet).
func (s *Server) usageOf(ctx context.Context, accountID int64, in *usageQuery) (*huma.StreamResponse, error) {
	q := store.UsageQuery{AccountID: accountID, Endpoint: in.Endpoint, Limit: in.Limit, Offset: in.Offset}
	if in.Format == "csv" {
		return &huma.StreamResponse{Body: func(hctx huma.Context) { s.streamUsageCSV(hctx, q) }}, nil
	}
	if in.Limit > maxJSONUsageRows {
		return nil, errs.Invalid("query.limit", "JSON pages hold at most %d rows; use format=csv for more", maxJSONUsageRows)
	}
	rows, err := s.store.ListUsage(ctx, q)
	if err != nil {
		return nil, err
	}
	out := UsagePage{Rows: make([]UsageRecord, 0, len(rows)), Limit: in.Limit, Offset: in.Offset}
	for _, r := range rows {
		out.Rows = append(out.Rows, usageRecord(r))
	}
	return &huma.StreamResponse{Body: func(hctx huma.Context) {
		hctx.SetHeader("Content-Type", "application/json")
		hctx.SetStatus(http.StatusOK)
		json.NewEncoder(hctx.BodyWriter()).Encode(out)
	}}, nil
}

// streamUsageCSV writes the rows page by page, so an export of any size
// holds one page in memory.
func (s *Server) streamUsageCSV(hctx huma.Context, q store.UsageQuery) {
	ctx := hctx.Context()
	hctx.SetHeader("Content-Type", "text/csv; charset=utf-8")
	hctx.SetHeader("Content-Disposition", `attachment; filename="usage.csv"`)
	hctx.SetStatus(http.StatusOK)
	w := csv.NewWriter(hctx.BodyWriter())
	w.Write(usageColumns)
	remaining := q.Limit
	for remaining > 0 {
		q.Limit = min(remaining, csvPageRows)
		rows, err := s.store.ListUsage(ctx, q)
		if err != nil {
			s.log.Error("usage csv export", "err", err)
			break // the status line is out; a short file is all we can signal
		}
		for _, r := range rows {
			w.Write(usageRecord(r).csvRow())
		}
		w.Flush()
		if len(rows) < q.Limit {
			break
		}
		remaining -= len(rows)
		q.Offset += len(rows)
	}
	w.Flush()
}

// usageOp declares the usage log operation; its 200 answer is JSON or CSV,
// which a streamed response must document by hand.
func usageOp[Q any](o Operation, h func(context.Context, *Q) (*huma.StreamResponse, error)) Operation {
	o = paramOp(o, h)
	register := o.register
	o.register = func(api huma.API, hop huma.Operation) {
		schema := api.OpenAPI().Components.Schemas.Schema(reflect.TypeOf(UsagePage{}), true, "UsagePage")
		hop.Responses["200"] = &huma.Response{
			Description: "The request log: a JSON page, or CSV with the columns " + csvHeader() + ".",
			Content: map[string]*huma.MediaType{
				"application/json": {Schema: schema},
				"text/csv":         {Schema: &huma.Schema{Type: "string"}},
			},
		}
		register(api, hop)
	}
	return o
}

func csvHeader() string { return strings.Join(usageColumns, ",") }

type requestIDPath struct {
	RequestID string `path:"request_id" maxLength:"64"`
}

func (s *Server) requestRecord(ctx context.Context, in *requestIDPath) (*bodyOutput[UsageRecord], error) {
	p := callFrom(ctx).principal
	row, err := s.store.UsageByRequestID(ctx, p.payer, in.RequestID)
	if errs.Is(err, errs.KindNotFound) {
		return nil, errs.NotFound("no request %q in this account's log (calls appear about a second after they finish)", in.RequestID)
	}
	if err != nil {
		return nil, err
	}
	rec := usageRecord(row)
	return reply(&rec), nil
}
