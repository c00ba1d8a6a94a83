package server

import (
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/danielgtaylor/huma/v2"
)

// The error answers of the OpenAPI document are derived from the catalog:
// each Operation's fields (Public, Unlimited, FullScope, Outbound, Price,
// Built, Method) and the shape of its input say which refusals of the
// pipeline (pipeline.go, idempotency.go, scope.go) can reach it. No
// operation lists its statuses by hand; the few answers only a handler
// gives are declared beside it (answers, operations.go).

// inputShape is what an operation's request carries, read from its huma
// input type.
type inputShape struct {
	body   bool // a request body (huma's Body field)
	path   bool // path parameters: a lookup that may find nothing
	params bool // path, query or header parameters huma validates
}

func shapeOf[I any]() inputShape { return shapeOfType(reflect.TypeFor[I]()) }

func shapeOfType(t reflect.Type) inputShape {
	var s inputShape
	for i := range t.NumField() {
		f := t.Field(i)
		switch {
		case f.Anonymous && f.Type.Kind() == reflect.Struct:
			e := shapeOfType(f.Type)
			s = inputShape{body: s.body || e.body, path: s.path || e.path, params: s.params || e.params}
		case f.Name == "Body":
			s.body = true
		case f.Tag.Get("path") != "":
			s.path, s.params = true, true
		case f.Tag.Get("query") != "" || f.Tag.Get("header") != "":
			s.params = true
		}
	}
	return s
}

// refusal is one reason an operation answers a 4xx status.
type refusal struct {
	status int
	why    string
}

// answer declares a 4xx answer that o's handler gives and its fields do
// not imply (sign-up's 409 for a taken e-mail).
func answer(status int, why string, o Operation) Operation {
	o.answers = append(o.answers, refusal{status, why})
	return o
}

// refusals are the 4xx answers o's calls can get, in pipeline order.
func (o *Operation) refusals(maxBody int64) []refusal {
	r := []refusal{
		{http.StatusBadRequest, "the request body did not arrive in time or could not be read"},
		{http.StatusRequestEntityTooLarge, "the request body is over " + strconv.FormatInt(maxBody, 10) + " bytes"},
	}
	switch {
	case !o.Public:
		r = append(r,
			refusal{http.StatusBadRequest, "more than one Authorization header"},
			refusal{http.StatusUnauthorized, "the API key is missing, malformed, unknown or revoked, or the dashboard session expired"},
			refusal{http.StatusTooManyRequests, "a failed authentication spent the client address's per-minute limit"})
		if !o.Unlimited {
			r = append(r, refusal{http.StatusTooManyRequests, "the account's per-minute rate limit"})
		}
	case !o.Unlimited:
		r = append(r, refusal{http.StatusTooManyRequests, "the client address's per-minute rate limit"})
	}
	if o.FullScope {
		r = append(r, refusal{http.StatusForbidden, "the key has scope api; this operation needs a key of scope full"})
	}
	if o.Billable() {
		r = append(r,
			refusal{http.StatusPaymentRequired, "the account has too few credits for this call"},
			refusal{http.StatusTooManyRequests, "the plan's monthly request quota or the key's daily credit cap is spent"})
	}
	if !o.Public && o.Method != http.MethodGet && o.Method != http.MethodHead {
		r = append(r,
			refusal{http.StatusConflict, "a request with this Idempotency-Key is still running, or its answer was not kept"},
			refusal{http.StatusUnprocessableEntity, "the Idempotency-Key is malformed or was sent with a different request"})
	}
	if o.in.body {
		r = append(r,
			refusal{http.StatusBadRequest, "the body is not JSON, or is missing"},
			refusal{http.StatusUnsupportedMediaType, "the Content-Type is not JSON"},
			refusal{http.StatusUnprocessableEntity, "the body is invalid: errors[] names each field"})
	}
	if o.in.params {
		r = append(r, refusal{http.StatusUnprocessableEntity, "a parameter is invalid: errors[] names it"})
	}
	if o.Built && o.in.path {
		r = append(r, refusal{http.StatusNotFound, "this account has no such resource"})
	}
	if o.Outbound {
		r = append(r, refusal{http.StatusForbidden, "the URL is refused: a private, loopback or metadata address, or a page robots.txt disallows"})
	}
	return append(r, o.answers...)
}

// errorResponses documents o's error answers, all with the problem body:
// each 4xx status with its reasons, 501 while the capability is not built,
// and the rest (5xx) as default.
func (o *Operation) errorResponses(problem *huma.Schema, maxBody int64) map[string]*huma.Response {
	whys := map[int][]string{}
	for _, r := range o.refusals(maxBody) {
		if !slices.Contains(whys[r.status], r.why) {
			whys[r.status] = append(whys[r.status], r.why)
		}
	}
	out := map[string]*huma.Response{}
	for status, list := range whys {
		out[strconv.Itoa(status)] = problemResponse(problem, http.StatusText(status)+": "+strings.Join(list, "; ")+".")
	}
	if limited := out["429"]; limited != nil {
		limited.Headers = map[string]*huma.Param{"Retry-After": {
			Description: "Seconds to wait before trying again.",
			Schema:      &huma.Schema{Type: "integer", Minimum: &oneSecond},
		}}
	}
	if !o.Built {
		out["501"] = problemResponse(problem, "Not Implemented: this server does not have the capability yet; nothing is charged.")
	}
	out["default"] = problemResponse(problem, "Any other error: internal (500), upstream (502), unavailable (503), timed out (504).")
	return out
}

// problemSchema registers the error body's schema, its kind listing every
// kind the server maps to a status (statusOf).
func problemSchema(reg huma.Registry) *huma.Schema {
	ref := reg.Schema(reflect.TypeFor[problem](), true, "Problem")
	if kind := reg.SchemaFromRef(ref.Ref).Properties["kind"]; kind != nil && kind.Enum == nil {
		for k := range statusOf {
			kind.Enum = append(kind.Enum, string(k))
		}
		slices.SortFunc(kind.Enum, func(a, b any) int { return strings.Compare(a.(string), b.(string)) })
	}
	return ref
}

func problemResponse(problem *huma.Schema, description string) *huma.Response {
	return &huma.Response{Description: description, Content: map[string]*huma.MediaType{"application/json": {Schema: problem}}}
}

var oneSecond = 1.0 // Retry-After's minimum
