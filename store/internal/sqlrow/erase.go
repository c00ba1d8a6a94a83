package sqlrow

import (
	"regexp"

	"github.com/webinfra/webinfra/errs"
)

// Account erasure (store.Accounts.DeleteAccount), the same SQL on both
// drivers. Every statement takes one parameter, $1; the SQLite driver
// rewrites it as ?1 (see SQLiteParams).

// OwnedOrgsSQL lists the team orgs $1 owns: id, name, wallet and how many
// other members each has.
const OwnedOrgsSQL = `SELECT o.id, o.name, coalesce(o.wallet_account_id, 0),
	(SELECT count(*) FROM org_members m WHERE m.org_id = o.id AND m.account_id <> o.owner_account_id)
	FROM orgs o WHERE o.owner_account_id = $1 ORDER BY o.id`

// MembershipsSQL lists the orgs $1 is a member of.
const MembershipsSQL = `SELECT org_id FROM org_members WHERE account_id = $1 ORDER BY org_id`

// UnfinishedJobsOfSQL lists the jobs of account $1, or charged to it, that
// have not finished: erasing them cancels them.
const UnfinishedJobsOfSQL = `SELECT id FROM jobs WHERE (account_id = $1 OR payer_account_id = $1)
	AND status IN ('queued', 'running') ORDER BY created_at, id`

// EraseAccountSQL erases everything stored under account $1 (a person or
// a wallet), then the account row. Jobs charged to it (an org's jobs, made
// with org keys by members) go with it, with their deliveries.
var EraseAccountSQL = []string{
	`DELETE FROM delivery_tries WHERE delivery_id IN (SELECT id FROM webhook_deliveries WHERE account_id = $1)`,
	`DELETE FROM delivery_tries WHERE delivery_id IN (SELECT d.id FROM webhook_deliveries d
		JOIN jobs j ON j.id = d.job_id WHERE j.payer_account_id = $1)`,
	`DELETE FROM webhook_deliveries WHERE account_id = $1`,
	`DELETE FROM webhook_deliveries WHERE job_id IN (SELECT id FROM jobs WHERE payer_account_id = $1)`,
	`DELETE FROM job_files WHERE job_id IN (SELECT id FROM jobs WHERE account_id = $1 OR payer_account_id = $1)`,
	`DELETE FROM jobs WHERE account_id = $1 OR payer_account_id = $1`,
	`DELETE FROM usage WHERE account_id = $1`,
	`DELETE FROM ledger WHERE account_id = $1`,
	`DELETE FROM counters WHERE account_id = $1`,
	`DELETE FROM idempotency WHERE account_id = $1`,
	`DELETE FROM forwarders WHERE account_id = $1`,
	`DELETE FROM keys WHERE account_id = $1`,
	`DELETE FROM org_members WHERE account_id = $1`,
	`DELETE FROM accounts WHERE id = $1`,
}

// EraseOrgSQL erases team org $1 once its members are only the owner:
// every key of the org (the owner's and former members'), its
// memberships and the org row. Its wallet is erased after it.
var EraseOrgSQL = []string{
	`DELETE FROM keys WHERE org_id = $1`,
	`DELETE FROM org_members WHERE org_id = $1`,
	`DELETE FROM orgs WHERE id = $1`,
}

// OwnedOrg is a row of OwnedOrgsSQL.
type OwnedOrg struct {
	ID, Wallet, OtherMembers int64
	Name                     string
}

// ScanOwnedOrg scans a row of OwnedOrgsSQL.
func ScanOwnedOrg(row Scanner) (OwnedOrg, error) {
	var o OwnedOrg
	err := row.Scan(&o.ID, &o.Name, &o.Wallet, &o.OtherMembers)
	return o, err
}

// BlockingOrg is the conflict DeleteAccount returns when the account owns
// an org that still has other members, or nil when none does.
func BlockingOrg(owned []OwnedOrg) error {
	for _, o := range owned {
		if o.OtherMembers > 0 {
			others := "other members"
			if o.OtherMembers == 1 {
				others = "other member"
			}
			return errs.New(errs.KindConflict, "you own the organization %q (org_id %d), which still has %d %s: "+
				"transfer its ownership (POST /v1/orgs/%d/transfer) or remove them first", o.Name, o.ID, o.OtherMembers, others, o.ID)
		}
	}
	return nil
}

// NotAPerson is DeleteAccount's answer for an unknown account or a wallet.
func NotAPerson(accountID int64) error {
	return errs.NotFound("account %d not found", accountID)
}

// SQLiteParams rewrites the $1, $2, ... of the statements shared with
// PostgreSQL as SQLite's ?1, ?2, ...
func SQLiteParams(query string) string {
	return dollarParam.ReplaceAllString(query, "?$1")
}

var dollarParam = regexp.MustCompile(`\$([0-9]+)`)

// ScanInt64 scans a one-column row of an integer.
func ScanInt64(row Scanner) (int64, error) {
	var v int64
	err := row.Scan(&v)
	return v, err
}

// ScanString scans a one-column row of text.
func ScanString(row Scanner) (string, error) {
	var v string
	err := row.Scan(&v)
	return v, err
}
