package dnsintel

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/miekg/dns"
)

// Dangling is a CNAME whose target does not resolve.
type Dangling struct {
	Name    string `json:"name" example:"www.example.com" doc:"The name with the CNAME."`
	Target  string `json:"target" example:"example-site.herokuapp.com" doc:"Where its CNAME chain ends."`
	Service string `json:"service,omitempty" example:"Heroku" doc:"The hosting service the target belongs to, when it is one known for subdomain takeovers."`
	Reason  string `json:"reason" doc:"Why this is a hint."`
}

// takeoverServices are hosting services where a deleted site, bucket or
// app leaves its CNAME pointing at a name anyone can claim again, by the
// suffix of their target names (from the can-i-take-over-xyz list).
var takeoverServices = []struct{ suffix, service string }{
	{".s3.amazonaws.com", "Amazon S3"},
	{".amazonaws.com", "Amazon Web Services"},
	{".cloudfront.net", "Amazon CloudFront"},
	{".elasticbeanstalk.com", "AWS Elastic Beanstalk"},
	{".herokuapp.com", "Heroku"},
	{".herokudns.com", "Heroku"},
	{".herokussl.com", "Heroku"},
	{".github.io", "GitHub Pages"},
	{".azurewebsites.net", "Azure App Service"},
	{".cloudapp.net", "Azure Cloud Services"},
	{".cloudapp.azure.com", "Azure"},
	{".trafficmanager.net", "Azure Traffic Manager"},
	{".blob.core.windows.net", "Azure Blob Storage"},
	{".azureedge.net", "Azure CDN"},
	{".azurefd.net", "Azure Front Door"},
	{".azure-api.net", "Azure API Management"},
	{".azurecontainer.io", "Azure Container Instances"},
	{".azurestaticapps.net", "Azure Static Web Apps"},
	{".fastly.net", "Fastly"},
	{".myshopify.com", "Shopify"},
	{".netlify.app", "Netlify"},
	{".netlify.com", "Netlify"},
	{".pantheonsite.io", "Pantheon"},
	{".zendesk.com", "Zendesk"},
	{".ghost.io", "Ghost"},
	{".surge.sh", "Surge"},
	{".bitbucket.io", "Bitbucket"},
	{".domains.tumblr.com", "Tumblr"},
	{".wordpress.com", "WordPress.com"},
	{".unbouncepages.com", "Unbounce"},
	{".readme.io", "ReadMe"},
	{".fly.dev", "Fly.io"},
	{".helpscoutdocs.com", "Help Scout"},
	{".cargocollective.com", "Cargo"},
	{".webflow.io", "Webflow"},
	{".uservoice.com", "UserVoice"},
	{".freshdesk.com", "Freshdesk"},
	{".helpjuice.com", "Helpjuice"},
	{".teamwork.com", "Teamwork"},
	{".strikinglyapp.com", "Strikingly"},
	{".smartjobboard.com", "SmartJobBoard"},
	{".ngrok.io", "ngrok"},
}

// takeoverService names the service target belongs to, or "".
func takeoverService(target string) string {
	target = "." + host(target)
	for _, s := range takeoverServices {
		if strings.HasSuffix(target, s.suffix) {
			return s.service
		}
	}
	return ""
}

func (q *querier) dangling(ctx context.Context, domain string, out *[]Dangling) []Finding {
	names := []string{domain}
	if !strings.HasPrefix(domain, "www.") {
		names = append(names, "www."+domain)
	}
	hints := make([]*Dangling, len(names))
	var wg sync.WaitGroup
	for i, name := range names {
		wg.Go(func() { hints[i] = q.danglingCNAME(ctx, name) })
	}
	wg.Wait()
	var found []Finding
	for _, h := range hints {
		if h == nil {
			continue
		}
		*out = append(*out, *h)
		if h.Service != "" {
			found = append(found, Finding{Code: "dangling_cname", Severity: SeverityError, Section: "dangling",
				Message: fmt.Sprintf("%s is a CNAME to %s (%s), which does not resolve: %s", h.Name, h.Target, h.Service, h.Reason)})
		} else {
			found = append(found, Finding{Code: "cname_to_nowhere", Severity: SeverityWarning, Section: "dangling",
				Message: fmt.Sprintf("%s is a CNAME to %s, which does not resolve: %s", h.Name, h.Target, h.Reason)})
		}
	}
	return found
}

// danglingCNAME asks name's A record and returns a hint when its answer
// is a CNAME chain ending in NXDOMAIN.
func (q *querier) danglingCNAME(ctx context.Context, name string) *Dangling {
	msg, err := q.ask(ctx, name, dns.TypeA)
	if err != nil {
		return nil
	}
	cnames := records[*dns.CNAME](msg)
	if len(cnames) == 0 || msg.Rcode != dns.RcodeNameError {
		return nil
	}
	d := &Dangling{Name: name, Target: host(cnames[len(cnames)-1].Target)}
	if d.Service = takeoverService(d.Target); d.Service != "" {
		d.Reason = "the resource there was probably deleted; whoever creates one with that name on " + d.Service + " serves content as " + name + ". Remove the CNAME or claim the resource back."
	} else {
		d.Reason = "the CNAME leads nowhere; remove it, or point it at a name that exists (whoever registers the target's domain controls " + name + ")."
	}
	return d
}
