-- The account system's schema. Times are unix milliseconds, UTC.
-- Months are keyed YYYYMM and days YYYYMMDD (UTC) as integers.
-- Reserve and Settle run on every charged call, so the tables they write
-- are laid out to dirty as few pages as possible per transaction.

-- +goose Up
CREATE TABLE accounts (
    id             INTEGER PRIMARY KEY,
    email          TEXT    NOT NULL UNIQUE,
    password_hash  TEXT    NOT NULL,
    plan           TEXT    NOT NULL,
    webhook_secret TEXT    NOT NULL,
    balance        INTEGER NOT NULL DEFAULT 0,
    ledger_seq     INTEGER NOT NULL DEFAULT 0, -- the id of the account's newest ledger row
    created_at     INTEGER NOT NULL
);

CREATE TABLE orgs (
    id               INTEGER PRIMARY KEY,
    name             TEXT    NOT NULL,
    owner_account_id INTEGER NOT NULL REFERENCES accounts (id),
    created_at       INTEGER NOT NULL
);

CREATE TABLE org_members (
    org_id     INTEGER NOT NULL REFERENCES orgs (id),
    account_id INTEGER NOT NULL REFERENCES accounts (id),
    created_at INTEGER NOT NULL,
    PRIMARY KEY (org_id, account_id)
) WITHOUT ROWID;

CREATE INDEX org_members_account ON org_members (account_id, org_id);

CREATE TABLE keys (
    id                INTEGER PRIMARY KEY,
    account_id        INTEGER NOT NULL REFERENCES accounts (id),
    hash              BLOB    NOT NULL,
    prefix            TEXT    NOT NULL,
    kind              TEXT    NOT NULL,
    label             TEXT    NOT NULL DEFAULT '',
    project_tag       TEXT    NOT NULL DEFAULT '',
    daily_cap_credits INTEGER NOT NULL DEFAULT 0,
    org_id            INTEGER REFERENCES orgs (id),
    created_at        INTEGER NOT NULL,
    revoked_at        INTEGER
);

CREATE UNIQUE INDEX keys_hash ON keys (hash);
CREATE INDEX keys_account ON keys (account_id, id);

-- A hold reserves credits and one request of quota for a call in flight.
-- It counts while the reserving call's now < expires_at (created_at + TTL).
CREATE TABLE holds (
    request_id TEXT    PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts (id),
    key_id     INTEGER NOT NULL,
    credits    INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
) WITHOUT ROWID;

CREATE INDEX holds_account_expiry ON holds (account_id, expires_at);

-- The ledger is clustered by account: id is a per-account sequence taken
-- from accounts.ledger_seq in the same UPDATE that changes the balance.
CREATE TABLE ledger (
    account_id INTEGER NOT NULL REFERENCES accounts (id),
    id         INTEGER NOT NULL,
    delta      INTEGER NOT NULL,
    balance    INTEGER NOT NULL,
    reason     TEXT    NOT NULL,
    endpoint   TEXT    NOT NULL DEFAULT '',
    request_id TEXT    NOT NULL DEFAULT '',
    key_id     INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (account_id, id)
) WITHOUT ROWID;

-- Counters of settled calls, one table so an account's rows share pages:
-- key_id 0 counts the account's requests in the month period (YYYYMM);
-- key_id > 0 sums the key's credits charged in the day period (YYYYMMDD).
CREATE TABLE counters (
    account_id INTEGER NOT NULL,
    key_id     INTEGER NOT NULL,
    period     INTEGER NOT NULL,
    n          INTEGER NOT NULL,
    PRIMARY KEY (account_id, key_id, period)
) WITHOUT ROWID;

CREATE TABLE usage (
    id              INTEGER PRIMARY KEY,
    request_id      TEXT    NOT NULL,
    account_id      INTEGER NOT NULL,
    key_id          INTEGER NOT NULL,
    created_at      INTEGER NOT NULL,
    endpoint        TEXT    NOT NULL,
    method          TEXT    NOT NULL,
    url             TEXT    NOT NULL,
    status          INTEGER NOT NULL,
    time_ms         REAL    NOT NULL,
    credits_charged INTEGER NOT NULL,
    tier_used       TEXT    NOT NULL
);

CREATE UNIQUE INDEX usage_request ON usage (request_id);
CREATE INDEX usage_account_time ON usage (account_id, created_at);
CREATE INDEX usage_account_endpoint_time ON usage (account_id, endpoint, created_at);

CREATE TABLE idempotency (
    account_id   INTEGER NOT NULL,
    key          TEXT    NOT NULL,
    request_hash BLOB    NOT NULL,
    done         INTEGER NOT NULL DEFAULT 0,
    status       INTEGER NOT NULL DEFAULT 0,
    header       TEXT    NOT NULL DEFAULT '',
    body         BLOB,
    expires_at   INTEGER NOT NULL,
    PRIMARY KEY (account_id, key)
) WITHOUT ROWID;

CREATE INDEX idempotency_expiry ON idempotency (expires_at);

-- +goose Down
DROP TABLE idempotency;
DROP TABLE usage;
DROP TABLE counters;
DROP TABLE ledger;
DROP TABLE holds;
DROP TABLE keys;
DROP TABLE org_members;
DROP TABLE orgs;
DROP TABLE accounts;
