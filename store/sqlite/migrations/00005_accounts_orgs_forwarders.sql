-- Account lifecycle, organizations and telemetry forwarders (issue 15).
--
--   - accounts.kind: 'user' is a person; 'org' is the wallet of a team
--     organization (its balance, ledger and usage: an org key's calls are
--     charged to it). Wallets never log in: their e-mail column holds
--     'org:<org id>', which is not an address.
--   - accounts.login: how a person signs in, 'password' or 'oauth'
--     (OAuth-only accounts confirm deletion with their e-mail).
--   - orgs.wallet_account_id: the org's wallet; existing orgs get one.
--   - org_members.role: owner, admin or member; existing owners become
--     'owner'.
--   - jobs.payer_account_id: the account charged for the job (the org's
--     wallet for a job submitted with an org key), which its refund goes
--     to; NULL means the job's own account.
--   - forwarders: an account's OTLP/HTTP telemetry destinations; the
--     auth value and extra headers are sealed by the server (secretbox).

-- +goose Up
ALTER TABLE accounts ADD COLUMN kind TEXT NOT NULL DEFAULT 'user' CHECK (kind IN ('user', 'org'));
ALTER TABLE accounts ADD COLUMN login TEXT NOT NULL DEFAULT 'password' CHECK (login IN ('password', 'oauth'));

ALTER TABLE orgs ADD COLUMN wallet_account_id INTEGER REFERENCES accounts (id);
INSERT INTO accounts (email, password_hash, plan, webhook_secret, balance, created_at, kind)
    SELECT 'org:' || o.id, '', a.plan, '', 0, o.created_at, 'org'
    FROM orgs o JOIN accounts a ON a.id = o.owner_account_id;
UPDATE orgs SET wallet_account_id = (SELECT id FROM accounts WHERE email = 'org:' || orgs.id);
CREATE UNIQUE INDEX orgs_wallet ON orgs (wallet_account_id);
CREATE INDEX orgs_owner ON orgs (owner_account_id);

ALTER TABLE org_members ADD COLUMN role TEXT NOT NULL DEFAULT 'member' CHECK (role IN ('owner', 'admin', 'member'));
UPDATE org_members SET role = 'owner'
    WHERE account_id = (SELECT owner_account_id FROM orgs WHERE orgs.id = org_members.org_id);
CREATE INDEX keys_org ON keys (org_id, account_id) WHERE org_id IS NOT NULL;

ALTER TABLE jobs ADD COLUMN payer_account_id INTEGER;
CREATE INDEX jobs_payer ON jobs (payer_account_id) WHERE payer_account_id IS NOT NULL;

CREATE TABLE forwarders (
    id               INTEGER PRIMARY KEY,
    account_id       INTEGER NOT NULL REFERENCES accounts (id),
    name             TEXT    NOT NULL DEFAULT '',
    endpoint         TEXT    NOT NULL,
    auth_header      TEXT    NOT NULL DEFAULT '',
    auth_sealed      BLOB,
    headers_sealed   BLOB,
    created_at       INTEGER NOT NULL,
    last_test_at     INTEGER,
    last_test_status TEXT    NOT NULL DEFAULT '',
    last_test_detail TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX forwarders_account ON forwarders (account_id, id);

-- +goose Down
DROP TABLE forwarders;
DROP INDEX jobs_payer;
ALTER TABLE jobs DROP COLUMN payer_account_id;
DROP INDEX keys_org;
ALTER TABLE org_members DROP COLUMN role;
DROP INDEX orgs_owner;
DROP INDEX orgs_wallet;
ALTER TABLE orgs DROP COLUMN wallet_account_id;
DELETE FROM ledger WHERE account_id IN (SELECT id FROM accounts WHERE kind = 'org');
DELETE FROM counters WHERE account_id IN (SELECT id FROM accounts WHERE kind = 'org');
DELETE FROM usage WHERE account_id IN (SELECT id FROM accounts WHERE kind = 'org');
DELETE FROM idempotency WHERE account_id IN (SELECT id FROM accounts WHERE kind = 'org');
DELETE FROM accounts WHERE kind = 'org';
ALTER TABLE accounts DROP COLUMN login;
ALTER TABLE accounts DROP COLUMN kind;
