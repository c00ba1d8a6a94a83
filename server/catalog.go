package server

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/webinfra/webinfra/billing"
)

// Operation is one endpoint of the catalog. The catalog (operations.go) is
// the only list of endpoints: routes, the OpenAPI document, the cost table
// and cost estimates all read it.
type Operation struct {
	ID          string // OpenAPI operationId
	Method      string
	Path        string // huma / net/http pattern, e.g. /v1/keys/{key_id}
	Tag         string
	Summary     string
	Description string
	Price       billing.Price // zero Credits: free and unmetered
	Public      bool          // no API key needed (sign-up, login, health)
	Unlimited   bool          // not counted by the rate limiter (cost-estimate, health)
	Built       bool          // false: the capability is not built yet and answers 501
	CarriesPage bool          // the body may hold a whole page: Options.MaxPageBytes applies
	FullScope   bool          // only keys of scope full may call it (fullScope)
	Tool        string        // MCP tool name of a free operation agents need (get_job); built billable operations are tools under their ID
	Outbound    bool          // the call contacts a URL its body names (a page, a webhook): the network guard or robots.txt may refuse it (403)

	// Versioning (SPEC §9, versioning.go). A deprecated route answers
	// Deprecation, Sunset and Link headers and is deprecated in OpenAPI.
	Deprecation time.Time // zero: not deprecated; else deprecated since (or from) then
	Sunset      time.Time // when the route goes away; needs Deprecation
	Successor   string    // the route that replaces it: an absolute URL or a path such as /v2/scrape; needs Deprecation

	register func(api huma.API, op huma.Operation)
	inspect  func(body []byte) callTraits
	in       inputShape // what the request carries (openapi.go)
	answers  []refusal  // 4xx answers of the handler that the fields above do not imply (openapi.go)
}

// Billable reports whether calls of the operation cost credits.
func (o *Operation) Billable() bool { return o.Price.Credits > 0 }

// callTraits are what the pricing and the usage log need from a request
// body: how many priced items it asks for, whether it wants the residential
// proxy, and the URL it targets.
type callTraits struct {
	items       int
	residential bool
	url         string
}

// Optional methods of request bodies, read by inspectBody.
type (
	creditItemer         interface{ CreditItems() int }
	residentialProxyUser interface{ UsesResidentialProxy() bool }
	targetURLer          interface{ TargetURL() string }
)

type bodyInput[B any] struct {
	Body B
}

type bodyOutput[O any] struct {
	Body *O
}

func reply[O any](o *O) *bodyOutput[O] { return &bodyOutput[O]{Body: o} }

// jsonOp declares an operation whose request is the JSON body B and whose
// response is the JSON body O.
func jsonOp[B, O any](o Operation, h func(context.Context, *B) (*O, error)) Operation {
	o.Built = true
	o.in = shapeOf[bodyInput[B]]()
	o.register = func(api huma.API, hop huma.Operation) {
		huma.Register(api, hop, func(ctx context.Context, in *bodyInput[B]) (*bodyOutput[O], error) {
			out, err := h(ctx, &in.Body)
			if err != nil {
				return nil, err
			}
			return reply(out), nil
		})
	}
	if hasTraits[B]() {
		o.inspect = inspectBody[B]
	}
	return o
}

// paramOp declares an operation with a huma input struct I (path and query
// parameters, optionally a Body) and a huma output struct O.
func paramOp[I, O any](o Operation, h func(context.Context, *I) (*O, error)) Operation {
	o.Built = true
	o.in = shapeOf[I]()
	o.register = func(api huma.API, hop huma.Operation) { huma.Register(api, hop, h) }
	return o
}

func inspectBody[B any](body []byte) callTraits {
	var b B
	var t callTraits
	if len(body) == 0 || json.Unmarshal(body, &b) != nil {
		return t
	}
	if v, ok := any(&b).(creditItemer); ok {
		t.items = v.CreditItems()
	}
	if v, ok := any(&b).(residentialProxyUser); ok {
		t.residential = v.UsesResidentialProxy()
	}
	if v, ok := any(&b).(targetURLer); ok {
		t.url = v.TargetURL()
	}
	return t
}

// hasTraits reports whether decoding B can tell anything, so bodies of
// other operations are not decoded twice.
func hasTraits[B any]() bool {
	var b B
	_, a := any(&b).(creditItemer)
	_, r := any(&b).(residentialProxyUser)
	_, u := any(&b).(targetURLer)
	return a || r || u
}

// humaOperation is the OpenAPI side of o. problem is the schema of the
// error body; every error answer is documented with it (openapi.go).
func (o *Operation) humaOperation(maxBody int64, problem *huma.Schema) huma.Operation {
	hop := huma.Operation{
		OperationID:  o.ID,
		Method:       o.Method,
		Path:         o.Path,
		Tags:         []string{o.Tag},
		Summary:      o.Summary,
		Description:  o.Description,
		MaxBodyBytes: maxBody,
		// The pipeline reads the body under its own deadline and clears it
		// (readBodyInTime). huma's default, 5 s, sets a read deadline that
		// is never lifted: when it fires, Go's background read cancels the
		// request context, killing every call that runs longer than 5 s.
		BodyReadTimeout: -1,
		Extensions:      map[string]any{"x-credits-cost": o.Price.Credits, "x-credits-per-item": o.Price.PerItem},
		Responses:       o.errorResponses(problem, maxBody),
		Security:        []map[string][]string{}, // public: no key
	}
	if !o.Public {
		hop.Security = []map[string][]string{{"bearer": {}}}
		hop.Extensions["x-required-scope"] = o.requiredScope()
	}
	if o.deprecated() {
		hop.Deprecated = true
		hop.Description = strings.TrimSpace(hop.Description + " " + o.deprecationNote())
	}
	return hop
}
