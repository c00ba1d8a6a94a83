package main

import (
	"encoding/json"
	"flag"
	"io"
	"log"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/webinfra/webinfra/jobs"
)

func main() {
	addr := flag.String("addr", ":8443", "listen address")
	cert := flag.String("cert", "cert.pem", "TLS certificate (webhooks are HTTPS only)")
	key := flag.String("key", "key.pem", "TLS key")
	flag.Parse()
	secret := os.Getenv("WEBINFRA_WEBHOOK_SECRET") // GET /v1/me → webhook_secret
	if secret == "" {
		log.Fatal("set WEBINFRA_WEBHOOK_SECRET")
	}
	http.Handle("POST /hooks/webinfra", Handler(secret, func(ev jobs.Event) {
		log.Printf("job %s %s: %d bytes of result", ev.JobID, ev.Status, len(ev.Result))
	}))
	log.Fatal(http.ListenAndServeTLS(*addr, *cert, *key, nil))
}

// Handler verifies and decodes job webhooks, calling handle once per event
// id. It answers 2xx only for deliveries it accepted, so Webinfra retries
// the others.
func Handler(secret string, handle func(jobs.Event)) http.Handler {
	var mu sync.Mutex
	seen := map[string]bool{} // use your database in production
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(io.LimitReader(r.Body, 32<<20))
		if err != nil {
			http.Error(w, "read error", http.StatusBadRequest)
			return
		}
		// Constant-time check of the HMAC over "<t>.<body>"; timestamps more
		// than five minutes off are refused (replays).
		if err := jobs.VerifySignature(r.Header.Get(jobs.SignatureHeader), body, secret, 5*time.Minute); err != nil {
			http.Error(w, err.Error(), http.StatusUnauthorized)
			return
		}
		var ev jobs.Event
		if err := json.Unmarshal(body, &ev); err != nil {
			http.Error(w, "bad JSON", http.StatusBadRequest)
			return
		}
		id := r.Header.Get(jobs.EventIDHeader) // the job id: the same on every retry and replay
		mu.Lock()
		dup := seen[id]
		seen[id] = true
		mu.Unlock()
		if !dup {
			handle(ev)
		}
		w.WriteHeader(http.StatusNoContent)
	})
}
