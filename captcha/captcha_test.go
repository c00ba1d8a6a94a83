package captcha_test

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/webinfra/webinfra/captcha"
	"github.com/webinfra/webinfra/captcha/captchatest"
	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/fetch"
)

const (
	recaptchaKey = "6Le-wvkSAAAAAPBMRTvw0Q4Muexq9bi0DJwx_mJ-"
	hcaptchaKey  = "a5f74b19-9e45-40e0-b45d-47ff91b7a6c2"
	turnstileKey = "0x4AAAAAAABS7vwvV6VFfMcD"
	pageURL      = "https://www.example.com/login"
)

// sleeps is an instant Sleep that records the waits asked for.
type sleeps struct {
	mu sync.Mutex
	d  []time.Duration
}

func (s *sleeps) sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.d = append(s.d, d)
	return nil
}

func (s *sleeps) all() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.d...)
}

// newClient builds a Client whose fetcher may reach loopback and whose
// Sleep returns at once (recorded in the returned sleeps).
func newClient(t *testing.T, opts captcha.Options) (*captcha.Client, *sleeps) {
	t.Helper()
	f, err := fetch.New(&fetch.Options{AllowPrivateNetworks: true})
	if err != nil {
		t.Fatal(err)
	}
	s := &sleeps{}
	if opts.Sleep == nil {
		opts.Sleep = s.sleep
	}
	c, err := captcha.New(f, &opts)
	if err != nil {
		t.Fatal(err)
	}
	return c, s
}

// fakes starts the fake providers asked for, closed at the test's end.
func fakes(t *testing.T, d captchatest.Dialect, cfg captchatest.Config) *captchatest.Server {
	t.Helper()
	srv := captchatest.NewServer(d, cfg)
	t.Cleanup(srv.Close)
	return srv
}

// optionsFor configures the Client for one fake provider.
func optionsFor(srv *captchatest.Server, d captchatest.Dialect) captcha.Options {
	if d == captchatest.CapSolver {
		return captcha.Options{CapSolverKey: srv.Key(), CapSolverURL: srv.URL}
	}
	return captcha.Options{TwoCaptchaKey: srv.Key(), TwoCaptchaURL: srv.URL}
}

// plain re-decodes v as JSON with float64 numbers, for comparison.
func plain(t *testing.T, v any) map[string]any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func wantKind(t *testing.T, err error, kind errs.Kind) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want %s", kind)
	}
	if got := errs.KindOf(err); got != kind {
		t.Fatalf("kind %s (%v), want %s", got, err, kind)
	}
}

