-- Holds of calls in flight now live in the memory of the one process that
-- serves the file (see the package documentation), so the holds table of
-- 00001 is dropped. Holds left in it belonged to calls of a process that
-- has since stopped; none of them is still in flight.

-- +goose Up
DROP TABLE holds;

-- +goose Down
CREATE TABLE holds (
    request_id TEXT    PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts (id),
    key_id     INTEGER NOT NULL,
    credits    INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
) WITHOUT ROWID;

CREATE INDEX holds_account_expiry ON holds (account_id, expires_at);
