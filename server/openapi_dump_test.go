package server_test

import (
	"net/http"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/webinfra/webinfra/billing"
)

// TestOpenAPIDump writes the document GET /openapi.json serves to the file
// named by WEBINFRA_OPENAPI_OUT, for linters and client generators (.ci/run
// lints it with Redocly):
//
//	WEBINFRA_OPENAPI_OUT=openapi.json go test ./server -run '^TestOpenAPIDump$' -count=1
//
// Without the variable it checks what Redocly's recommended rules need:
// servers, and security and a 4xx answer on every operation.
func TestOpenAPIDump(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	raw := e.want(e.call("GET", "/openapi.json", "", nil), 200)
	if out := os.Getenv("WEBINFRA_OPENAPI_OUT"); out != "" {
		if err := os.WriteFile(out, raw.body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var doc openAPIDoc
	raw.json(t, &doc)
	if len(doc.Servers) != 1 || doc.Servers[0].URL != "/" {
		t.Errorf("servers %+v, want the relative / without a public URL", doc.Servers)
	}
	for path, ops := range doc.Paths {
		for method, op := range ops {
			if op.Security == nil {
				t.Errorf("%s %s declares no security (public operations declare [])", method, path)
			}
			if _, ok := op.Responses["default"]; !ok || len(op.clientErrors()) == 0 {
				t.Errorf("%s %s documents no 4xx or no default error: %v", method, path, op.Responses)
			}
		}
	}
	if sec := doc.Paths["/v1/auth/signup"]["post"].Security; sec == nil || len(*sec) != 0 {
		t.Errorf("signup security %v, want []", sec)
	}
	// The 4xx lists follow from the catalog's fields (openapi.go).
	for route, want := range map[string]string{
		"get /healthz":                   "400 413",                             // public, unlimited
		"post /v1/auth/signup":           "400 409 413 415 422 429",             // public, body, a taken e-mail
		"get /v1/me":                     "400 401 413 429",                     // keyed
		"get /v1/jobs/{job_id}":          "400 401 404 413 422 429",             // keyed, a lookup
		"post /v1/me/cost-estimate":      "400 401 409 413 415 422 429",         // keyed, unlimited, body
		"post /v1/keys":                  "400 401 403 409 413 415 422 429",     // scope full
		"post /v1/scrape":                "400 401 402 403 409 413 415 422 429", // billable, outbound
		"post /v1/editor/runs":           "400 401 402 403 409 413 415 422 429", // billable, outbound, a job
		"delete /v1/keys/{key_id}":       "400 401 403 404 409 413 422 429",
		"get /v1/me/webhooks/deliveries": "400 401 413 422 429", // query parameters
	} {
		method, path, _ := strings.Cut(route, " ")
		got := doc.Paths[path][method].clientErrors()
		slices.Sort(got)
		if strings.Join(got, " ") != want {
			t.Errorf("%s documents %v, want %s", route, got, want)
		}
	}
}

type openAPIDoc struct {
	Servers []struct {
		URL         string `json:"url"`
		Description string `json:"description"`
	} `json:"servers"`
	Paths map[string]map[string]openAPIOp `json:"paths"`
}

type openAPIOp struct {
	Security   *[]map[string][]string `json:"security"`
	Deprecated bool                   `json:"deprecated"`
	Responses  map[string]struct {
		Description string `json:"description"`
	} `json:"responses"`
}

func (op openAPIOp) clientErrors() []string {
	var out []string
	for status := range op.Responses {
		if strings.HasPrefix(status, "4") {
			out = append(out, status)
		}
	}
	return out
}

// The documented 4xx answers are the truth: bad requests of every kind,
// sent to every operation of the document, get only statuses its
// responses list.
func TestOpenAPIDocumentsEveryRefusal(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withMaxBody(4096), withPlan(billing.Plan{Credits: 0, RequestsPerMinute: 1 << 20}), func(c *envConfig) {
		c.server.MaxPageBytes = 4096
		c.server.Billing.AnonymousRequestsPerMinute = 1 << 20
	})
	full := e.signup("probe@example.com") // no credits: billable calls are 402
	var minted struct {
		APIKey string `json:"api_key"`
	}
	e.want(e.call("POST", "/v1/keys", full, map[string]string{"scope": "api"}), 200).json(t, &minted)
	var doc openAPIDoc
	e.want(e.call("GET", "/openapi.json", "", nil), 200).json(t, &doc)

	big := `{"x":"` + strings.Repeat("a", 5000) + `"}`
	probes := []struct {
		name, key, param, query, body, contentType string
		twoKeys                                    bool
		idempotencyKey                             string
	}{
		{name: "no key", param: "1"},
		{name: "two Authorization headers", key: full, param: "1", twoKeys: true},
		{name: "scope api", key: minted.APIKey, param: "999999", body: "{}"},
		{name: "empty object", key: full, param: "999999", body: "{}"},
		{name: "not JSON", key: full, param: "999999", body: "{"},
		{name: "text/plain", key: full, param: "999999", body: "{}", contentType: "text/plain"},
		{name: "too large", key: full, param: "999999", body: big},
		{name: "parameter out of range", key: full, param: "0", query: "?limit=0&days=0"},
		{name: "bad Idempotency-Key", key: full, param: "999999", body: "{}", idempotencyKey: strings.Repeat("k", 300)},
		{name: "anonymous body", param: "1", body: "{}"},
	}
	param := regexp.MustCompile(`\{[a-z_]+\}`)
	for path, ops := range doc.Paths {
		for method, op := range ops {
			method = strings.ToUpper(method)
			for _, p := range probes {
				req, err := http.NewRequest(method, e.ts.URL+param.ReplaceAllString(path, p.param)+p.query, strings.NewReader(p.body))
				if err != nil {
					t.Fatal(err)
				}
				if p.body != "" {
					req.Header.Set("Content-Type", "application/json")
				}
				if p.contentType != "" {
					req.Header.Set("Content-Type", p.contentType)
				}
				if p.key != "" {
					req.Header.Add("Authorization", "Bearer "+p.key)
				}
				if p.twoKeys {
					req.Header.Add("Authorization", "Bearer "+p.key)
				}
				if p.idempotencyKey != "" {
					req.Header.Set("Idempotency-Key", p.idempotencyKey)
				}
				res, err := e.client.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				res.Body.Close()
				status := strconv.Itoa(res.StatusCode)
				if _, ok := op.Responses[status]; !ok && res.StatusCode >= 400 && res.StatusCode < 502 {
					t.Errorf("%s %s (%s) answered %s, which its OpenAPI responses do not list: %v", method, path, p.name, status, keys(op.Responses))
				}
			}
		}
	}
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
