// Package tlstest makes certificates and HTTPS servers on loopback for
// tests of package tlsinspect and of anything built on it (the server's
// /v1/intel/ssl):
//
//	ca := tlstest.NewCA(t)
//	srv := tlstest.Server(t, ca.Issue(t, tlstest.Leaf{}), tlstest.HSTS("max-age=31536000"), nil)
//	rep, err := tlsinspect.Inspect(ctx, tlsinspect.Input{Domain: "localhost"}, &tlsinspect.Options{
//		Dial: (&net.Dialer{}).DialContext, Verify: ca.Verify, Port: tlstest.Port(srv)})
//
// Certificates are valid for "localhost" and 127.0.0.1 unless a Leaf says
// otherwise; Staple builds an OCSP response to set as
// tls.Certificate.OCSPStaple.
package tlstest
