package billing

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/webinfra/webinfra/errs"
)

// Config holds the plans and the limits that do not belong to one plan.
// The same struct is the JSON schema of the config file (see LoadConfig).
type Config struct {
	// DefaultPlan is the plan a new account starts on; it must name a plan.
	DefaultPlan string `json:"default_plan"`
	// Plans are keyed by name.
	Plans map[string]Plan `json:"plans"`
	// ResidentialSurcharge is added to a call's cost when it uses the
	// residential-proxy tier.
	ResidentialSurcharge int64 `json:"residential_surcharge"`
	// AnonymousRequestsPerMinute limits unauthenticated routes per client IP.
	AnonymousRequestsPerMinute int `json:"anonymous_requests_per_minute"`
	// Limits bound what one caller can make the server spend.
	Limits Limits `json:"limits"`
}

// DefaultConfig returns the built-in configuration: plans free (1,000
// credits, 60 requests a minute, 5,000 a month), pro (50,000 credits, 600 a
// minute, 500,000 a month) and internal (bypass, 6,000 a minute, no monthly
// quota); new accounts start on free; the residential surcharge is 2 credits;
// anonymous callers get 60 requests a minute per IP; limits are
// DefaultLimits.
// Each call returns a fresh map, so callers may change it.
func DefaultConfig() Config {
	return Config{
		DefaultPlan: PlanFree,
		Plans: map[string]Plan{
			PlanFree:     {Name: PlanFree, Credits: 1_000, RequestsPerMinute: 60, MonthlyRequests: 5_000},
			PlanPro:      {Name: PlanPro, Credits: 50_000, RequestsPerMinute: 600, MonthlyRequests: 500_000},
			PlanInternal: {Name: PlanInternal, Bypass: true, RequestsPerMinute: 6_000},
		},
		ResidentialSurcharge:       2,
		AnonymousRequestsPerMinute: 60,
		Limits:                     DefaultLimits(),
	}
}

// LoadConfig reads the JSON file at path and merges it over DefaultConfig:
// each plan in the file replaces or adds the plan of that name as a whole
// (a plan's "name" may be omitted; it is taken from its key), and top-level
// fields that are absent or zero keep their defaults. Unknown fields,
// trailing data and invalid values are errs.KindInvalid errors; validation
// errors name the field, e.g. "plans.free.requests_per_minute".
func LoadConfig(path string) (Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Config{}, errs.Wrap(errs.KindInvalid, err, "billing config")
	}
	cfg, err := parseConfig(data)
	if err != nil {
		return Config{}, fmt.Errorf("billing config %s: %w", path, err)
	}
	return cfg, nil
}

// parseConfig decodes data strictly and merges it over the defaults.
func parseConfig(data []byte) (Config, error) {
	var file Config
	if err := decodeStrict(data, &file, ""); err != nil {
		return Config{}, planDecodeError(data, err)
	}
	cfg := DefaultConfig().merge(file)
	if err := cfg.Validate(); err != nil {
		return Config{}, err
	}
	return cfg, nil
}

// decodeStrict decodes the one JSON value in data into v, refusing unknown
// fields and trailing data. Errors are errs.KindInvalid, naming the field
// (prefixed with prefix) when the decoder says which one.
func decodeStrict(data []byte, v any, prefix string) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) && typeErr.Field != "" {
			return &errs.Error{Kind: errs.KindInvalid, Field: prefix + typeErr.Field,
				Message: "wrong type: want " + typeErr.Type.String(), Err: err}
		}
		if field, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
			return &errs.Error{Kind: errs.KindInvalid, Field: prefix + strings.Trim(field, `"`),
				Message: "unknown field", Err: err}
		}
		return errs.Wrap(errs.KindInvalid, err, "not valid JSON")
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return errs.New(errs.KindInvalid, "unexpected data after the JSON value")
	}
	return nil
}

// planDecodeError improves err, the failure to decode a whole config file,
// by decoding the plans one by one: the decoder does not put map keys in
// field paths, so this is how an error comes to name plans.<name>.<field>.
func planDecodeError(data []byte, err error) error {
	var file struct {
		Plans map[string]json.RawMessage `json:"plans"`
	}
	if json.Unmarshal(data, &file) != nil {
		return err
	}
	for _, name := range slices.Sorted(maps.Keys(file.Plans)) {
		var p Plan
		if planErr := decodeStrict(file.Plans[name], &p, "plans."+name+"."); planErr != nil {
			return planErr
		}
	}
	return err
}

// merge returns c with the non-zero fields of over applied on top; plans
// are replaced or added by name, with an empty Name set to the key.
func (c Config) merge(over Config) Config {
	c.Plans = maps.Clone(c.Plans)
	if c.Plans == nil {
		c.Plans = make(map[string]Plan, len(over.Plans))
	}
	for key, p := range over.Plans {
		if p.Name == "" {
			p.Name = key
		}
		c.Plans[key] = p
	}
	if over.DefaultPlan != "" {
		c.DefaultPlan = over.DefaultPlan
	}
	if over.ResidentialSurcharge != 0 {
		c.ResidentialSurcharge = over.ResidentialSurcharge
	}
	if over.AnonymousRequestsPerMinute != 0 {
		c.AnonymousRequestsPerMinute = over.AnonymousRequestsPerMinute
	}
	c.Limits = c.Limits.merge(over.Limits)
	return c
}

// Validate reports every problem in c, joined with errors.Join; each is an
// errs.KindInvalid error naming its field (errs.FieldOf gives the first).
// Plans are checked in name order, so the result is deterministic.
func (c Config) Validate() error {
	var problems []error
	if len(c.Plans) == 0 {
		problems = append(problems, errs.Invalid("plans", "must hold at least one plan"))
	}
	for _, name := range c.PlanNames() {
		problems = append(problems, c.Plans[name].validate(name)...)
	}
	switch _, ok := c.Plans[c.DefaultPlan]; {
	case c.DefaultPlan == "":
		problems = append(problems, errs.Invalid("default_plan", "must name a plan"))
	case !ok:
		problems = append(problems, errs.Invalid("default_plan", "must name a plan; %q is not one of: %s",
			c.DefaultPlan, strings.Join(c.PlanNames(), ", ")))
	}
	if c.ResidentialSurcharge < 0 {
		problems = append(problems, errs.Invalid("residential_surcharge", "must be >= 0, not %d", c.ResidentialSurcharge))
	}
	if c.AnonymousRequestsPerMinute <= 0 {
		problems = append(problems, errs.Invalid("anonymous_requests_per_minute", "must be > 0, not %d", c.AnonymousRequestsPerMinute))
	}
	problems = append(problems, c.Limits.validate())
	return errors.Join(problems...)
}
