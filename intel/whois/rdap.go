package whois

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/webinfra/webinfra/errs"
)

// rdapAccept asks for RDAP JSON; some registries (rdap.nic.fr once) only
// answer plain JSON, so that is accepted too.
const rdapAccept = "application/rdap+json, application/json;q=0.9"

// lookupRDAP asks the registry's RDAP service at base for domain and, when
// the answer links the registrar's RDAP record ("related"), follows that
// one link to fill in what the registry left out. A 404 is
// errs.KindNotFound; anything else that is not a domain object is an
// error the caller falls back to whois on.
func (c *Client) lookupRDAP(ctx context.Context, domain, base string) (*Result, error) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	queryURL := base + "domain/" + domain
	body, status, err := c.getRDAP(ctx, queryURL)
	switch {
	case err != nil:
		return nil, err
	case status == http.StatusNotFound:
		return nil, errs.New(errs.KindNotFound, "%s is not registered (RDAP 404)", domain)
	case status != http.StatusOK:
		return nil, errs.New(errs.KindUpstream, "RDAP server answered HTTP %d", status)
	}
	registry, err := decodeDomain(body, domain)
	if err != nil {
		return nil, errs.New(errs.KindUpstream, "RDAP server answered something that is not an RDAP domain object")
	}
	res := newResult(domain, SourceRDAP)
	res.RDAPURL = queryURL
	res.setRaw(string(body))
	registry.fill(res)
	if related := registry.relatedLink(queryURL); related != "" {
		// The registrar's record is a bonus: when it fails, the
		// registry's answer stands alone.
		if body, status, err := c.getRDAP(ctx, related); err == nil && status == http.StatusOK {
			if registrar, err := decodeDomain(body, domain); err == nil {
				extra := newResult(domain, SourceRDAP)
				registrar.fill(extra)
				res.fillBlanks(extra)
				res.RDAPRelatedURL = related
			}
		}
	}
	return res, nil
}

// getRDAP GETs one RDAP URL and returns the body of a 200 (at most
// c.maxRDAPBytes) and the status. Transport failures are errors that name
// the RDAP server, never its address.
func (c *Client) getRDAP(ctx context.Context, rawURL string) ([]byte, int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		return nil, 0, errs.New(errs.KindUpstream, "RDAP URL is not valid")
	}
	req.Header.Set("Accept", rdapAccept)
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, 0, transportError(err, "RDAP server", c.timeout)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4<<10))
		return nil, resp.StatusCode, nil
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, c.maxRDAPBytes+1))
	if err != nil {
		return nil, 0, transportError(err, "RDAP server", c.timeout)
	}
	if int64(len(body)) > c.maxRDAPBytes {
		return nil, 0, errs.New(errs.KindUpstream, "RDAP server answered more than %d bytes", c.maxRDAPBytes)
	}
	return body, http.StatusOK, nil
}

// transportError classifies a failed exchange with source: no answer in
// time is errs.KindTimeout, anything else errs.KindUpstream. The cause is
// not wrapped: its text may hold an operator's internal address.
func transportError(err error, source string, timeout time.Duration) error {
	var netErr net.Error
	switch {
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &netErr) && netErr.Timeout():
		return errs.New(errs.KindTimeout, "%s did not answer within %s", source, timeout)
	case errs.Is(err, errs.KindForbidden):
		return errs.New(errs.KindUpstream, "%s is at an address this service may not connect to", source)
	case errors.Is(err, errAnswerTooLarge):
		return errs.New(errs.KindUpstream, "%s answered more than the size limit", source)
	default:
		return errs.New(errs.KindUpstream, "could not reach the %s", source)
	}
}
