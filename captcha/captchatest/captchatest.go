package captchatest

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
)

// Dialect picks the provider a Server imitates.
type Dialect string

// The dialects a Server speaks.
const (
	TwoCaptcha Dialect = "2captcha"  // numeric taskId; every task answered through getTaskResult
	CapSolver  Dialect = "capsolver" // string taskId; ImageToTextTask answered in createTask; no hCaptcha
)

// The defaults of zero Config fields.
const (
	DefaultKey       = "test-client-key-0123456789abcdef"
	DefaultToken     = "03AFcWeA-fake-token"
	DefaultText      = "W68HP"
	DefaultUserAgent = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36"
)

// Config sets how a Server answers. The zero value answers every task
// ready at the first getTaskResult.
type Config struct {
	// Key is the only clientKey accepted; others get the dialect's
	// key error. Empty: DefaultKey.
	Key string
	// Pending is how many getTaskResult calls answer "processing"
	// before the task is ready.
	Pending int
	// NeverReady keeps every task "processing".
	NeverReady bool
	// CreateError is an errorCode createTask answers, e.g.
	// "ERROR_ZERO_BALANCE".
	CreateError string
	// ResultError is an errorCode getTaskResult answers once the task
	// would be ready, e.g. "ERROR_CAPTCHA_UNSOLVABLE".
	ResultError string
	// Description is the errorDescription of CreateError and ResultError,
	// with "{key}" replaced by the clientKey received (a provider that
	// echoes the key); empty: a stock description.
	Description string
	// Token, Text and UserAgent are the solution; empty: the defaults.
	Token, Text, UserAgent string
}

// Request is one call the Server received.
type Request struct {
	Method string         // "createTask" or "getTaskResult"
	Body   map[string]any // the JSON body (numbers as json.Number)
}

// Server is a fake provider on loopback. Close it when done.
type Server struct {
	*httptest.Server
	dialect Dialect
	cfg     Config

	mu       sync.Mutex
	requests []Request
	tasks    map[string]*task // by taskId as sent (JSON)
	next     int
}

// task is a created task's state.
type task struct {
	kind  string // "image", "recaptcha", "hcaptcha", "turnstile"
	polls int
}