// TestSolveEachTypeOnEachProvider checks the exact task each provider
// receives and the solution read from its answer.
func TestSolveEachTypeOnEachProvider(t *testing.T) {
	t.Parallel()
	two, cs := captchatest.TwoCaptcha, captchatest.CapSolver
	cases := []struct {
		name      string
		dialect   captchatest.Dialect
		req       captcha.SolveRequest
		wantTask  map[string]any
		wantToken bool
		wantUA    bool
		wantPolls int
	}{
		{"2captcha image", two, captcha.SolveRequest{Type: "image", ImageBase64: captchatest.PNGBase64},
			map[string]any{"type": "ImageToTextTask", "body": captchatest.PNGBase64}, false, false, 1},
		{"2captcha image case", two, captcha.SolveRequest{Type: "image", ImageBase64: captchatest.PNGBase64, CaseSensitive: true},
			map[string]any{"type": "ImageToTextTask", "body": captchatest.PNGBase64, "case": true}, false, false, 1},
		{"2captcha recaptcha v2", two, captcha.SolveRequest{Type: "recaptcha_v2", SiteKey: recaptchaKey, PageURL: pageURL},
			map[string]any{"type": "RecaptchaV2TaskProxyless", "websiteURL": pageURL, "websiteKey": recaptchaKey, "isInvisible": false}, true, false, 1},
		{"2captcha recaptcha v2 invisible", two, captcha.SolveRequest{Type: "recaptcha_v2", SiteKey: recaptchaKey, PageURL: pageURL, Invisible: true},
			map[string]any{"type": "RecaptchaV2TaskProxyless", "websiteURL": pageURL, "websiteKey": recaptchaKey, "isInvisible": true}, true, false, 1},
		{"2captcha recaptcha v3", two, captcha.SolveRequest{Type: "recaptcha_v3", SiteKey: recaptchaKey, PageURL: pageURL, Action: "login", MinScore: 0.5},
			map[string]any{"type": "RecaptchaV3TaskProxyless", "websiteURL": pageURL, "websiteKey": recaptchaKey, "minScore": 0.7, "pageAction": "login"}, true, false, 1},
		{"2captcha recaptcha v3 defaults", two, captcha.SolveRequest{Type: "recaptcha_v3", SiteKey: recaptchaKey, PageURL: pageURL},
			map[string]any{"type": "RecaptchaV3TaskProxyless", "websiteURL": pageURL, "websiteKey": recaptchaKey, "minScore": 0.3}, true, false, 1},
		{"2captcha hcaptcha", two, captcha.SolveRequest{Type: "hcaptcha", SiteKey: hcaptchaKey, PageURL: pageURL},
			map[string]any{"type": "HCaptchaTaskProxyless", "websiteURL": pageURL, "websiteKey": hcaptchaKey, "isInvisible": false}, true, true, 1},
		{"2captcha turnstile", two, captcha.SolveRequest{Type: "turnstile", SiteKey: turnstileKey, PageURL: pageURL, Action: "login"},
			map[string]any{"type": "TurnstileTaskProxyless", "websiteURL": pageURL, "websiteKey": turnstileKey, "action": "login"}, true, true, 1},
		{"capsolver image answered at creation", cs, captcha.SolveRequest{Type: "image", ImageBase64: captchatest.PNGBase64},
			map[string]any{"type": "ImageToTextTask", "body": captchatest.PNGBase64}, false, false, 0},
		{"capsolver image with page and case", cs, captcha.SolveRequest{Type: "image", ImageBase64: captchatest.PNGBase64, PageURL: pageURL, CaseSensitive: true},
			map[string]any{"type": "ImageToTextTask", "body": captchatest.PNGBase64, "websiteURL": pageURL, "case": true}, false, false, 0},
		{"capsolver recaptcha v2", cs, captcha.SolveRequest{Type: "recaptcha_v2", SiteKey: recaptchaKey, PageURL: pageURL, Invisible: true},
			map[string]any{"type": "ReCaptchaV2TaskProxyLess", "websiteURL": pageURL, "websiteKey": recaptchaKey, "isInvisible": true}, true, true, 1},
		{"capsolver recaptcha v3 takes no score", cs, captcha.SolveRequest{Type: "recaptcha_v3", SiteKey: recaptchaKey, PageURL: pageURL, Action: "submit", MinScore: 0.9},
			map[string]any{"type": "ReCaptchaV3TaskProxyLess", "websiteURL": pageURL, "websiteKey": recaptchaKey, "pageAction": "submit"}, true, true, 1},
		{"capsolver turnstile", cs, captcha.SolveRequest{Type: "turnstile", SiteKey: turnstileKey, PageURL: pageURL, Action: "login"},
			map[string]any{"type": "AntiTurnstileTaskProxyLess", "websiteURL": pageURL, "websiteKey": turnstileKey, "metadata": map[string]any{"action": "login"}}, true, true, 1},
		{"capsolver turnstile without action", cs, captcha.SolveRequest{Type: "turnstile", SiteKey: turnstileKey, PageURL: pageURL},
			map[string]any{"type": "AntiTurnstileTaskProxyLess", "websiteURL": pageURL, "websiteKey": turnstileKey}, true, true, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := fakes(t, tc.dialect, captchatest.Config{})
			c, _ := newClient(t, optionsFor(srv, tc.dialect))
			sol, err := c.Solve(context.Background(), tc.req)
			if err != nil {
				t.Fatal(err)
			}
			tasks := srv.Tasks()
			if len(tasks) != 1 {
				t.Fatalf("%d tasks created, want 1", len(tasks))
			}
			if got := plain(t, tasks[0]); !reflect.DeepEqual(got, tc.wantTask) {
				t.Errorf("task sent:\n %v\nwant\n %v", got, tc.wantTask)
			}
			for _, r := range srv.Requests() {
				if r.Body["clientKey"] != srv.Key() {
					t.Errorf("%s sent clientKey %v", r.Method, r.Body["clientKey"])
				}
			}
			if got := srv.Polls(); got != tc.wantPolls {
				t.Errorf("%d polls, want %d", got, tc.wantPolls)
			}
			if sol.Type != tc.req.Type || sol.Provider != string(tc.dialect) || sol.TaskID == "" {
				t.Errorf("solution %+v: wrong type, provider or task id", sol)
			}
			if tc.wantToken && (sol.Token != captchatest.DefaultToken || sol.Text != "") {
				t.Errorf("token %q text %q, want the token", sol.Token, sol.Text)
			}
			if !tc.wantToken && (sol.Text != captchatest.DefaultText || sol.Token != "") {
				t.Errorf("text %q token %q, want the text", sol.Text, sol.Token)
			}
			if tc.wantUA != (sol.UserAgent == captchatest.DefaultUserAgent) {
				t.Errorf("user agent %q", sol.UserAgent)
			}
		})
	}
}

