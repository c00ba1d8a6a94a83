package server

import (
	"context"
	"fmt"
	"net/http"
	"strconv"

	"github.com/danielgtaylor/huma/v2"

	"github.com/webinfra/webinfra/automation/editor"
	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/fetch"
	"github.com/webinfra/webinfra/fetch/render"
	"github.com/webinfra/webinfra/jobs"
	"github.com/webinfra/webinfra/store"
)

// kindEditorRun is the job of POST /v1/editor/runs.
const kindEditorRun = "editor_run"

// EditorRunRequest is the body of POST /v1/editor/runs: a page and the
// steps to run on it in a fresh, isolated browser context.
type EditorRunRequest struct {
	editor.RunInput
	WebhookURL string `json:"webhook_url,omitempty" maxLength:"2048" doc:"An HTTPS URL that receives the signed result when the run ends (optional: poll GET /v1/jobs/{job_id} otherwise)."`
}

func (s *Server) editorRun(ctx context.Context, in *EditorRunRequest) (*JobAccepted, error) {
	if err := editor.Validate(in.RunInput); err != nil {
		return nil, bodyField(err)
	}
	if _, ok := s.fetcher.Renderer().(*render.Pool); !ok {
		return nil, errs.New(errs.KindUnavailable, "editor runs need a browser: install chromium, or start the server with --browser-url")
	}
	return s.submit(ctx, kindEditorRun, in.RunInput, in.WebhookURL)
}

// editorRunner runs an editor run as a job: its screenshots are stored
// with the job. A step that fails is the run's result (the job completes
// with passed: false); only a run that could not happen fails the job and
// is refunded.
func editorRunner(f *fetch.Fetcher) jobs.Runner {
	return decodeInput(func(ctx context.Context, in editor.RunInput) (jobs.Outcome, error) {
		pool, ok := f.Renderer().(*render.Pool)
		if !ok {
			return jobs.Outcome{}, fmt.Errorf("this server has no browser for editor runs")
		}
		res, shots, err := editor.Run(ctx, pool, in, &editor.Options{CheckTarget: f.CheckTarget})
		if err != nil {
			return jobs.Outcome{}, err
		}
		out := jobs.Outcome{Result: res}
		for _, sh := range shots {
			out.Files = append(out.Files, store.JobFile{Name: sh.Name, ContentType: "image/png", Data: sh.PNG})
		}
		return out, nil
	})
}

type screenshotPath struct {
	JobID    string `path:"job_id" maxLength:"64"`
	Filename string `path:"filename" maxLength:"255" doc:"A name the run's result lists, e.g. failure-step-2.png."`
}

// editorScreenshot streams a screenshot of one of the caller's runs; any
// other job, name or account is 404, and a name that is not a screenshot
// name (a path, say) is refused before any lookup.
func (s *Server) editorScreenshot(ctx context.Context, in *screenshotPath) (*huma.StreamResponse, error) {
	if !editor.ValidScreenshotName(in.Filename) {
		return nil, errs.Invalid("path.filename", "is not a screenshot name (step-<n>.png, failure-step-<n>.png or failure-start.png)")
	}
	p := callFrom(ctx).principal
	j, err := s.store.JobByID(ctx, p.account.ID, in.JobID)
	if err == nil && j.Kind != kindEditorRun {
		err = errs.NotFound("job %q is not an editor run", in.JobID)
	}
	if err != nil {
		return nil, err
	}
	f, err := s.store.JobFile(ctx, p.account.ID, in.JobID, in.Filename)
	if err != nil {
		return nil, err
	}
	return &huma.StreamResponse{Body: func(hctx huma.Context) {
		hctx.SetHeader("Content-Type", f.ContentType)
		hctx.SetHeader("Content-Length", strconv.Itoa(len(f.Data)))
		hctx.SetHeader("Content-Disposition", `inline; filename="`+f.Name+`"`)
		hctx.SetStatus(http.StatusOK)
		hctx.BodyWriter().Write(f.Data)
	}}, nil
}

// screenshotOp documents the PNG answer of the screenshot operation.
func screenshotOp(o Operation, h func(context.Context, *screenshotPath) (*huma.StreamResponse, error)) Operation {
	o = paramOp(o, h)
	register := o.register
	o.register = func(api huma.API, hop huma.Operation) {
		hop.Responses["200"] = &huma.Response{Description: "The PNG screenshot.",
			Content: map[string]*huma.MediaType{"image/png": {Schema: &huma.Schema{Type: "string", Format: "binary"}}}}
		register(api, hop)
	}
	return o
}
