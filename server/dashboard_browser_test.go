package server_test

import (
	"context"
	_ "embed"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/webinfra/webinfra/fetch/render"
	"github.com/webinfra/webinfra/internal/otlptest"
	"github.com/webinfra/webinfra/internal/testenv"
)

// a11yAudit is the accessibility check run on every dashboard page. Its
// rules, each named in what it reports:
//
//   - label: every input, select and textarea (but hidden inputs) has a
//     non-empty <label>, aria-label or aria-labelledby;
//   - single-h1: each page has exactly one h1;
//   - heading-order: headings start at h1 and never skip a level going down;
//   - image-alt: every img has alt, every svg with role=img a name;
//   - button-name, link-name: every button and link has a name;
//   - html-lang, document-title, duplicate-id;
//   - color-contrast: WCAG 2.x SC 1.4.3 (AA), the contrast ratio of every
//     visible text's computed color (fill in SVG) on its computed
//     background is at least 4.5:1, or 3:1 for large text (24 px, or
//     18.66 px bold).
//
//go:embed testdata/a11y_audit.js
var a11yAudit string

// driver walks the dashboard in headless Chromium.
type driver struct {
	t     *testing.T
	ctx   context.Context
	base  string
	shots string
}

func (d *driver) do(steps ...chromedp.Action[chromedp.Void]) {
	d.t.Helper()
	if err := chromedp.Do(d.ctx, steps...); err != nil {
		d.t.Fatalf("browser: %v (on %s)", err, d.url())
	}
}

func (d *driver) url() string {
	u, _ := chromedp.Run(d.ctx, chromedp.Evaluate[string](`location.pathname + location.search`))
	return u
}

