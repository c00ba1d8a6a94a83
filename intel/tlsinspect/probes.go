package tlsinspect

import (
	"bufio"
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"time"

	"golang.org/x/crypto/ocsp"

	"github.com/webinfra/webinfra/intel/secheaders"
)

// maxResponseHeadBytes bounds what is read of the HSTS request's answer:
// the status line and headers, never the body.
const maxResponseHeadBytes = 64 << 10

// HSTS is the Strict-Transport-Security header of the host's answer to
// GET /, read over the inspected connection.
type HSTS struct {
	Checked    bool `json:"checked" doc:"An HTTP answer was read; false when the host did not speak HTTP/1.1 over TLS."`
	HTTPStatus int  `json:"http_status,omitempty" doc:"The status of the answer to GET /."`
	secheaders.HSTS
	CheckError string `json:"check_error,omitempty" doc:"Why no HTTP answer was read."`
}

// readHSTS sends GET / over conn (ALPN http/1.1 was the only offer) and
// reads the answer's status line and headers, at most
// maxResponseHeadBytes; the body is never read. The connection's deadline
// (the inspection's) bounds it.
func readHSTS(conn *tls.Conn, host string, port int) HSTS {
	hostHeader := host
	if port != DefaultPort {
		hostHeader = net.JoinHostPort(host, strconv.Itoa(port))
	}
	req, err := http.NewRequest(http.MethodGet, "https://"+hostHeader+"/", nil)
	if err != nil {
		return HSTS{CheckError: err.Error()}
	}
	req.Header.Set("User-Agent", "Mozilla/5.0 (compatible; webinfra/1.0; +https://github.com/webinfra/webinfra)")
	req.Header.Set("Accept", "*/*")
	req.Close = true
	if err := req.Write(conn); err != nil {
		return HSTS{CheckError: "could not send GET /: " + err.Error()}
	}
	resp, err := http.ReadResponse(bufio.NewReader(io.LimitReader(conn, maxResponseHeadBytes)), req)
	if err != nil {
		return HSTS{CheckError: fmt.Sprintf("no HTTP/1.1 answer to GET / (headers must fit in %d KiB): %v", maxResponseHeadBytes>>10, err)}
	}
	// The body is not read: the connection closes with the inspection.
	return HSTS{Checked: true, HTTPStatus: resp.StatusCode, HSTS: secheaders.ParseHSTS(resp.Header.Get("Strict-Transport-Security"))}
}

// Legacy is the answer to a handshake capped at TLS 1.1.
type Legacy struct {
	Checked  bool   `json:"checked" doc:"The probe ran to a verdict."`
	Accepted bool   `json:"accepted" doc:"The server completed a TLS 1.0 or 1.1 handshake."`
	Version  string `json:"version,omitempty" example:"TLS 1.1" doc:"The legacy version it accepted."`
	Error    string `json:"error,omitempty" doc:"Why the probe did not run to a verdict."`
}

// probeLegacy connects again to the address of the first handshake and
// offers only TLS 1.0 and 1.1. A handshake failure is the good answer
// (refused); a connection that cannot be made is no verdict.
func (o *options) probeLegacy(ctx context.Context, addr, host string, isIP bool) *Legacy {
	raw, err := o.Dial(ctx, "tcp", addr)
	if err != nil {
		return &Legacy{Error: "could not connect again: " + err.Error()}
	}
	defer raw.Close()
	if deadline, ok := ctx.Deadline(); ok {
		_ = raw.SetDeadline(deadline)
	}
	conn := tls.Client(raw, clientConfig(host, isIP, tls.VersionTLS11))
	if err := conn.HandshakeContext(ctx); err != nil {
		if isTimeout(ctx, err) {
			return &Legacy{Error: "no answer in time"}
		}
		return &Legacy{Checked: true}
	}
	return &Legacy{Checked: true, Accepted: true, Version: tls.VersionName(conn.ConnectionState().Version)}
}

// OCSP is a stapled OCSP response.
type OCSP struct {
	Status           string     `json:"status" enum:"good,revoked,unknown,invalid" doc:"What the CA's responder says of the certificate; invalid when the response does not parse or is not for it."`
	SignatureChecked bool       `json:"signature_checked" doc:"The response's signature was checked against the presented issuer."`
	ProducedAt       *time.Time `json:"produced_at,omitempty"`
	ThisUpdate       *time.Time `json:"this_update,omitempty"`
	NextUpdate       *time.Time `json:"next_update,omitempty" doc:"After this the response is stale."`
	RevokedAt        *time.Time `json:"revoked_at,omitempty"`
	Stale            bool       `json:"stale" doc:"next_update has passed."`
	Error            string     `json:"error,omitempty" doc:"Why the response is invalid."`
}

// parseStaple reads the stapled response with golang.org/x/crypto/ocsp,
// checking its signature when the leaf's issuer was presented.
func parseStaple(raw []byte, certs []*x509.Certificate, now time.Time) *OCSP {
	if len(certs) == 0 {
		return &OCSP{Status: "invalid", Error: "no certificate to match"}
	}
	issuer := issuerOf(certs)
	resp, err := ocsp.ParseResponseForCert(raw, certs[0], issuer)
	if err != nil {
		return &OCSP{Status: "invalid", Error: err.Error()}
	}
	out := &OCSP{SignatureChecked: issuer != nil, ProducedAt: timePtr(resp.ProducedAt), ThisUpdate: timePtr(resp.ThisUpdate), NextUpdate: timePtr(resp.NextUpdate)}
	switch resp.Status {
	case ocsp.Good:
		out.Status = "good"
	case ocsp.Revoked:
		out.Status, out.RevokedAt = "revoked", timePtr(resp.RevokedAt)
	default:
		out.Status = "unknown"
	}
	out.Stale = !resp.NextUpdate.IsZero() && resp.NextUpdate.Before(now)
	return out
}

func timePtr(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	t = t.UTC()
	return &t
}