// NewServer starts a fake provider of the given dialect.
func NewServer(d Dialect, cfg Config) *Server {
	if cfg.Key == "" {
		cfg.Key = DefaultKey
	}
	if cfg.Token == "" {
		cfg.Token = DefaultToken
	}
	if cfg.Text == "" {
		cfg.Text = DefaultText
	}
	if cfg.UserAgent == "" {
		cfg.UserAgent = DefaultUserAgent
	}
	s := &Server{dialect: d, cfg: cfg, tasks: map[string]*task{}}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// Key is the clientKey the server accepts.
func (s *Server) Key() string { return s.cfg.Key }

// Requests returns the calls received so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Tasks returns the task objects createTask received, in order.
func (s *Server) Tasks() []map[string]any {
	var out []map[string]any
	for _, r := range s.Requests() {
		if t, ok := r.Body["task"].(map[string]any); ok && r.Method == "createTask" {
			out = append(out, t)
		}
	}
	return out
}

// Polls counts the getTaskResult calls received.
func (s *Server) Polls() int {
	n := 0
	for _, r := range s.Requests() {
		if r.Method == "getTaskResult" {
			n++
		}
	}
	return n
}

// taskKinds maps each dialect's proxyless task types to a kind.
var taskKinds = map[Dialect]map[string]string{
	TwoCaptcha: {
		"ImageToTextTask":          "image",
		"RecaptchaV2TaskProxyless": "recaptcha",
		"RecaptchaV3TaskProxyless": "recaptcha",
		"HCaptchaTaskProxyless":    "hcaptcha",
		"TurnstileTaskProxyless":   "turnstile",
	},
	CapSolver: {
		"ImageToTextTask":            "image",
		"ReCaptchaV2TaskProxyLess":   "recaptcha",
		"ReCaptchaV3TaskProxyLess":   "recaptcha",
		"AntiTurnstileTaskProxyLess": "turnstile",
	},
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	method := r.URL.Path[strings.LastIndex(r.URL.Path, "/")+1:]
	if r.Method != http.MethodPost || (method != "createTask" && method != "getTaskResult") {
		http.NotFound(w, r)
		return
	}
	dec := json.NewDecoder(io.LimitReader(r.Body, 4<<20))
	dec.UseNumber()
	var body map[string]any
	if err := dec.Decode(&body); err != nil {
		s.fail(w, "ERROR_BAD_PARAMETERS", "request body is not JSON", "")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, Request{Method: method, Body: body})
	key, _ := body["clientKey"].(string)
	if key != s.cfg.Key {
		s.fail(w, s.keyError(), "", key)
		return
	}
	if method == "createTask" {
		s.create(w, body, key)
		return
	}
	s.result(w, body, key)
}

// create answers createTask.
func (s *Server) create(w http.ResponseWriter, body map[string]any, key string) {
	if s.cfg.CreateError != "" {
		s.fail(w, s.cfg.CreateError, s.cfg.Description, key)
		return
	}
	t, _ := body["task"].(map[string]any)
	typ, _ := t["type"].(string)
	kind, ok := taskKinds[s.dialect][typ]
	if !ok {
		s.fail(w, "ERROR_TASK_NOT_SUPPORTED", "task type "+typ+" is not supported", "")
		return
	}
	if msg := checkTask(kind, typ, t); msg != "" {
		s.fail(w, s.badTaskError(), msg, "")
		return
	}
	s.next++
	var id any = 72345678900 + s.next
	if s.dialect == CapSolver {
		id = fmt.Sprintf("7c1e1d3a-7e8f-4d4f-8e5d-%012d", s.next)
	}
	idJSON, _ := json.Marshal(id)
	s.tasks[string(idJSON)] = &task{kind: kind}
	if s.dialect == CapSolver && kind == "image" {
		writeJSON(w, map[string]any{"errorId": 0, "errorCode": "", "errorDescription": "", "status": "ready",
			"solution": map[string]any{"text": s.cfg.Text}, "taskId": id})
		return
	}
	writeJSON(w, map[string]any{"errorId": 0, "taskId": id})
}

// checkTask refuses a task without the fields the real API requires.
func checkTask(kind, typ string, t map[string]any) string {
	if kind == "image" {
		b, _ := t["body"].(string)
		if _, err := base64.StdEncoding.DecodeString(b); err != nil || b == "" {
			return "body must be the image in standard base64"
		}
		return ""
	}
	for _, f := range []string{"websiteURL", "websiteKey"} {
		if v, _ := t[f].(string); v == "" {
			return f + " is required"
		}
	}
	if typ == "RecaptchaV3TaskProxyless" {
		if _, ok := t["minScore"].(json.Number); !ok {
			return "minScore is required"
		}
	}
	return ""
}

// result answers getTaskResult.
func (s *Server) result(w http.ResponseWriter, body map[string]any, key string) {
	idJSON, _ := json.Marshal(body["taskId"])
	t := s.tasks[string(idJSON)]
	if t == nil {
		s.fail(w, s.badIDError(), "task not found", "")
		return
	}
	t.polls++
	if s.cfg.NeverReady || t.polls <= s.cfg.Pending {
		out := map[string]any{"errorId": 0, "status": "processing"}
		if s.dialect == CapSolver {
			out["taskId"] = body["taskId"]
		}
		writeJSON(w, out)
		return
	}
	if s.cfg.ResultError != "" {
		s.fail(w, s.cfg.ResultError, s.cfg.Description, key)
		return
	}
	out := map[string]any{"errorId": 0, "status": "ready", "solution": s.solution(t.kind)}
	if s.dialect == TwoCaptcha {
		out["cost"], out["ip"], out["createTime"], out["endTime"], out["solveCount"] = "0.00299", "127.0.0.1", 1692863536, 1692863556, 1
	} else {
		out["taskId"] = body["taskId"]
	}
	writeJSON(w, out)
}

// solution is the dialect's solution object for a kind of task.
func (s *Server) solution(kind string) map[string]any {
	c := s.cfg
	switch {
	case kind == "image":
		return map[string]any{"text": c.Text}
	case kind == "turnstile" && s.dialect == CapSolver:
		return map[string]any{"token": c.Token, "type": "turnstile", "userAgent": c.UserAgent}
	case kind == "turnstile":
		return map[string]any{"token": c.Token, "userAgent": c.UserAgent}
	case kind == "hcaptcha":
		return map[string]any{"gRecaptchaResponse": c.Token, "token": c.Token, "respKey": "E0_fake", "userAgent": c.UserAgent}
	case s.dialect == CapSolver:
		return map[string]any{"gRecaptchaResponse": c.Token, "userAgent": c.UserAgent, "createTime": 1692863536000}
	}
	return map[string]any{"gRecaptchaResponse": c.Token, "token": c.Token}
}

func (s *Server) keyError() string {
	if s.dialect == CapSolver {
		return "ERROR_KEY_DENIED_ACCESS"
	}
	return "ERROR_KEY_DOES_NOT_EXIST"
}

func (s *Server) badTaskError() string {
	if s.dialect == CapSolver {
		return "ERROR_INVALID_TASK_DATA"
	}
	return "ERROR_BAD_PARAMETERS"
}

func (s *Server) badIDError() string {
	if s.dialect == CapSolver {
		return "ERROR_TASKID_INVALID"
	}
	return "ERROR_WRONG_CAPTCHA_ID"
}

// descriptions are stock errorDescriptions.
var descriptions = map[string]string{
	"ERROR_KEY_DOES_NOT_EXIST": "The authorization key does not exist in the system or has invalid format",
	"ERROR_KEY_DENIED_ACCESS":  "clientKey error",
	"ERROR_ZERO_BALANCE":       "Account has zero balance",
	"ERROR_NO_SLOT_AVAILABLE":  "No idle workers are available at the moment",
	"ERROR_CAPTCHA_UNSOLVABLE": "Workers could not solve the Captcha",
}

// fail answers {"errorId":1,"errorCode","errorDescription"} with HTTP 200,
// as both providers do.
func (s *Server) fail(w http.ResponseWriter, code, desc, key string) {
	if desc == "" {
		desc = descriptions[code]
	}
	desc = strings.ReplaceAll(desc, "{key}", key)
	writeJSON(w, map[string]any{"errorId": 1, "errorCode": code, "errorDescription": desc})
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// PNG is a small valid PNG image (a 4×2 picture), for requests of type
// image.
var PNG = func() []byte {
	img := image.NewGray(image.Rect(0, 0, 4, 2))
	img.SetGray(1, 1, color.Gray{Y: 255})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		panic(err)
	}
	return b.Bytes()
}()

// PNGBase64 is PNG in standard base64, as image_base64 takes it.
var PNGBase64 = base64.StdEncoding.EncodeToString(PNG)
