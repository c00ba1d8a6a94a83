package billing_test

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/webinfra/webinfra/billing"
	"github.com/webinfra/webinfra/errs"
)

func TestDefaultConfig(t *testing.T) {
	t.Parallel()
	cfg := billing.DefaultConfig()
	if err := cfg.Validate(); err != nil {
		t.Fatalf("DefaultConfig().Validate() = %v", err)
	}
	want := map[string]billing.Plan{
		"free":     {Name: "free", Credits: 1000, RequestsPerMinute: 60, MonthlyRequests: 5000},
		"pro":      {Name: "pro", Credits: 50000, RequestsPerMinute: 600, MonthlyRequests: 500000},
		"internal": {Name: "internal", Bypass: true, RequestsPerMinute: 6000},
	}
	if !reflect.DeepEqual(cfg.Plans, want) {
		t.Errorf("plans = %+v, want %+v", cfg.Plans, want)
	}
	if cfg.DefaultPlan != "free" || cfg.ResidentialSurcharge != 2 || cfg.AnonymousRequestsPerMinute != 60 {
		t.Errorf("top-level defaults = %+v", cfg)
	}

	// Each call owns its map.
	cfg.Plans["free"] = billing.Plan{}
	if billing.DefaultConfig().Plans["free"].Credits != 1000 {
		t.Error("changing one DefaultConfig changed the next")
	}
}

func TestConfigPlan(t *testing.T) {
	t.Parallel()
	cfg := billing.DefaultConfig()
	cfg.Plans["team"] = billing.Plan{RequestsPerMinute: 120} // Name left empty
	tests := []struct {
		name     string
		wantKind errs.Kind
		want     billing.Plan
	}{
		{name: "free", want: cfg.Plans["free"]},
		{name: "internal", want: cfg.Plans["internal"]},
		{name: "team", want: billing.Plan{Name: "team", RequestsPerMinute: 120}},
		{name: "gold", wantKind: errs.KindNotFound},
		{name: "", wantKind: errs.KindNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := cfg.Plan(tt.name)
			if tt.wantKind != "" {
				if !errs.Is(err, tt.wantKind) {
					t.Fatalf("Plan(%q) error = %v, want kind %s", tt.name, err, tt.wantKind)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("Plan(%q) = %+v, %v; want %+v", tt.name, got, err, tt.want)
			}
		})
	}
}

func TestLoadConfig(t *testing.T) {
	t.Parallel()
	defaults := billing.DefaultConfig()
	tests := []struct {
		name string
		json string
		// check inspects a successful load; nil when an error is expected.
		check     func(t *testing.T, cfg billing.Config)
		wantField string // the field the error names; "-" for none
	}{
		{
			name: "empty object keeps defaults",
			json: `{}`,
			check: func(t *testing.T, cfg billing.Config) {
				if !reflect.DeepEqual(cfg, defaults) {
					t.Errorf("got %+v, want defaults", cfg)
				}
			},
		},
		{
			name: "plans replace and add by name",
			json: `{"default_plan": "team", "plans": {
				"pro":  {"credits": 70000, "requests_per_minute": 900},
				"team": {"name": "team", "credits": 10, "requests_per_minute": 120, "monthly_requests": 9}}}`,
			check: func(t *testing.T, cfg billing.Config) {
				want := map[string]billing.Plan{
					"free":     defaults.Plans["free"],
					"internal": defaults.Plans["internal"],
					"pro":      {Name: "pro", Credits: 70000, RequestsPerMinute: 900}, // replaced whole
					"team":     {Name: "team", Credits: 10, RequestsPerMinute: 120, MonthlyRequests: 9},
				}
				if !reflect.DeepEqual(cfg.Plans, want) {
					t.Errorf("plans = %+v, want %+v", cfg.Plans, want)
				}
				if cfg.DefaultPlan != "team" {
					t.Errorf("default_plan = %q", cfg.DefaultPlan)
				}
			},
		},
		{
			name: "top-level numbers override, zero keeps default",
			json: `{"residential_surcharge": 5, "anonymous_requests_per_minute": 0}`,
			check: func(t *testing.T, cfg billing.Config) {
				if cfg.ResidentialSurcharge != 5 || cfg.AnonymousRequestsPerMinute != 60 {
					t.Errorf("got surcharge %d, anonymous %d", cfg.ResidentialSurcharge, cfg.AnonymousRequestsPerMinute)
				}
			},
		},
		{name: "unknown top-level field", json: `{"extra": 1}`, wantField: "extra"},
		{name: "unknown plan field", json: `{"plans": {"free": {"requests_per_minute": 1, "colour": "red"}}}`, wantField: "plans.free.colour"},
		{name: "partial plan", json: `{"plans": {"free": {"credits": 2000}}}`, wantField: "plans.free.requests_per_minute"},
		{name: "negative credits", json: `{"plans": {"pro": {"credits": -1, "requests_per_minute": 1}}}`, wantField: "plans.pro.credits"},
		{name: "negative monthly", json: `{"plans": {"pro": {"monthly_requests": -1, "requests_per_minute": 1}}}`, wantField: "plans.pro.monthly_requests"},
		{name: "name differs from key", json: `{"plans": {"pro": {"name": "gold", "requests_per_minute": 1}}}`, wantField: "plans.pro.name"},
		{name: "empty plan key", json: `{"plans": {"": {"requests_per_minute": 1}}}`, wantField: "plans"},
		{name: "unknown default plan", json: `{"default_plan": "gold"}`, wantField: "default_plan"},
		{name: "negative surcharge", json: `{"residential_surcharge": -2}`, wantField: "residential_surcharge"},
		{name: "negative anonymous limit", json: `{"anonymous_requests_per_minute": -1}`, wantField: "anonymous_requests_per_minute"},
		{name: "wrong type", json: `{"plans": {"free": {"credits": "lots"}}}`, wantField: "plans.free.credits"},
		{name: "plans not an object", json: `{"plans": []}`, wantField: "plans"},
		{name: "trailing data", json: `{} {}`, wantField: "-"},
		{name: "not JSON", json: `plans: free`, wantField: "-"},
		{name: "empty file", json: ``, wantField: "-"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "billing.json")
			if err := os.WriteFile(path, []byte(tt.json), 0o600); err != nil {
				t.Fatal(err)
			}
			cfg, err := billing.LoadConfig(path)
			if tt.check != nil {
				if err != nil {
					t.Fatalf("LoadConfig: %v", err)
				}
				tt.check(t, cfg)
				return
			}
			if !errs.Is(err, errs.KindInvalid) {
				t.Fatalf("LoadConfig error = %v, want kind invalid", err)
			}
			wantField := strings.TrimPrefix(tt.wantField, "-")
			if got := errs.FieldOf(err); got != wantField {
				t.Errorf("field = %q, want %q (error: %v)", got, wantField, err)
			}
			if !strings.Contains(err.Error(), path) {
				t.Errorf("error %q does not name the file", err)
			}
		})
	}
}

