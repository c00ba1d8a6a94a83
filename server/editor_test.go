package server_test

import (
	"bytes"
	"encoding/json"
	"image/png"
	"io"
	"net/http"
	"testing"
)

// editorPage is a small editor: a textarea, a Run button that writes
// "ran: <text>" into #out.
const editorPage = `<!doctype html><html><body>
<textarea id="code"></textarea><button id="run" onclick="document.getElementById('out').textContent='ran: '+document.getElementById('code').value">Run</button>
<div id="out"></div></body></html>`

type editorResult struct {
	Passed      bool     `json:"passed"`
	FailedStep  *int     `json:"failed_step"`
	Screenshots []string `json:"screenshots"`
	Steps       []struct {
		Action string `json:"action"`
		OK     bool   `json:"ok"`
	} `json:"steps"`
}

// Editor runs in a real Chromium, as jobs: a passing run, and a failing
// assertion whose screenshot is served to the run's owner only.
func TestEditorRuns(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withRealBrowser(t), withQueue())
	key := e.signup("editor@example.com")
	other := e.signup("other-editor@example.com")
	site := newHTTPServer(t, func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, editorPage) })

	steps := func(want string) []map[string]any {
		return []map[string]any{
			{"action": "type", "selector": "#code", "text": "1 + 1"},
			{"action": "click", "selector": "#run"},
			{"action": "assert_text", "selector": "#out", "text": want, "timeout_ms": 1500},
		}
	}
	id := e.submit("/v1/editor/runs", key, map[string]any{"url": site, "steps": steps("ran: 1 + 1")})
	j := e.job(key, id)
	var res editorResult
	if err := json.Unmarshal(j.Result, &res); err != nil || j.Status != "completed" || !res.Passed || len(res.Steps) != 3 || !res.Steps[2].OK {
		t.Fatalf("passing run: %+v %s (%v)", j, j.Result, err)
	}
	if got := e.balance(key); got != 995 {
		t.Errorf("balance after a run = %d, want 995 (5 credits)", got)
	}

	id = e.submit("/v1/editor/runs", key, map[string]any{"url": site, "steps": steps("ran: 2")})
	j = e.job(key, id)
	if err := json.Unmarshal(j.Result, &res); err != nil || j.Status != "completed" || res.Passed || res.FailedStep == nil || *res.FailedStep != 2 || len(res.Screenshots) != 1 {
		t.Fatalf("failing run: %+v %s (%v)", j, j.Result, err)
	}
	shot := "/v1/editor/runs/" + id + "/screenshots/" + res.Screenshots[0]
	r := e.want(e.call("GET", shot, key, nil), 200)
	if r.header.Get("Content-Type") != "image/png" {
		t.Errorf("screenshot content type %q", r.header.Get("Content-Type"))
	}
	if img, err := png.Decode(bytes.NewReader(r.body)); err != nil || img.Bounds().Dx() != 1280 {
		t.Errorf("screenshot: %v", err)
	}
	e.want(e.call("GET", shot, other, nil), 404)
	e.want(e.call("GET", "/v1/editor/runs/"+id+"/screenshots/step-9.png", key, nil), 404)
	e.want(e.call("GET", "/v1/editor/runs/"+id+"/screenshots/..%2F..%2Fetc%2Fpasswd", key, nil), 422)
	e.want(e.call("POST", "/v1/editor/runs", key, map[string]any{"url": site, "steps": []map[string]any{{"action": "click"}}}), 422)
}
