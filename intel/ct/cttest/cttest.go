package cttest

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"time"
)

// Entry is one row of crt.sh's JSON answer: one logged certificate or
// precertificate.
type Entry struct {
	IssuerCAID     int64  `json:"issuer_ca_id"`
	IssuerName     string `json:"issuer_name"`
	CommonName     string `json:"common_name"`
	NameValue      string `json:"name_value"` // the matching identities, one per line
	ID             int64  `json:"id"`
	EntryTimestamp string `json:"entry_timestamp"` // "2024-01-02T03:04:05.678", UTC
	NotBefore      string `json:"not_before"`      // "2024-01-02T02:04:05", UTC
	NotAfter       string `json:"not_after"`
	SerialNumber   string `json:"serial_number"` // lower-case hex
	ResultCount    int    `json:"result_count,omitempty"`
}

// Server is a crt.sh-compatible peer on loopback. Close it when done.
type Server struct {
	*httptest.Server

	mu      sync.Mutex
	now     func() time.Time
	entries []Entry
	queries []url.Values
}

// SetNow sets the clock exclude=expired compares not_after with; the
// default is time.Now.
func (s *Server) SetNow(now func() time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.now = now
}

// NewServer starts a peer serving entries.
func NewServer(entries ...Entry) *Server {
	s := &Server{entries: entries}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// Queries returns the query strings received so far, in order.
func (s *Server) Queries() []url.Values {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]url.Values(nil), s.queries...)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	s.mu.Lock()
	s.queries = append(s.queries, q)
	entries, now := s.entries, s.now
	s.mu.Unlock()
	if q.Get("output") != "json" {
		w.Header().Set("Content-Type", "text/html; charset=UTF-8")
		_, _ = w.Write([]byte("<!DOCTYPE html><html><head><title>crt.sh | " + q.Get("q") + "</title></head><body>crt.sh</body></html>"))
		return
	}
	if now == nil {
		now = time.Now
	}
	out := []Entry{}
	for _, e := range entries {
		if !Matches(q.Get("q"), e) {
			continue
		}
		if q.Get("exclude") == "expired" {
			if end, err := time.Parse("2006-01-02T15:04:05", e.NotAfter); err == nil && end.Before(now()) {
				continue
			}
		}
		out = append(out, e)
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(out)
}

// Matches reports whether an entry's common name or one of its names
// matches a crt.sh identity pattern, where "%" matches any run of
// characters, case insensitive.
func Matches(pattern string, e Entry) bool {
	pattern = strings.ToLower(strings.TrimSpace(pattern))
	if pattern == "" {
		return false
	}
	for _, name := range append(strings.Split(e.NameValue, "\n"), e.CommonName) {
		if like(pattern, strings.ToLower(strings.TrimSpace(name))) {
			return true
		}
	}
	return false
}

// like is SQL LIKE with only the "%" wildcard.
func like(pattern, s string) bool {
	parts := strings.Split(pattern, "%")
	if len(parts) == 1 {
		return pattern == s
	}
	if !strings.HasPrefix(s, parts[0]) {
		return false
	}
	s = s[len(parts[0]):]
	for _, p := range parts[1 : len(parts)-1] {
		i := strings.Index(s, p)
		if i < 0 {
			return false
		}
		s = s[i+len(p):]
	}
	return strings.HasSuffix(s, parts[len(parts)-1])
}
