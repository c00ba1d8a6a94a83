// Package captcha solves captchas behind one seam, Solver, and backs
// POST /v1/captcha/solve (Client.Solve) and POST /v1/captcha/auto
// (Client.Auto).
//
// # Types and solvers
//
// A captcha is an image to read (TypeImage, answered with its text) or a
// widget answered with a token: TypeRecaptchaV2, TypeRecaptchaV3,
// TypeHCaptcha, TypeTurnstile. Three solvers are built in:
//
//   - "2captcha" (NewTwoCaptcha): 2Captcha's JSON task API v2, every type
//     (RecaptchaV2TaskProxyless, RecaptchaV3TaskProxyless,
//     HCaptchaTaskProxyless, TurnstileTaskProxyless, ImageToTextTask).
//   - "capsolver" (NewCapSolver): CapSolver's task API, every type but
//     hCaptcha (ReCaptchaV2TaskProxyLess, ReCaptchaV3TaskProxyLess,
//     AntiTurnstileTaskProxyLess, ImageToTextTask).
//   - "local" (NewLocal): an OCR engine on this machine (the OCR interface;
//     the server adapts tesseract), images only.
//
// Options.Solvers adds others. A remote provider is configured by its
// key (server flags --twocaptcha-key and --capsolver-key, environment
// WEBINFRA_TWOCAPTCHA_KEY and WEBINFRA_CAPSOLVER_KEY) and optionally the
// base URL of a compatible API (Options.TwoCaptchaURL, CapSolverURL). The
// URL is the operator's configuration, never a caller's input, so the
// provider client need not be SSRF-guarded; a caller's page_url is only
// passed to the provider, never fetched here.
//
// # The providers' protocol
//
// Both speak POST {base}/createTask {"clientKey","task":{"type",
// "websiteURL","websiteKey",...}}, answered {"errorId":0,"taskId":...}
// (a number at 2Captcha, a string at CapSolver, sent back as received),
// then POST {base}/getTaskResult {"clientKey","taskId"}, answered
// {"status":"processing"} until {"status":"ready","solution":{...}}; the
// token is solution.gRecaptchaResponse or solution.token, an image's text
// solution.text, and solution.userAgent is passed on. An answer that is
// ready at creation (CapSolver's ImageToTextTask) needs no polling. The
// first getTaskResult comes Options.InitialDelay after creation, the next
// ones every Options.PollInterval (both 5 s by default, as the providers
// recommend), for at most Options.Timeout (120 s). Answers are read up to
// Options.MaxResponseBytes.
//
// # Routing
//
// A request naming a provider goes to it: an unknown name is
// errs.KindInvalid ("provider"), a built-in one that is not configured
// errs.KindUnavailable naming its setting, one that does not solve the
// type errs.KindInvalid ("provider", naming those that do). Otherwise the
// first configured solver that supports the type takes it, in the fixed
// order 2captcha, capsolver, local, then Options.Solvers. Remote providers
// come first even for images: an OCR engine reads plain printed text well
// but most captcha text poorly, and a wrong answer cannot be detected
// here. A caller with plain text images names "local" to keep the image
// on the server and pay no provider. A failed solve is not retried on
// another solver (a token solved twice is paid twice). No solver for the
// type is errs.KindUnavailable naming the flags and environment
// variables that would configure one.
//
// # Errors
//
// Bad input is errs.KindInvalid naming the field (type, image_base64,
// sitekey, page_url, action, min_score, invisible, case_sensitive,
// provider, url). A provider's {"errorId":N,"errorCode","errorDescription"}
// is errs.KindUpstream naming the provider and the code, with a hint for
// the codes an operator acts on (key refused, no balance: naming the key's
// flag) and RetryAfter for "busy" codes; an unusable answer (no taskId, no
// token, invalid JSON, an HTTP error, too large) is errs.KindUpstream; no
// answer in time is errs.KindTimeout. Messages name the provider, never
// its address or the operator's key.
//
// # Auto
//
// Client.Auto fetches the page through the fetcher (its SSRF guard and
// tiers), finds the widgets (Detect), and solves the first one a
// configured solver can take with page_url set to the page's final URL.
// A page without a widget is errs.KindInvalid on "url", saying so (and
// when the page loads a widget script without naming its sitekey).
//
// Package captchatest runs fake 2Captcha and CapSolver APIs on loopback.
package captcha