// TestTaskIDSentBackAsReceived: 2Captcha's ids are numbers, CapSolver's
// strings, and getTaskResult must send them back in the same JSON type.
func TestTaskIDSentBackAsReceived(t *testing.T) {
	t.Parallel()
	for _, d := range []captchatest.Dialect{captchatest.TwoCaptcha, captchatest.CapSolver} {
		t.Run(string(d), func(t *testing.T) {
			t.Parallel()
			srv := fakes(t, d, captchatest.Config{})
			c, _ := newClient(t, optionsFor(srv, d))
			sol, err := c.Solve(context.Background(), captcha.SolveRequest{Type: "recaptcha_v2", SiteKey: recaptchaKey, PageURL: pageURL})
			if err != nil {
				t.Fatal(err)
			}
			reqs := srv.Requests()
			id := reqs[len(reqs)-1].Body["taskId"]
			_, isNumber := id.(json.Number)
			if isNumber != (d == captchatest.TwoCaptcha) {
				t.Errorf("taskId sent as %T", id)
			}
			if want := strings.Trim(string(mustJSON(t, id)), `"`); sol.TaskID != want {
				t.Errorf("task_id %q, want %q", sol.TaskID, want)
			}
		})
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestRouting checks which solver takes a request.
func TestRouting(t *testing.T) {
	t.Parallel()
	two := fakes(t, captchatest.TwoCaptcha, captchatest.Config{})
	cs := fakes(t, captchatest.CapSolver, captchatest.Config{})
	ocr := captcha.OCRFunc(func(context.Context, []byte) (string, error) { return "local text", nil })
	both, _ := newClient(t, captcha.Options{TwoCaptchaKey: two.Key(), TwoCaptchaURL: two.URL,
		CapSolverKey: cs.Key(), CapSolverURL: cs.URL, OCR: ocr})
	onlyCap, _ := newClient(t, captcha.Options{CapSolverKey: cs.Key(), CapSolverURL: cs.URL})
	onlyLocal, _ := newClient(t, captcha.Options{OCR: ocr})
	none, _ := newClient(t, captcha.Options{})
	image := captcha.SolveRequest{Type: "image", ImageBase64: captchatest.PNGBase64}
	v2 := captcha.SolveRequest{Type: "recaptcha_v2", SiteKey: recaptchaKey, PageURL: pageURL}
	hc := captcha.SolveRequest{Type: "hcaptcha", SiteKey: hcaptchaKey, PageURL: pageURL}
	with := func(r captcha.SolveRequest, provider string) captcha.SolveRequest { r.Provider = provider; return r }

	if got := both.Providers(); !reflect.DeepEqual(got, []string{"2captcha", "capsolver", "local"}) {
		t.Errorf("providers %v", got)
	}
	cases := []struct {
		name     string
		c        *captcha.Client
		req      captcha.SolveRequest
		provider string    // the solver that answers
		kind     errs.Kind // or the error
		field    string
		mentions []string
	}{
		{"first configured", both, v2, "2captcha", "", "", nil},
		{"remote before local for images", both, image, "2captcha", "", "", nil},
		{"named", both, with(v2, "capsolver"), "capsolver", "", "", nil},
		{"named local", both, with(image, "local"), "local", "", "", nil},
		{"hcaptcha skips capsolver", onlyCap, hc, "", errs.KindUnavailable, "", []string{"--twocaptcha-key", "WEBINFRA_TWOCAPTCHA_KEY", "hCaptcha"}},
		{"capsolver refuses hcaptcha", both, with(hc, "capsolver"), "", errs.KindInvalid, "provider", []string{"capsolver does not solve hcaptcha", "use 2captcha"}},
		{"local refuses tokens", both, with(v2, "local"), "", errs.KindInvalid, "provider", []string{"use 2captcha or capsolver"}},
		{"local only", onlyLocal, image, "local", "", "", nil},
		{"local only, no token solver", onlyLocal, v2, "", errs.KindUnavailable, "", []string{"--twocaptcha-key", "--capsolver-key", "WEBINFRA_CAPSOLVER_KEY"}},
		{"nothing configured", none, v2, "", errs.KindUnavailable, "", []string{"--twocaptcha-key (WEBINFRA_TWOCAPTCHA_KEY)", "--capsolver-key (WEBINFRA_CAPSOLVER_KEY)"}},
		{"nothing configured, image", none, image, "", errs.KindUnavailable, "", []string{"--twocaptcha-key", "--capsolver-key", "tesseract"}},
		{"named, not configured", onlyCap, with(v2, "2captcha"), "", errs.KindUnavailable, "", []string{"--twocaptcha-key", "WEBINFRA_TWOCAPTCHA_KEY"}},
		{"named local, not configured", onlyCap, with(image, "local"), "", errs.KindUnavailable, "", []string{"OCR"}},
		{"unknown provider", both, with(v2, "anticaptcha"), "", errs.KindInvalid, "provider", []string{"2captcha, capsolver, local"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			sol, err := tc.c.Solve(context.Background(), tc.req)
			if tc.kind == "" {
				if err != nil {
					t.Fatal(err)
				}
				if sol.Provider != tc.provider {
					t.Errorf("solved by %s, want %s", sol.Provider, tc.provider)
				}
				return
			}
			wantKind(t, err, tc.kind)
			if errs.FieldOf(err) != tc.field {
				t.Errorf("field %q, want %q", errs.FieldOf(err), tc.field)
			}
			for _, m := range tc.mentions {
				if !strings.Contains(err.Error(), m) {
					t.Errorf("%q does not mention %q", err, m)
				}
			}
		})
	}
}

func TestNewRefusesBadProviderURL(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		opts captcha.Options
		flag string
	}{
		{captcha.Options{TwoCaptchaKey: "k", TwoCaptchaURL: "api.2captcha.com"}, "--twocaptcha-url"},
		{captcha.Options{CapSolverKey: "k", CapSolverURL: "ftp://api.capsolver.com"}, "--capsolver-url"},
		{captcha.Options{CapSolverKey: "k", CapSolverURL: "https://user:pw@api.capsolver.com"}, "--capsolver-url"},
	} {
		_, err := captcha.New(nil, &tc.opts)
		wantKind(t, err, errs.KindInvalid)
		if errs.FieldOf(err) != tc.flag {
			t.Errorf("field %q, want %q", errs.FieldOf(err), tc.flag)
		}
	}
}

func TestNewRefusesDuplicateSolverNames(t *testing.T) {
	t.Parallel()
	_, err := captcha.New(nil, &captcha.Options{OCR: captcha.OCRFunc(nil), Solvers: []captcha.Solver{captcha.NewLocal(nil, nil)}})
	wantKind(t, err, errs.KindInvalid)
}

// TestSolveMeasuresTime uses the injected clock.
func TestSolveMeasuresTime(t *testing.T) {
	t.Parallel()
	srv := fakes(t, captchatest.TwoCaptcha, captchatest.Config{})
	start := time.Date(2024, 7, 1, 0, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	calls := 0
	opts := optionsFor(srv, captchatest.TwoCaptcha)
	opts.Now = func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		calls++
		return start.Add(time.Duration(calls-1) * 1234567 * time.Microsecond)
	}
	c, _ := newClient(t, opts)
	sol, err := c.Solve(context.Background(), captcha.SolveRequest{Type: "turnstile", SiteKey: turnstileKey, PageURL: pageURL})
	if err != nil {
		t.Fatal(err)
	}
	if sol.TimeMS != 1234.57 {
		t.Errorf("time_ms %v, want 1234.57", sol.TimeMS)
	}
}
