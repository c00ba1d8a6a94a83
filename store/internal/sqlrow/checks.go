package sqlrow

import (
	"strings"
	"time"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/store"
)

// ValidNewAccount checks what CreateAccount needs and returns the e-mail
// as accounts store it.
func ValidNewAccount(acct store.NewAccount) (email string, err error) {
	email = NormalizeEmail(acct.Email)
	if email == "" || !strings.Contains(email, "@") {
		return "", errs.New(errs.KindInvalid, "store: create account: empty e-mail")
	}
	switch acct.Login {
	case "", store.LoginPassword:
		if acct.PasswordHash == "" {
			return "", errs.New(errs.KindInvalid, "store: create account: a password account without a password hash")
		}
	case store.LoginOAuth:
		if acct.PasswordHash != "" {
			return "", errs.New(errs.KindInvalid, "store: create account: an OAuth-only account has no password")
		}
	default:
		return "", errs.New(errs.KindInvalid, "store: create account: unknown login %q", acct.Login)
	}
	if acct.InitialCredits < 0 {
		return "", errs.New(errs.KindInvalid, "store: create account: negative initial credits")
	}
	return email, nil
}

// ValidReservation checks a reservation's own fields.
func ValidReservation(r store.Reservation) error {
	switch {
	case r.RequestID == "":
		return errs.New(errs.KindInvalid, "store: reserve: empty request id")
	case r.Credits < 0:
		return errs.New(errs.KindInvalid, "store: reserve: negative credits %d", r.Credits)
	case r.TTL <= 0:
		return errs.New(errs.KindInvalid, "store: reserve: hold TTL must be positive, got %s", r.TTL)
	}
	return nil
}

// Account is what Reserve decides on: the balance, the month's settled
// requests, the key's credits charged today, and the live holds (how many,
// their credits, and those of the key).
type Account struct {
	Balance, MonthRequests, KeyToday int64
	LiveHolds, Held, KeyHeld         int64
}

// CheckReservation applies Reserve's checks in the seam's order: the
// monthly quota, the key's daily cap, then the balance less the holds.
func CheckReservation(r store.Reservation, a Account) error {
	if r.MonthlyQuota > 0 && a.MonthRequests+a.LiveHolds+1 > r.MonthlyQuota {
		return errs.New(errs.KindQuotaExceeded, "monthly request quota of %d requests is spent", r.MonthlyQuota)
	}
	if r.DailyCap > 0 && a.KeyToday+a.KeyHeld+r.Credits > r.DailyCap {
		return errs.New(errs.KindQuotaExceeded, "daily credit cap of %d credits for this key is spent", r.DailyCap)
	}
	if available := a.Balance - a.Held; available < r.Credits {
		return errs.New(errs.KindPaymentRequired, "insufficient credits: balance %d, this call costs %d", available, r.Credits)
	}
	return nil
}

// ValidOutcome checks a job outcome before FinishJob touches anything.
func ValidOutcome(o store.JobOutcome) error {
	switch {
	case o.Status != store.JobCompleted && o.Status != store.JobFailed:
		return errs.New(errs.KindInvalid, "store: finish job: status %q is not final", o.Status)
	case o.Refund < 0:
		return errs.New(errs.KindInvalid, "store: finish job: negative refund %d", o.Refund)
	}
	if err := CheckJSON("job result", o.Result); err != nil {
		return err
	}
	if err := validJobFiles(o.Files); err != nil {
		return err
	}
	if o.Delivery != nil {
		return ValidNewDelivery(*o.Delivery, "finish job")
	}
	return nil
}

// ValidAttempt checks an attempt record before FinishAttempt writes it.
func ValidAttempt(a store.AttemptRecord) error {
	switch {
	case !ValidDeliveryStatus(a.Status):
		return errs.New(errs.KindInvalid, "store: finish attempt: unknown status %q", a.Status)
	case a.Attempts < 0:
		return errs.New(errs.KindInvalid, "store: finish attempt: negative attempts %d", a.Attempts)
	}
	for _, t := range a.Tries {
		switch {
		case t.Attempt < 1 || t.Try < 1:
			return errs.New(errs.KindInvalid, "store: finish attempt: try of attempt %d, try %d: both are 1-based", t.Attempt, t.Try)
		case t.DeliveryID != 0 && t.DeliveryID != a.DeliveryID:
			return errs.New(errs.KindInvalid, "store: finish attempt: a try of delivery %d in the record of delivery %d", t.DeliveryID, a.DeliveryID)
		}
	}
	return nil
}

// maxUsageDays bounds the span UsageDaily fills, about ten years.
const maxUsageDays = 3660

// MsPerDay is one day in the stored time unit.
const MsPerDay = 24 * 60 * 60 * 1000

// DayBuckets returns UsageDaily's zero-filled buckets, one per UTC day from
// since's day to now's, and the start of the first; none when since is
// after now.
func DayBuckets(since, now time.Time) (first time.Time, out []store.UsageDay, err error) {
	first, last := DayStart(since), DayStart(now)
	if first.After(last) {
		return first, []store.UsageDay{}, nil
	}
	days := int(last.Sub(first)/(24*time.Hour)) + 1
	if days > maxUsageDays {
		return first, nil, errs.New(errs.KindInvalid, "store: usage daily: %d days is more than %d", days, maxUsageDays)
	}
	out = make([]store.UsageDay, days)
	for i := range out {
		out[i].Day = first.AddDate(0, 0, i).Format(time.DateOnly)
	}
	return first, out, nil
}

// SuccessRate is the percentage of calls that succeeded; 100 when none.
func SuccessRate(ok, total int64) float64 {
	if total == 0 {
		return 100
	}
	return float64(ok) * 100 / float64(total)
}

// LoginOf is how the new account signs in ("" is a password).
func LoginOf(acct store.NewAccount) store.Login {
	if acct.Login == "" {
		return store.LoginPassword
	}
	return acct.Login
}

// validJobFiles checks the files a finishing job stores.
func validJobFiles(files []store.JobFile) error {
	if len(files) > store.MaxJobFiles {
		return errs.New(errs.KindInvalid, "store: finish job: %d files, at most %d", len(files), store.MaxJobFiles)
	}
	seen := map[string]bool{}
	for _, f := range files {
		switch {
		case f.Name == "" || len(f.Name) > 128 || seen[f.Name]:
			return errs.New(errs.KindInvalid, "store: finish job: file name %q is empty, too long or repeated", f.Name)
		case len(f.Data) > store.MaxJobFileBytes:
			return errs.New(errs.KindInvalid, "store: finish job: file %q has %d bytes, at most %d", f.Name, len(f.Data), store.MaxJobFileBytes)
		case f.ContentType == "":
			return errs.New(errs.KindInvalid, "store: finish job: file %q has no content type", f.Name)
		}
		seen[f.Name] = true
	}
	return nil
}

// InsertJobFileSQL stores one file of a job ($1 job id, $2 name, $3
// content type, $4 data).
const InsertJobFileSQL = `INSERT INTO job_files (job_id, name, content_type, data) VALUES ($1, $2, $3, $4)`

// JobFileSQL reads one file of one of an account's jobs ($1 account,
// $2 job id, $3 name).
const JobFileSQL = `SELECT f.content_type, f.data FROM job_files f JOIN jobs j ON j.id = f.job_id
	WHERE j.account_id = $1 AND f.job_id = $2 AND f.name = $3`
