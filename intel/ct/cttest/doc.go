// Package cttest runs a crt.sh-compatible certificate transparency search
// on loopback, for tests of package ct and of anything built on it (the
// server's /v1/intel/cert-transparency-history and subdomain-enumerate).
//
//	srv := cttest.NewServer(cttest.Entry{ID: 1, IssuerCAID: 7, IssuerName: "C=US, O=Let's Encrypt, CN=R3",
//		CommonName: "www.example.com", NameValue: "example.com\nwww.example.com",
//		NotBefore: "2024-01-02T02:04:05", NotAfter: "2024-04-01T02:04:05", SerialNumber: "04ab"})
//	defer srv.Close()
//	client, _ := ct.New(&ct.Options{BaseURL: srv.URL + "/"})
//
// It answers GET /?q=<pattern>&output=json like crt.sh: a JSON array of
// the entries one of whose names (common_name or a line of name_value)
// matches q, where "%" in q matches any run of characters, case
// insensitive; exclude=expired drops entries whose not_after is before
// the server's clock (Server.SetNow). Without output=json it answers an
// HTML page, as crt.sh does. It ignores deduplicate=Y, so a client's own
// deduplication of a precertificate and its certificate is exercised.
package cttest