func TestLoadConfigMissingFile(t *testing.T) {
	t.Parallel()
	_, err := billing.LoadConfig(filepath.Join(t.TempDir(), "absent.json"))
	if !errs.Is(err, errs.KindInvalid) || !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("error = %v, want invalid wrapping os.ErrNotExist", err)
	}
}

func TestValidateReportsEveryProblem(t *testing.T) {
	t.Parallel()
	cfg := billing.Config{
		DefaultPlan:          "gold",
		Plans:                map[string]billing.Plan{"b": {}, "a": {Credits: -1, RequestsPerMinute: 1}},
		ResidentialSurcharge: -1,
	}
	err := cfg.Validate()
	joined, ok := err.(interface{ Unwrap() []error })
	if !ok {
		t.Fatalf("Validate() = %v, want joined errors", err)
	}
	var fields []string
	for _, e := range joined.Unwrap() {
		fields = append(fields, errs.FieldOf(e))
	}
	want := []string{
		"plans.a.credits",
		"plans.b.requests_per_minute",
		"default_plan",
		"residential_surcharge",
		"anonymous_requests_per_minute",
	}
	if !reflect.DeepEqual(fields, want) {
		t.Errorf("fields = %q, want %q\n%v", fields, want, err)
	}
	if got := errs.FieldOf(err); got != want[0] {
		t.Errorf("FieldOf = %q, want the first, %q", got, want[0])
	}

	if err := (billing.Config{}).Validate(); errs.FieldOf(err) != "plans" {
		t.Errorf("zero Config: %v, want the plans field named first", err)
	}
}

func TestLimitsMergeAndValidate(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "config.json")
	if err := os.WriteFile(path, []byte(`{"limits": {"max_connections_per_ip": 8, "llm_ready_max_chunks": 100}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := billing.LoadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	want := billing.DefaultLimits()
	want.MaxConnectionsPerIP, want.LLMReadyMaxChunks = 8, 100
	if cfg.Limits != want {
		t.Errorf("limits = %+v, want %+v", cfg.Limits, want)
	}
	if got := (billing.Limits{BodyReadSeconds: 5}).OrDefaults().BodyReadSeconds; got != 5 {
		t.Errorf("OrDefaults kept body_read_seconds = %d, want 5", got)
	}
	if got := (billing.Limits{}).OrDefaults(); got != billing.DefaultLimits() {
		t.Errorf("zero limits OrDefaults = %+v", got)
	}

	if err := os.WriteFile(path, []byte(`{"limits": {"max_connections_per_ip": -1}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := billing.LoadConfig(path); errs.FieldOf(err) != "limits.max_connections_per_ip" {
		t.Errorf("negative limit: %v, want limits.max_connections_per_ip named", err)
	}
	if err := os.WriteFile(path, []byte(`{"limits": {"max_conns": 1}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := billing.LoadConfig(path); err == nil || !strings.Contains(err.Error(), "max_conns") {
		t.Errorf("unknown limit: %v, want it named", err)
	}
}

func TestPlanCaps(t *testing.T) {
	t.Parallel()
	if got := (billing.Plan{}).CrawlRatePerHostCap(); got != billing.DefaultMaxCrawlRatePerHost {
		t.Errorf("default crawl cap = %v", got)
	}
	if got := (billing.Plan{MaxCrawlRatePerHost: 50}).CrawlRatePerHostCap(); got != 50 {
		t.Errorf("crawl cap = %v, want 50", got)
	}
	if got := (billing.Plan{}).WebhookTestCap(); got != billing.DefaultWebhookTestsPerHour {
		t.Errorf("default webhook test cap = %v", got)
	}
	if err := (billing.Config{DefaultPlan: "a", AnonymousRequestsPerMinute: 1,
		Plans: map[string]billing.Plan{"a": {RequestsPerMinute: 1, MaxCrawlRatePerHost: -1}}}).Validate(); errs.FieldOf(err) != "plans.a.max_crawl_rate_per_host" {
		t.Errorf("negative crawl cap: %v", err)
	}
}