func (d *driver) eval(expr string) string {
	d.t.Helper()
	v, err := chromedp.Run(d.ctx, chromedp.Evaluate[string](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		d.t.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}

func (d *driver) text() string { return d.eval(`document.body.innerText`) }

// open loads a dashboard path and waits for it.
func (d *driver) open(path string) {
	d.t.Helper()
	d.do(chromedp.Navigate(d.base+path), chromedp.WaitReady(chromedp.CSS("main h1")))
}

// submit clicks sel (a form's button) and waits for the next page; confirm
// dialogs are answered yes.
func (d *driver) submit(sel string) {
	d.t.Helper()
	d.eval(`window.__stale = true; window.confirm = () => true; ""`)
	d.do(chromedp.Click(chromedp.CSS(sel)))
	deadline := time.Now().Add(20 * time.Second)
	for {
		// A navigation in flight ends an evaluation with an error: ask again.
		ok, err := chromedp.Run(d.ctx, chromedp.Evaluate[bool](`!window.__stale && document.readyState === "complete" && !!document.querySelector("main h1")`))
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			d.t.Fatalf("no page after clicking %s: %v (on %s)", sel, err, d.url())
		}
		time.Sleep(25 * time.Millisecond)
	}
}

// fill types each value into its field (selector, value pairs).
func (d *driver) fill(pairs ...string) {
	d.t.Helper()
	for i := 0; i+1 < len(pairs); i += 2 {
		d.eval(`document.querySelector(` + strconv.Quote(pairs[i]) + `).value = ""`)
		d.do(chromedp.SendKeys(chromedp.CSS(pairs[i]), pairs[i+1]))
	}
}

// check audits the page (a11yAudit) and saves a screenshot as name.png.
func (d *driver) check(name string) {
	d.t.Helper()
	problems, err := chromedp.Run(d.ctx, chromedp.Evaluate[[]string](a11yAudit))
	if err != nil {
		d.t.Fatalf("audit of %s: %v", name, err)
	}
	for _, p := range problems {
		d.t.Errorf("%s (%s): %s", name, d.url(), p)
	}
	png, err := chromedp.Run(d.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		d.t.Fatalf("screenshot of %s: %v", name, err)
	}
	if err := os.WriteFile(filepath.Join(d.shots, name+".png"), png, 0o644); err != nil {
		d.t.Fatal(err)
	}
}

func (d *driver) wantText(what string) {
	d.t.Helper()
	if !strings.Contains(d.text(), what) {
		d.t.Fatalf("%s does not show %q; it shows:\n%.1500s", d.url(), what, d.text())
	}
}

// screenshotDir is where the browser test saves its screenshots: the
// test's temp dir, or $WEBINFRA_DASHBOARD_SCREENSHOTS (to refresh the
// README's images).
func screenshotDir(t *testing.T) string {
	if dir := os.Getenv("WEBINFRA_DASHBOARD_SCREENSHOTS"); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	return t.TempDir()
}

// The dashboard in a real headless Chromium against a loopback server,
// through every page: sign up, create a key, see its call in the usage log
// and the chart, revoke it, jobs, webhooks (secret, test, a dead-lettered
// delivery replayed), forwarders (add, test, delete), organizations,
// password, export, and deleting the account; each page passes the
// accessibility audit, and a phone-sized window needs no sideways scroll.
func TestDashboardInABrowser(t *testing.T) {
	t.Parallel()
	browser, err := render.FindBrowser("")
	if err != nil {
		testenv.Missing(t, "no Chromium installed (apt-get install chromium); .ci/run installs it")
	}
	hook, collector := newHookReceiver(t), otlptest.NewTLS(t)
	e := newEnv(t, withQueue(hook.srv.Certificate(), collector.Certificate()), withDashboard())
	alloc, cancel := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(browser), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.UserDataDir(t.TempDir()), chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.ProxyServer("http://127.0.0.1:9"), // only loopback (never proxied) is reachable
		chromedp.WindowSize(1100, 800),
	)
	defer cancel()
	ctx, cancel := chromedp.NewContext(alloc)
	defer cancel()
	ctx, cancel = context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()
	d := &driver{t: t, ctx: ctx, base: e.ts.URL, shots: screenshotDir(t)}

	// The audit finds what it looks for: a page breaking each rule.
	bad := newHTTPServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, `<!doctype html><html><head><title> </title></head><body style="background:#fff">`+
			`<h2>no h1 first</h2><h4>skipped h3</h4><input name="q"><img src="x.png"><button></button><a href="/x"></a>`+
			`<p style="color:#999">grey on white is 2.85:1</p><i id="twice"></i><i id="twice"></i></body></html>`)
	})
	d.do(chromedp.Navigate(bad))
	found, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](a11yAudit))
	if err != nil {
		t.Fatal(err)
	}
	for _, rule := range []string{"label:", "single-h1:", "heading-order:", "image-alt:", "button-name:", "link-name:",
		"html-lang:", "document-title:", "duplicate-id:", "color-contrast:"} {
		if !strings.Contains(strings.Join(found, "\n"), rule) {
			t.Errorf("the audit missed %s on a page breaking it; it found %q", rule, found)
		}
	}

	// Sign up: the first developer key is shown once.
	d.open("/dashboard/")
	d.check("login")
	d.open("/dashboard/signup")
	d.fill("#f-email", "ada@example.com",
		"#f-password", "short",
		"#f-password_confirm", "short")
	d.submit("main form button[type=submit]")
	if got := d.eval(`document.activeElement.id + " " + (document.querySelector("#f-password-err") || {}).textContent`); !strings.HasPrefix(got, "f-password ") {
		t.Fatalf("a too-short password: focus and field error %q", got)
	}
	d.check("signup-error")
	d.fill("#f-password", "correct horse battery",
		"#f-password_confirm", "correct horse battery")
	d.submit("main form button[type=submit]")
	dev := d.eval(`document.querySelector("#new-key").textContent`)
	d.check("welcome")

	// Create a key; it is shown once.
	d.open("/dashboard/keys")
	d.fill("#f-label", "ci runner",
		"#f-project_tag", "demo",
		"#f-daily_cap_credits", "100")
	d.submit("form[action='/dashboard/keys'] button[type=submit]")
	raw := d.eval(`document.querySelector("#minted-key").textContent`)
	if !strings.HasPrefix(raw, "osk_") {
		t.Fatalf("minted key %q", raw)
	}
	d.wantText("ci runner")

	// A call with it shows in the usage log, its record, and the chart.
	e.want(e.call("POST", "/v1/extract/contacts", raw, map[string]any{"text": "write to ada@example.com"}), 200)
	hook.set(e.secret(dev), true)
	jobID := e.submit("/v1/scrape/async", raw, map[string]any{"url": page(t).URL, "webhook_url": hook.srv.URL})
	e.flushUsage() // the log now holds these two calls; the polling below stays buffered
	e.jobUntil(dev, jobID, func(j jobView) bool { return webhookOf(j).Status == "dead" })
	d.open("/dashboard/keys")
	d.check("keys")
	d.open("/dashboard/usage")
	d.wantText("/v1/extract/contacts")
	d.fill("#f-endpoint", "/v1/extract/contacts")
	d.submit("form.filter button[type=submit]")
	if n := d.eval(`String(document.querySelectorAll("main tbody tr").length)`); n != "1" {
		t.Fatalf("the endpoint filter shows %s rows, want 1", n)
	}
	d.check("usage")
	csv := d.eval(`fetch(document.querySelector("a[download]").href).then(r => r.text())`)
	if !strings.HasPrefix(csv, "created_at,endpoint,url,status") || !strings.Contains(csv, "/v1/extract/contacts") {
		t.Fatalf("CSV download: %.300s", csv)
	}
	d.submit("main tbody a")
	d.wantText("Credits charged")
	d.check("request")
	d.open("/dashboard/")
	// Three API calls so far: extract/contacts, GET /v1/me (the secret),
	// scrape/async; the dashboard's own calls are not API traffic.
	if summary := d.eval(`document.querySelector("#chart-calls-desc").textContent`); !strings.Contains(summary, ": 3 in all") {
		t.Fatalf("the calls chart says %q, want the 3 calls", summary)
	}
	d.check("overview")

	// Edit the key, rotate it (the old one stops working), revoke the new
	// one: calls with it get 401.
	d.open("/dashboard/keys")
	d.submit("a[aria-label='Edit key " + raw[:12] + "']")
	d.fill("#f-label", "ci runner 2")
	d.submit("main form button[type=submit]")
	d.wantText("ci runner 2")
	d.submit("button[aria-label='Rotate key " + raw[:12] + "']")
	rotated := d.eval(`document.querySelector("#minted-key").textContent`)
	e.want(e.call("GET", "/v1/me", raw, nil), http.StatusUnauthorized)
	e.want(e.call("GET", "/v1/me", rotated, nil), http.StatusOK)
	d.submit("button[aria-label='Revoke key " + rotated[:12] + "']")
	d.wantText("revoked")
	e.want(e.call("GET", "/v1/me", rotated, nil), http.StatusUnauthorized)

	// Jobs.
	d.open("/dashboard/jobs")
	d.wantText(jobID)
	d.check("jobs")
	d.submit("main tbody a")
	d.wantText("_webhook")
	d.check("job")

	// Webhooks: reveal the secret, send a test event, replay the dead letter.
	d.open("/dashboard/webhooks")
	d.do(chromedp.Click(chromedp.CSS("details.secret-box summary")))
	if got := d.eval(`document.querySelector("#webhook-secret").innerText`); got != e.secret(dev) {
		t.Fatalf("revealed secret %q", got)
	}
	d.fill("#f-webhook_url", "http://insecure.example/hook")
	d.submit("form[action='/dashboard/webhooks/test'] button")
	if got := d.eval(`(document.querySelector("#f-webhook_url-err") || {}).textContent || ""`); got == "" {
		t.Fatal("a plain-HTTP webhook URL: no error beside the field")
	}
	d.check("webhooks")
	d.open("/dashboard/webhooks/dead")
	d.wantText(jobID)
	d.check("dead-letters")
	hook.set(e.secret(dev), false)
	d.submit("main tbody button[aria-label^='Replay delivery']")
	d.wantText("Replayed: delivered.")
	d.check("deliveries")
	d.open("/dashboard/webhooks/dead")
	d.wantText("No dead letters")

	// Forwarders: add, test, delete.
	d.open("/dashboard/forwarders")
	d.fill("#f-name", "collector",
		"#f-endpoint", collector.URL(),
		"#f-auth_header", "Authorization",
		"#f-auth_value", "Bearer token-1234")
	d.submit("form[action='/dashboard/forwarders'] button[type=submit]")
	d.wantText("****1234")
	d.submit("button[aria-label^='Test forwarder']")
	d.wantText("accepted the test span")
	d.check("forwarders")
	d.submit("button[aria-label^='Delete forwarder']")
	d.wantText("No forwarders yet")

	// Organizations: create one, add a member, see roles.
	e.signup("bob@example.com")
	d.open("/dashboard/orgs")
	d.fill("#f-name", "Research")
	d.submit("form[action='/dashboard/orgs'] button")
	d.fill("#f-email", "bob@example.com")
	d.submit("form[action$='/members'] button")
	d.wantText("bob@example.com added as member")
	d.check("org")
	d.open("/dashboard/orgs")
	d.check("orgs")

	// Account: change the password, export, and the 409 in words.
	d.open("/dashboard/account")
	d.fill("#f-current_password", "correct horse battery",
		"#f-new_password", "a newer horse battery",
		"#f-new_password_confirm", "a newer horse battery")
	d.submit("form[action='/dashboard/account/password'] button")
	d.wantText("Password changed")
	export := d.eval(`fetch("/dashboard/account/export").then(r => r.json()).then(j => j.profile.email)`)
	if export != "ada@example.com" {
		t.Fatalf("export profile e-mail %q", export)
	}
	d.fill("form[action='/dashboard/account/delete'] #f-password", "a newer horse battery")
	d.submit("form[action='/dashboard/account/delete'] button")
	d.wantText("transfer ownership to another member or remove the other members")
	d.check("account")

	// On a phone-sized window, pages fit without scrolling sideways.
	d.do(chromedp.EmulateViewport(375, 740, chromedp.EmulateMobile))
	for _, path := range []string{"/dashboard/", "/dashboard/keys", "/dashboard/usage", "/dashboard/webhooks"} {
		d.open(path)
		if w := d.eval(`String(document.documentElement.scrollWidth - window.innerWidth)`); w != "0" {
			t.Errorf("%s is %s px wider than a 375 px window", path, w)
		}
	}
	d.check("overview-phone")
	d.do(chromedp.EmulateViewport(1100, 800))

	// Delete the account: remove the member first, then confirm.
	d.open("/dashboard/orgs")
	d.submit("main tbody a")
	d.submit("button[aria-label='Remove bob@example.com']")
	d.open("/dashboard/account")
	d.fill("form[action='/dashboard/account/delete'] #f-password", "a newer horse battery")
	d.submit("form[action='/dashboard/account/delete'] button")
	d.wantText("Account deleted")
	d.check("deleted")
	e.want(e.call("GET", "/v1/me", dev, nil), http.StatusUnauthorized)
}
