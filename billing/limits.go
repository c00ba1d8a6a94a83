package billing

import (
	"errors"
	"runtime"
	"time"

	"github.com/webinfra/webinfra/errs"
)

// Limits bound what one caller, signed in or not, can make the server
// spend: memory, CPU, connections and stored bytes. They belong to no plan.
// In the config file they are the "limits" object; a field that is absent
// or zero keeps its default (DefaultLimits).
type Limits struct {
	// PasswordHashConcurrency is how many argon2id hashes (sign-up, login,
	// password change) run at once; each takes about 19 MiB.
	PasswordHashConcurrency int `json:"password_hash_concurrency"`
	// PasswordHashWaitMS is how long a call waits for a hashing slot
	// before it is answered 503 with retry-after.
	PasswordHashWaitMS int `json:"password_hash_wait_ms"`
	// LoginFreeFailures is how many failed logins an account allows before
	// further attempts are delayed; the delay doubles with each failure.
	LoginFreeFailures int `json:"login_free_failures"`
	// LoginMaxLockoutSeconds caps that growing delay.
	LoginMaxLockoutSeconds int `json:"login_max_lockout_seconds"`
	// BodyReadSeconds is how long a client may take to send a request's
	// headers and body; a slower connection is closed.
	BodyReadSeconds int `json:"body_read_seconds"`
	// MaxConnectionsPerIP caps the open connections of one client address
	// (an IPv6 client is its /64).
	MaxConnectionsPerIP int `json:"max_connections_per_ip"`
	// LLMReadyMaxChunks caps the chunks of one /v1/scrape/llm-ready answer.
	LLMReadyMaxChunks int `json:"llm_ready_max_chunks"`
	// CrawlMaxPatterns caps the include plus exclude patterns of a crawl.
	CrawlMaxPatterns int `json:"crawl_max_patterns"`
	// CrawlMaxPatternBytes caps the length of one crawl pattern.
	CrawlMaxPatternBytes int `json:"crawl_max_pattern_bytes"`
	// IdempotencyMaxResponseBytes is the largest answer kept for an
	// Idempotency-Key replay; a retry of a larger one is 409.
	IdempotencyMaxResponseBytes int64 `json:"idempotency_max_response_bytes"`
	// DashboardKeyIdleDays is how long a dashboard (browser session) key
	// may go unused before it stops working.
	DashboardKeyIdleDays int `json:"dashboard_key_idle_days"`
	// PageBytesInFlight bounds the bytes of pages the server parses and
	// extracts at once, over all calls: the bodies of calls that carry a
	// page and the pages calls fetch. Page work can take some 60 times a
	// page's size in memory (a 9 MiB grid of cards: about 540 MiB at
	// peak), so this bounds the memory it takes. A call beyond it waits.
	PageBytesInFlight int64 `json:"page_bytes_in_flight"`
	// PageWaitMS is how long a call waits for its page to be let in before
	// it is answered 503 with retry-after.
	PageWaitMS int `json:"page_wait_ms"`
}

// DefaultLimits returns the built-in limits. PasswordHashConcurrency is the
// number of CPUs (at least 2).
func DefaultLimits() Limits {
	return Limits{
		PasswordHashConcurrency:     max(2, runtime.NumCPU()),
		PasswordHashWaitMS:          2_000,
		LoginFreeFailures:           5,
		LoginMaxLockoutSeconds:      900,
		BodyReadSeconds:             30,
		MaxConnectionsPerIP:         64,
		LLMReadyMaxChunks:           2_000,
		CrawlMaxPatterns:            20,
		CrawlMaxPatternBytes:        512,
		IdempotencyMaxResponseBytes: 4 << 20,
		DashboardKeyIdleDays:        30,
		PageBytesInFlight:           64 << 20,
		PageWaitMS:                  10_000,
	}
}

// PasswordHashWait is PasswordHashWaitMS as a duration.
func (l Limits) PasswordHashWait() time.Duration {
	return time.Duration(l.PasswordHashWaitMS) * time.Millisecond
}

// LoginMaxLockout is LoginMaxLockoutSeconds as a duration.
func (l Limits) LoginMaxLockout() time.Duration {
	return time.Duration(l.LoginMaxLockoutSeconds) * time.Second
}

// BodyRead is BodyReadSeconds as a duration.
func (l Limits) BodyRead() time.Duration { return time.Duration(l.BodyReadSeconds) * time.Second }

// PageWait is PageWaitMS as a duration.
func (l Limits) PageWait() time.Duration { return time.Duration(l.PageWaitMS) * time.Millisecond }

// DashboardKeyIdle is DashboardKeyIdleDays as a duration.
func (l Limits) DashboardKeyIdle() time.Duration {
	return time.Duration(l.DashboardKeyIdleDays) * 24 * time.Hour
}

// merge returns l with the non-zero fields of over applied on top.
func (l Limits) merge(over Limits) Limits {
	set := func(dst *int, v int) {
		if v != 0 {
			*dst = v
		}
	}
	set(&l.PasswordHashConcurrency, over.PasswordHashConcurrency)
	set(&l.PasswordHashWaitMS, over.PasswordHashWaitMS)
	set(&l.LoginFreeFailures, over.LoginFreeFailures)
	set(&l.LoginMaxLockoutSeconds, over.LoginMaxLockoutSeconds)
	set(&l.BodyReadSeconds, over.BodyReadSeconds)
	set(&l.MaxConnectionsPerIP, over.MaxConnectionsPerIP)
	set(&l.LLMReadyMaxChunks, over.LLMReadyMaxChunks)
	set(&l.CrawlMaxPatterns, over.CrawlMaxPatterns)
	set(&l.CrawlMaxPatternBytes, over.CrawlMaxPatternBytes)
	set(&l.DashboardKeyIdleDays, over.DashboardKeyIdleDays)
	set(&l.PageWaitMS, over.PageWaitMS)
	if over.IdempotencyMaxResponseBytes != 0 {
		l.IdempotencyMaxResponseBytes = over.IdempotencyMaxResponseBytes
	}
	if over.PageBytesInFlight != 0 {
		l.PageBytesInFlight = over.PageBytesInFlight
	}
	return l
}

// OrDefaults returns l with every zero field set to its default.
func (l Limits) OrDefaults() Limits { return DefaultLimits().merge(l) }

// validate reports every negative limit, naming it as limits.<field>.
func (l Limits) validate() error {
	var problems []error
	check := func(name string, v int64) {
		if v < 0 {
			problems = append(problems, errs.Invalid("limits."+name, "must be > 0 (or 0 for the default), not %d", v))
		}
	}
	check("password_hash_concurrency", int64(l.PasswordHashConcurrency))
	check("password_hash_wait_ms", int64(l.PasswordHashWaitMS))
	check("login_free_failures", int64(l.LoginFreeFailures))
	check("login_max_lockout_seconds", int64(l.LoginMaxLockoutSeconds))
	check("body_read_seconds", int64(l.BodyReadSeconds))
	check("max_connections_per_ip", int64(l.MaxConnectionsPerIP))
	check("llm_ready_max_chunks", int64(l.LLMReadyMaxChunks))
	check("crawl_max_patterns", int64(l.CrawlMaxPatterns))
	check("crawl_max_pattern_bytes", int64(l.CrawlMaxPatternBytes))
	check("idempotency_max_response_bytes", l.IdempotencyMaxResponseBytes)
	check("dashboard_key_idle_days", int64(l.DashboardKeyIdleDays))
	check("page_bytes_in_flight", l.PageBytesInFlight)
	check("page_wait_ms", int64(l.PageWaitMS))
	return errors.Join(problems...)
}
