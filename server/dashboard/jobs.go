package dashboard

import (
	"net/http"
	"net/url"
	"strconv"

	"github.com/webinfra/webinfra/server"
)

func (d *Dashboard) jobRoutes(m *http.ServeMux) {
	m.HandleFunc("GET "+Path+"/jobs", d.page(d.jobs))
	m.HandleFunc("GET "+Path+"/jobs/{job_id}", d.page(d.job))
}

// pager is a listing's neighbour pages.
type pager struct {
	Prev, Next string
}

// pageOf reads ?offset= and builds the links around a page of n rows.
func (q *req) pageOf(base string, rows int) (offset int, links func(n int) pager) {
	offset, _ = strconv.Atoi(q.r.URL.Query().Get("offset"))
	offset = max(offset, 0)
	return offset, func(n int) pager {
		var p pager
		if offset > 0 {
			p.Prev = base + "offset=" + strconv.Itoa(max(offset-rows, 0))
		}
		if n == rows {
			p.Next = base + "offset=" + strconv.Itoa(offset+rows)
		}
		return p
	}
}

const listRows = 50

// jobsData is a page of the job history.
type jobsData struct {
	server.JobList
	pager
}

// jobs lists the account's jobs (GET /v1/me/jobs).
func (d *Dashboard) jobs(q *req) error {
	offset, links := q.pageOf(Path+"/jobs?", listRows)
	var data jobsData
	if err := q.call(http.MethodGet, "/v1/me/jobs?limit="+strconv.Itoa(listRows)+"&offset="+strconv.Itoa(offset), nil, &data.JobList); err != nil {
		return err
	}
	data.pager = links(len(data.Jobs))
	v := q.view("Jobs", "jobs")
	v.Data = data
	return q.render(v, "jobs")
}

// job shows one job with its result (GET /v1/jobs/{job_id}).
func (d *Dashboard) job(q *req) error {
	id := q.r.PathValue("job_id")
	var j server.JobView
	if err := q.call(http.MethodGet, "/v1/jobs/"+url.PathEscape(id), nil, &j); err != nil {
		return err
	}
	v := q.view("Job "+j.JobID, "jobs")
	v.Data = j
	return q.render(v, "job")
}
