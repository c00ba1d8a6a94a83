package render

import (
	"context"
	"crypto/rand"
	"os"
	"path/filepath"
	"sync"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/fetch"
)

// Pool renders pages in one browser at a time: at most Options.Contexts
// pages at once, each in a fresh tab and browser context closed after use,
// and the browser itself retired after Options.PagesPerBrowser pages. It is
// safe for concurrent use and implements fetch.Renderer.
type Pool struct {
	opts    Options
	baseDir string // local: the parent of every user-data-dir ("" for remote)
	// baseOnce creates baseDir when the first browser starts, so that a
	// pool that never renders leaves nothing behind, even when its
	// process is killed before Close.
	baseOnce sync.Once
	baseErr  error
	root     context.Context
	abort    context.CancelFunc
	slots    chan struct{} // a token per page in flight
	renders  sync.WaitGroup

	mu       sync.Mutex
	cur      *browser // the browser pages go to; nil before the first
	closed   bool
	stopping sync.WaitGroup // browsers being stopped
	started  int            // browsers started, for tests

	noGuardProxy bool // tests: rely on the Fetch-domain interception alone
}

var _ fetch.Renderer = (*Pool)(nil)

// New returns a Pool. Nil options mean defaults. It fails with
// errs.KindUnavailable when no browser binary is found (and BrowserURL is
// empty). The browser itself starts with the first render, and so does
// the pool's temporary directory.
func New(opts *Options) (*Pool, error) {
	o, err := withDefaults(opts)
	if err != nil {
		return nil, err
	}
	p := &Pool{opts: o, slots: make(chan struct{}, o.Contexts)}
	if o.BrowserURL == "" {
		// An unguessable name, made when the first browser starts.
		p.baseDir = filepath.Join(os.TempDir(), "webinfra-render-"+rand.Text())
	}
	p.root, p.abort = context.WithCancel(context.Background())
	return p, nil
}

// makeBaseDir creates the pool's temporary directory, the parent of every
// user-data-dir, the first time it is called; it must not exist yet.
func (p *Pool) makeBaseDir() error {
	p.baseOnce.Do(func() {
		if err := os.Mkdir(p.baseDir, 0o700); err != nil {
			p.baseErr = errs.Wrap(errs.KindInternal, err, "render: creating a temporary directory")
		}
	})
	return p.baseErr
}

// userDataDir makes a new browser's user-data-dir under the pool's
// temporary directory.
func (p *Pool) userDataDir() (string, error) {
	if err := p.makeBaseDir(); err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp(p.baseDir, "browser-")
	if err != nil {
		return "", errs.Wrap(errs.KindInternal, err, "render: creating a user-data-dir")
	}
	return dir, nil
}

// Close stops every browser the pool started (killing any process left)
// and removes their user-data-dirs. Renders in flight fail. Close is
// idempotent; the pool cannot be used afterwards.
func (p *Pool) Close() error {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil
	}
	p.closed = true
	p.mu.Unlock()

	p.abort()
	p.renders.Wait()
	p.mu.Lock()
	if b := p.cur; b != nil {
		b.retiring = true
		p.stopIfIdle(b)
	}
	p.mu.Unlock()
	p.stopping.Wait()
	if p.baseDir == "" {
		return nil
	}
	killProcessesUsing(p.baseDir)
	return removeAll(p.baseDir)
}

func errClosed() error {
	return errs.New(errs.KindUnavailable, "render tier unavailable: the render pool is closed")
}

// acquire returns the browser for one more page, starting one when there is
// none and waiting for a retiring one to be gone first, so at most one
// browser of the pool is alive at a time. A browser it starts is the one
// it answers with, even when it has failed already by the time it is
// looked at (a missing or broken binary fails at once): the caller gets
// that failure, rather than acquire starting browsers in a loop until the
// context ends.
func (p *Pool) acquire(ctx context.Context) (*browser, error) {
	p.mu.Lock()
	for {
		if p.closed {
			p.mu.Unlock()
			return nil, errClosed()
		}
		b := p.cur
		started := b == nil
		if started {
			p.started++
			b = &browser{ready: make(chan struct{}), gone: make(chan struct{})}
			p.cur = b
			go p.start(b) // on failure it marks b broken, which retires it
		}
		if started || !b.retiring && !b.dead() && b.pages < p.opts.PagesPerBrowser {
			b.pages++
			b.active++
			p.mu.Unlock()
			select {
			case <-b.ready:
			case <-ctx.Done():
				p.release(b, false)
				return nil, ctx.Err()
			}
			if b.err != nil {
				p.release(b, false)
				return nil, b.err
			}
			return b, nil
		}
		b.retiring = true
		p.stopIfIdle(b)
		gone := b.gone
		p.mu.Unlock()
		select {
		case <-gone:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		p.mu.Lock()
	}
}

// release ends one page on b; broken retires b.
func (p *Pool) release(b *browser, broken bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	b.active--
	if broken {
		b.broken.Store(true)
	}
	if b.dead() || b.pages >= p.opts.PagesPerBrowser {
		b.retiring = true
	}
	if b.retiring {
		p.stopIfIdle(b)
	}
}

// stopIfIdle stops a retiring browser once its last page is done. The
// caller holds p.mu.
func (p *Pool) stopIfIdle(b *browser) {
	if b.active > 0 || b.stopping {
		return
	}
	b.stopping = true
	p.stopping.Add(1)
	go func() {
		defer p.stopping.Done()
		<-b.ready
		b.stop()
		p.mu.Lock()
		if p.cur == b {
			p.cur = nil
		}
		p.mu.Unlock()
		close(b.gone)
	}()
}
