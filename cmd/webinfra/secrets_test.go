package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// dataFiles returns the bytes of every file in dir, joined.
func dataFiles(t *testing.T, dir string) []byte {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var all []byte
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err == nil {
			all = append(all, b...)
		}
	}
	return all
}

// Secrets at rest, against `webinfra serve`: the raw key of an idempotent
// POST /v1/keys is kept only sealed (and still replayed), a queued job's
// Authorization header is kept only sealed and is gone once the job ends,
// the data directory is 0700 and its files 0600, and the key is reused at
// the next start.
func TestSecretsAtRest(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer site-token-1234567890" {
			http.Error(w, "no", http.StatusUnauthorized)
			return
		}
		<-release
		w.Write([]byte("<html><body><p>members only</p></body></html>"))
	}))
	defer target.Close()
	defer close(release)

	dataDir := filepath.Join(t.TempDir(), "data")
	base, stop := serveInProcess(t, "--data-dir", dataDir, "--allow-private-networks")
	call := func(method, path, key, body string, headers ...string) (int, []byte) {
		req, _ := http.NewRequest(method, base+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		if key != "" {
			req.Header.Set("Authorization", "Bearer "+key)
		}
		for i := 0; i+1 < len(headers); i += 2 {
			req.Header.Set(headers[i], headers[i+1])
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var buf bytes.Buffer
		buf.ReadFrom(res.Body)
		return res.StatusCode, buf.Bytes()
	}
	_, body := call("POST", "/v1/auth/signup", "", `{"email":"rest@example.com","password":"a long password"}`)
	var signup struct {
		APIKey string `json:"api_key"`
	}
	json.Unmarshal(body, &signup)

	status, first := call("POST", "/v1/keys", signup.APIKey, `{"label":"ci"}`, "Idempotency-Key", "mint-1")
	var minted struct {
		APIKey string `json:"api_key"`
	}
	json.Unmarshal(first, &minted)
	if status != 200 || minted.APIKey == "" {
		t.Fatalf("mint: %d %s", status, first)
	}
	if _, again := call("POST", "/v1/keys", signup.APIKey, `{"label":"ci"}`, "Idempotency-Key", "mint-1"); !bytes.Equal(again, first) {
		t.Fatalf("replay differs: %s", again)
	}

	status, body = call("POST", "/v1/scrape/async", signup.APIKey,
		fmt.Sprintf(`{"url":%q,"headers":{"Authorization":"Bearer site-token-1234567890"}}`, target.URL))
	var job struct {
		JobID string `json:"job_id"`
	}
	json.Unmarshal(body, &job)
	if status != 200 {
		t.Fatalf("submit: %d %s", status, body)
	}
	files := dataFiles(t, dataDir)
	for _, secret := range []string{minted.APIKey, "site-token-1234567890"} {
		if bytes.Contains(files, []byte(secret)) {
			t.Errorf("%q is in the data files in plain text", secret)
		}
	}
	release <- struct{}{} // the target answers: the job ends
	deadline := time.Now().Add(20 * time.Second)
	for {
		_, body = call("GET", "/v1/jobs/"+job.JobID, signup.APIKey, "")
		if strings.Contains(string(body), `"completed"`) || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if !strings.Contains(string(body), "members only") {
		t.Fatalf("the job did not use its sealed headers: %s", body)
	}

	info, _ := os.Stat(dataDir)
	if info.Mode().Perm() != 0o700 {
		t.Errorf("data dir mode %s, want 0700", info.Mode().Perm())
	}
	entries, _ := os.ReadDir(dataDir)
	for _, e := range entries {
		if i, _ := e.Info(); i.Mode().Perm()&0o077 != 0 {
			t.Errorf("%s mode %s, want 0600", e.Name(), i.Mode().Perm())
		}
	}
	key, _ := os.ReadFile(filepath.Join(dataDir, "secret.key"))
	stop()
	base, _ = serveInProcess(t, "--data-dir", dataDir)
	if again, _ := os.ReadFile(filepath.Join(dataDir, "secret.key")); !bytes.Equal(key, again) {
		t.Fatal("the secret key changed across restarts")
	}
	if _, replay := call("POST", "/v1/keys", signup.APIKey, `{"label":"ci"}`, "Idempotency-Key", "mint-1"); !bytes.Equal(replay, first) {
		t.Fatalf("after a restart the sealed answer no longer opens: %s", replay)
	}
}
