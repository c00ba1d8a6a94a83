package dashboard

import (
	"net/http"
	"net/url"
	"strconv"

	"github.com/webinfra/webinfra/server"
)

func (d *Dashboard) usageRoutes(m *http.ServeMux) {
	m.HandleFunc("GET "+Path+"/usage", d.page(d.usage))
	m.HandleFunc("GET "+Path+"/usage.csv", d.page(d.usageCSV))
	m.HandleFunc("GET "+Path+"/usage/{request_id}", d.page(d.requestRecord))
}

const usagePageRows = 50

// usageData is a page of the request log.
type usageData struct {
	server.UsagePage
	Endpoint         string
	CSV              string // the download link with the same filter
	Prev, Next       string // neighbour pages; "" when none
	First, Last      int    // the rows shown, 1-based
	EndpointFiltered bool
}

// usage lists the request log (GET /v1/me/usage), filtered by endpoint.
func (d *Dashboard) usage(q *req) error {
	endpoint := q.r.URL.Query().Get("endpoint")
	offset, _ := strconv.Atoi(q.r.URL.Query().Get("offset"))
	offset = max(offset, 0)
	query := url.Values{"limit": {strconv.Itoa(usagePageRows)}, "offset": {strconv.Itoa(offset)}}
	if endpoint != "" {
		query.Set("endpoint", endpoint)
	}
	v := q.view("Usage log", "usage")
	data := usageData{Endpoint: endpoint, EndpointFiltered: endpoint != ""}
	v.Data = &data
	if err := q.call(http.MethodGet, "/v1/me/usage?"+query.Encode(), nil, &data.UsagePage); err != nil {
		return q.formFailed(v, "usage", err)
	}
	link := func(off int) string {
		l := url.Values{"offset": {strconv.Itoa(off)}}
		if endpoint != "" {
			l.Set("endpoint", endpoint)
		}
		return Path + "/usage?" + l.Encode()
	}
	if offset > 0 {
		data.Prev = link(max(offset-usagePageRows, 0))
	}
	if len(data.Rows) == usagePageRows {
		data.Next = link(offset + usagePageRows)
	}
	data.First, data.Last = offset+1, offset+len(data.Rows)
	csv := url.Values{}
	if endpoint != "" {
		csv.Set("endpoint", endpoint)
	}
	data.CSV = Path + "/usage.csv?" + csv.Encode()
	return q.render(v, "usage")
}

// usageCSV streams GET /v1/me/usage?format=csv with the page's filter.
func (d *Dashboard) usageCSV(q *req) error {
	query := url.Values{"format": {"csv"}, "limit": {"100000"}}
	if e := q.r.URL.Query().Get("endpoint"); e != "" {
		query.Set("endpoint", e)
	}
	return q.d.api.stream(q.w, q.r, q.key, "/v1/me/usage?"+query.Encode())
}

// requestRecord shows one request's billing record
// (GET /v1/me/requests/{request_id}).
func (d *Dashboard) requestRecord(q *req) error {
	id := q.r.PathValue("request_id")
	var rec server.UsageRecord
	if err := q.call(http.MethodGet, "/v1/me/requests/"+url.PathEscape(id), nil, &rec); err != nil {
		return err
	}
	v := q.view("Request "+id, "usage")
	v.Data = rec
	return q.render(v, "request")
}
