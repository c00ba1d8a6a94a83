package fetch

import "context"

// PageAdmission decides whether a fetched page of pageBytes bytes may be
// parsed now: Scrape asks it before building the page's formats, LlmReady
// before chunking it. It may wait for room; an error refuses the page
// (Scrape returns it as is), and release is called once the page's work
// is done. A server bounds the page work of all its calls at once with
// one; a context without one lets every page in.
type PageAdmission func(ctx context.Context, pageBytes int64) (release func(), err error)

type admissionKey struct{}

// WithPageAdmission returns ctx carrying admit, which Scrape and LlmReady
// ask before working on a page they fetched under ctx; a nil admit lets
// every page in (for a caller that admits the page itself).
func WithPageAdmission(ctx context.Context, admit PageAdmission) context.Context {
	return context.WithValue(ctx, admissionKey{}, admit)
}

// admitPage asks ctx's PageAdmission, if any, to let in a page of n bytes.
func admitPage(ctx context.Context, n int) (release func(), err error) {
	admit, _ := ctx.Value(admissionKey{}).(PageAdmission)
	if admit == nil {
		return func() {}, nil
	}
	return admit(ctx, int64(n))
}
