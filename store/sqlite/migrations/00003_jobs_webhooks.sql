-- Asynchronous jobs and webhook deliveries (store.Jobs, store.Webhooks).
-- Times are unix milliseconds, UTC; JSON documents are stored as BLOBs,
-- byte for byte as the caller passed them.

-- +goose Up
-- jobs keeps its rowid (the id is random hex): listings break ties of
-- created_at by insertion order, and the indexes stay compact.
CREATE TABLE jobs (
    id          TEXT    NOT NULL PRIMARY KEY,
    account_id  INTEGER NOT NULL REFERENCES accounts (id),
    key_id      INTEGER NOT NULL,
    kind        TEXT    NOT NULL,
    input       BLOB    NOT NULL,
    status      TEXT    NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'failed')),
    attempts    INTEGER NOT NULL DEFAULT 0,
    result      BLOB,
    error       TEXT    NOT NULL DEFAULT '',
    webhook_url TEXT    NOT NULL DEFAULT '',
    -- The webhook delivery FinishJob created with the final status (no
    -- foreign key: 0 means none, and deliveries are never deleted).
    delivery_id INTEGER NOT NULL DEFAULT 0,
    credits     INTEGER NOT NULL DEFAULT 0 CHECK (credits >= 0),
    refunded    INTEGER NOT NULL DEFAULT 0 CHECK (refunded BETWEEN 0 AND credits),
    created_at  INTEGER NOT NULL,
    started_at  INTEGER,
    finished_at INTEGER
);

-- ListJobs: an account's jobs, newest first. The index is ascending and
-- read backwards: its entries end with the rowid in ascending order, so
-- only a backward scan yields ORDER BY created_at DESC, rowid DESC
-- without a sort (a DESC column here would need one for the rowid).
CREATE INDEX jobs_account_time ON jobs (account_id, created_at);
-- UnfinishedJobs: only queued and running jobs are indexed, oldest first,
-- so recovery after a restart never scans the finished history. Queries
-- must repeat the WHERE clause verbatim to use it.
CREATE INDEX jobs_unfinished ON jobs (created_at) WHERE status IN ('queued', 'running');

CREATE TABLE webhook_deliveries (
    id               INTEGER PRIMARY KEY,
    account_id       INTEGER NOT NULL REFERENCES accounts (id),
    event_id         TEXT    NOT NULL,
    job_id           TEXT    NOT NULL DEFAULT '', -- '' for test deliveries
    url              TEXT    NOT NULL,
    payload          BLOB    NOT NULL,
    status           TEXT    NOT NULL CHECK (status IN ('pending', 'delivered', 'dead')),
    attempts         INTEGER NOT NULL DEFAULT 0,
    last_status_code INTEGER NOT NULL DEFAULT 0,
    last_error       TEXT    NOT NULL DEFAULT '',
    created_at       INTEGER NOT NULL,
    updated_at       INTEGER NOT NULL
);

-- ListDeliveries: an account's deliveries, newest first (read backwards,
-- as jobs_account_time), and the dead-letter list alone (a partial index:
-- queries must say status = 'dead' literally to use it).
CREATE INDEX webhook_deliveries_account ON webhook_deliveries (account_id, created_at);
CREATE INDEX webhook_deliveries_dead ON webhook_deliveries (account_id, created_at) WHERE status = 'dead';
-- PendingDeliveries: every account's pending deliveries, oldest first.
CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (created_at) WHERE status = 'pending';

-- The delivery log: one row per HTTP POST, appended, never updated.
CREATE TABLE delivery_tries (
    id          INTEGER PRIMARY KEY,
    delivery_id INTEGER NOT NULL REFERENCES webhook_deliveries (id),
    attempt     INTEGER NOT NULL,
    try         INTEGER NOT NULL,
    status_code INTEGER NOT NULL DEFAULT 0,
    error       TEXT    NOT NULL DEFAULT '',
    latency_ms  REAL    NOT NULL DEFAULT 0,
    at          INTEGER NOT NULL
);

CREATE INDEX delivery_tries_delivery ON delivery_tries (delivery_id, at);

-- +goose Down
DROP TABLE delivery_tries;
DROP TABLE webhook_deliveries;
DROP TABLE jobs;
