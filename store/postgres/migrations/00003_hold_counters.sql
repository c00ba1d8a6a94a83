-- Holds and the current period's counters as columns of the rows they
-- limit, so a call's Reserve and Settle are each a few single-row UPDATEs
-- instead of sums over the holds table.
--
-- Under load every call of an account reserves and settles against that
-- account's row. Migration 00002 locked the row, then summed the account's
-- live holds and read two counter rows; the holds table churns (one insert
-- and one delete per call), so each sum walked more dead index entries
-- than the last and the row stayed locked while it did: with 16 clients
-- pgbench measured 700 reserve+settle pairs/s falling to 137 as the table
-- bloated. Here:
--
--   - accounts.held / accounts.holds are the credits and the number of the
--     account's counted holds, keys.held the key's credits held;
--   - accounts.month_key / month_requests and keys.day_key / day_credits
--     are the newest period's counters; a trigger moves the previous
--     period into the counters table when the period changes, so the
--     counters table holds only closed periods (and settlements dated in
--     them);
--   - a hold past its expiry still counts until a Reserve that would be
--     refused sweeps the account's expired holds (counted = false) and
--     decides again, so every refusal is decided on live holds only, as
--     before, and an admission was already within the limits counting
--     every hold;
--   - rows are locked in one order everywhere (the hold, then the account,
--     then keys), so two calls cannot deadlock.

-- +goose Up
ALTER TABLE accounts
    ADD COLUMN held           BIGINT NOT NULL DEFAULT 0,
    ADD COLUMN holds          BIGINT NOT NULL DEFAULT 0,
    ADD COLUMN month_key      BIGINT NOT NULL DEFAULT 0,
    ADD COLUMN month_requests BIGINT NOT NULL DEFAULT 0;
ALTER TABLE keys
    ADD COLUMN held        BIGINT NOT NULL DEFAULT 0,
    ADD COLUMN day_key     BIGINT NOT NULL DEFAULT 0,
    ADD COLUMN day_credits BIGINT NOT NULL DEFAULT 0;
ALTER TABLE holds ADD COLUMN counted BOOLEAN NOT NULL DEFAULT true;

UPDATE accounts a SET held = h.credits, holds = h.n
  FROM (SELECT account_id, sum(credits) AS credits, count(*) AS n FROM holds GROUP BY account_id) h
 WHERE a.id = h.account_id;
UPDATE keys k SET held = h.credits
  FROM (SELECT key_id, sum(credits) AS credits FROM holds GROUP BY key_id) h
 WHERE k.id = h.key_id;
WITH newest AS (
    DELETE FROM counters c USING (
        SELECT account_id, max(period) AS period FROM counters WHERE key_id = 0 GROUP BY account_id) m
     WHERE c.key_id = 0 AND c.account_id = m.account_id AND c.period = m.period
    RETURNING c.account_id, c.period, c.n)
UPDATE accounts a SET month_key = newest.period, month_requests = newest.n FROM newest WHERE a.id = newest.account_id;
WITH newest AS (
    DELETE FROM counters c USING (
        SELECT key_id, max(period) AS period FROM counters WHERE key_id > 0 GROUP BY key_id) m
     WHERE c.key_id = m.key_id AND c.period = m.period
    RETURNING c.key_id, c.period, c.n)
UPDATE keys k SET day_key = newest.period, day_credits = newest.n FROM newest WHERE k.id = newest.key_id;

-- webinfra_count adds n to a closed period's counter.
-- +goose StatementBegin
CREATE FUNCTION webinfra_count(p_account BIGINT, p_key BIGINT, p_period BIGINT, p_n BIGINT) RETURNS void
LANGUAGE sql AS $$
    INSERT INTO counters (account_id, key_id, period, n) SELECT p_account, p_key, p_period, p_n WHERE p_n <> 0
        ON CONFLICT (account_id, key_id, period) DO UPDATE SET n = counters.n + excluded.n;
$$;
-- +goose StatementEnd

-- webinfra_period_n is a counter's value in period p, given the row's
-- newest period (cur, n).
-- +goose StatementBegin
CREATE FUNCTION webinfra_period_n(p_account BIGINT, p_key BIGINT, p BIGINT, cur BIGINT, n BIGINT) RETURNS BIGINT
LANGUAGE sql STABLE AS $$
    SELECT CASE WHEN p = cur THEN n WHEN p > cur THEN 0
        ELSE coalesce((SELECT c.n FROM counters c WHERE c.account_id = p_account AND c.key_id = p_key AND c.period = p), 0) END;
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION webinfra_close_month() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM webinfra_count(OLD.id, 0, OLD.month_key, OLD.month_requests);
    RETURN NEW;
END
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION webinfra_close_day() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM webinfra_count(OLD.account_id, OLD.id, OLD.day_key, OLD.day_credits);
    RETURN NEW;
END
$$;
-- +goose StatementEnd

CREATE TRIGGER accounts_close_month AFTER UPDATE OF month_key ON accounts
    FOR EACH ROW WHEN (OLD.month_key <> NEW.month_key) EXECUTE FUNCTION webinfra_close_month();
CREATE TRIGGER keys_close_day AFTER UPDATE OF day_key ON keys
    FOR EACH ROW WHEN (OLD.day_key <> NEW.day_key) EXECUTE FUNCTION webinfra_close_day();

DROP FUNCTION webinfra_reserve;
DROP FUNCTION webinfra_settle;

-- webinfra_reserve tries the common case first: one UPDATE of the
-- account's row and one of the key's, each admitting only within its
-- limits counting every hold, then the hold's INSERT. If any of them
-- refuses, what it did is undone and the slow path locks the account,
-- sweeps its expired holds and decides on live holds. It returns the
-- state it decided on, which the Go side words a refusal from.
-- +goose StatementBegin
CREATE FUNCTION webinfra_reserve(
    p_request TEXT, p_account BIGINT, p_key BIGINT, p_credits BIGINT,
    p_month BIGINT, p_day BIGINT, p_now BIGINT, p_expires BIGINT, p_stale BIGINT,
    p_quota BIGINT, p_cap BIGINT,
    OUT o_found BOOLEAN, OUT o_inserted BOOLEAN, OUT o_balance BIGINT, OUT o_month_requests BIGINT,
    OUT o_key_today BIGINT, OUT o_live_holds BIGINT, OUT o_held BIGINT, OUT o_key_held BIGINT)
LANGUAGE plpgsql AS $$
BEGIN
    o_found := true; o_inserted := false;
    o_balance := 0; o_month_requests := 0; o_key_today := 0; o_live_holds := 0; o_held := 0; o_key_held := 0;

    UPDATE accounts a SET held = a.held + p_credits, holds = a.holds + 1
     WHERE a.id = p_account AND a.balance - a.held >= p_credits
       AND (p_quota = 0 OR webinfra_period_n(p_account, 0, p_month, a.month_key, a.month_requests) + a.holds + 1 <= p_quota);
    IF FOUND THEN
        UPDATE keys k SET held = k.held + p_credits
         WHERE k.id = p_key AND k.account_id = p_account
           AND (p_cap = 0 OR webinfra_period_n(p_account, p_key, p_day, k.day_key, k.day_credits) + k.held + p_credits <= p_cap);
        IF FOUND THEN
            INSERT INTO holds (request_id, account_id, key_id, credits, expires_at)
                VALUES (p_request, p_account, p_key, p_credits, p_expires) ON CONFLICT (request_id) DO NOTHING;
            IF FOUND THEN
                o_inserted := true;
                RETURN;
            END IF;
            UPDATE keys SET held = held - p_credits WHERE id = p_key;
        END IF;
        UPDATE accounts SET held = held - p_credits, holds = holds - 1 WHERE id = p_account;
    END IF;

    -- Slow path: a limit refused counting every hold, the key is not the
    -- account's, or the hold's name is taken.
    PERFORM 1 FROM accounts WHERE id = p_account FOR UPDATE;
    IF NOT FOUND THEN
        o_found := false;
        RETURN;
    END IF;
    -- Holds being settled or released right now are locked: skip them,
    -- their own statement takes them out of the counters.
    WITH expired AS (
        UPDATE holds h SET counted = false
         WHERE h.request_id IN (SELECT request_id FROM holds
                                 WHERE account_id = p_account AND counted AND expires_at <= p_now
                                 FOR UPDATE SKIP LOCKED)
        RETURNING h.key_id, h.credits),
    per_key AS (
        UPDATE keys k SET held = k.held - e.credits
          FROM (SELECT key_id, sum(credits) AS credits FROM expired GROUP BY key_id) e
         WHERE k.id = e.key_id)
    UPDATE accounts SET held = held - (SELECT coalesce(sum(credits), 0) FROM expired),
                        holds = holds - (SELECT count(*) FROM expired)
     WHERE id = p_account;
    DELETE FROM holds WHERE account_id = p_account AND NOT counted AND expires_at < p_stale;

    SELECT a.balance, webinfra_period_n(p_account, 0, p_month, a.month_key, a.month_requests), a.holds, a.held
      INTO o_balance, o_month_requests, o_live_holds, o_held
      FROM accounts a WHERE a.id = p_account;
    SELECT webinfra_period_n(p_account, p_key, p_day, k.day_key, k.day_credits), k.held
      INTO o_key_today, o_key_held
      FROM keys k WHERE k.id = p_key AND k.account_id = p_account FOR UPDATE;
    o_key_today := coalesce(o_key_today, 0); o_key_held := coalesce(o_key_held, 0);
    IF (p_quota > 0 AND o_month_requests + o_live_holds + 1 > p_quota)
        OR (p_cap > 0 AND o_key_today + o_key_held + p_credits > p_cap)
        OR o_balance - o_held < p_credits THEN
        RETURN;
    END IF;
    INSERT INTO holds (request_id, account_id, key_id, credits, expires_at)
        VALUES (p_request, p_account, p_key, p_credits, p_expires) ON CONFLICT (request_id) DO NOTHING;
    IF NOT FOUND THEN
        RETURN;
    END IF;
    o_inserted := true;
    UPDATE accounts SET held = held + p_credits, holds = holds + 1 WHERE id = p_account;
    UPDATE keys SET held = held + p_credits WHERE id = p_key AND account_id = p_account;
END
$$;
-- +goose StatementEnd

-- webinfra_settle claims the hold (DELETE … RETURNING: a concurrent
-- Settle or Release then finds nothing), then in the same transaction
-- takes it out of the counters, debits the balance, counts the request
-- in its month and the credits in the key's day, and appends the ledger
-- row. A settlement dated in a closed period is added to that period's
-- counter.
-- +goose StatementBegin
CREATE FUNCTION webinfra_settle(
    p_request TEXT, p_charged BIGINT, p_month BIGINT, p_day BIGINT, p_endpoint TEXT, p_now BIGINT,
    OUT o_found BOOLEAN, OUT o_held BIGINT, OUT o_balance BIGINT)
LANGUAGE plpgsql AS $$
DECLARE
    v_account BIGINT;
    v_key     BIGINT;
    v_counted BOOLEAN;
    v_seq     BIGINT;
    v_period  BIGINT;
BEGIN
    DELETE FROM holds h WHERE h.request_id = p_request AND h.credits >= p_charged
        RETURNING h.account_id, h.key_id, h.credits, h.counted INTO v_account, v_key, o_held, v_counted;
    o_found := FOUND;
    IF NOT o_found THEN
        -- unknown, or the charge exceeds the hold (o_balance stays NULL)
        SELECT h.credits INTO o_held FROM holds h WHERE h.request_id = p_request;
        o_found := FOUND;
        RETURN;
    END IF;
    UPDATE accounts a SET
        balance = a.balance - p_charged,
        held = a.held - CASE WHEN v_counted THEN o_held ELSE 0 END,
        holds = a.holds - CASE WHEN v_counted THEN 1 ELSE 0 END,
        month_requests = CASE WHEN a.month_key = p_month THEN a.month_requests + 1
                              WHEN a.month_key < p_month THEN 1 ELSE a.month_requests END,
        month_key = greatest(a.month_key, p_month),
        ledger_seq = a.ledger_seq + CASE WHEN p_charged > 0 THEN 1 ELSE 0 END
     WHERE a.id = v_account
     RETURNING a.balance, a.ledger_seq, a.month_key INTO o_balance, v_seq, v_period;
    IF v_period > p_month THEN
        PERFORM webinfra_count(v_account, 0, p_month, 1);
    END IF;
    UPDATE keys k SET
        held = k.held - CASE WHEN v_counted THEN o_held ELSE 0 END,
        day_credits = CASE WHEN k.day_key = p_day THEN k.day_credits + p_charged
                           WHEN k.day_key < p_day THEN p_charged ELSE k.day_credits END,
        day_key = greatest(k.day_key, p_day)
     WHERE k.id = v_key AND k.account_id = v_account
     RETURNING k.day_key INTO v_period;
    IF v_period > p_day THEN
        PERFORM webinfra_count(v_account, v_key, p_day, p_charged);
    END IF;
    IF p_charged > 0 THEN
        INSERT INTO ledger (account_id, id, delta, balance, reason, endpoint, request_id, key_id, created_at)
            VALUES (v_account, v_seq, -p_charged, o_balance, 'charge', p_endpoint, p_request, v_key, p_now);
    END IF;
END
$$;
-- +goose StatementEnd

-- webinfra_release drops the hold and takes it out of the counters.
-- +goose StatementBegin
CREATE FUNCTION webinfra_release(p_request TEXT) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    v_account BIGINT;
    v_key     BIGINT;
    v_credits BIGINT;
    v_counted BOOLEAN;
BEGIN
    DELETE FROM holds h WHERE h.request_id = p_request
        RETURNING h.account_id, h.key_id, h.credits, h.counted INTO v_account, v_key, v_credits, v_counted;
    IF FOUND AND v_counted THEN
        UPDATE accounts SET held = held - v_credits, holds = holds - 1 WHERE id = v_account;
        UPDATE keys SET held = held - v_credits WHERE id = v_key AND account_id = v_account;
    END IF;
END
$$;
-- +goose StatementEnd

-- +goose Down
DROP FUNCTION webinfra_release;
DROP FUNCTION webinfra_settle;
DROP FUNCTION webinfra_reserve;
DROP TRIGGER keys_close_day ON keys;
DROP TRIGGER accounts_close_month ON accounts;
DROP FUNCTION webinfra_close_day;
DROP FUNCTION webinfra_close_month;
SELECT webinfra_count(id, 0, month_key, month_requests) FROM accounts;
SELECT webinfra_count(account_id, id, day_key, day_credits) FROM keys;
DROP FUNCTION webinfra_period_n;
DROP FUNCTION webinfra_count;
ALTER TABLE holds DROP COLUMN counted;
ALTER TABLE keys DROP COLUMN held, DROP COLUMN day_key, DROP COLUMN day_credits;
ALTER TABLE accounts DROP COLUMN held, DROP COLUMN holds, DROP COLUMN month_key, DROP COLUMN month_requests;
-- Migration 00002's functions, as they were:
-- +goose StatementBegin
CREATE FUNCTION webinfra_reserve(
    p_request TEXT, p_account BIGINT, p_key BIGINT, p_credits BIGINT,
    p_month BIGINT, p_day BIGINT, p_now BIGINT, p_expires BIGINT, p_stale BIGINT,
    p_quota BIGINT, p_cap BIGINT,
    OUT account_found BOOLEAN, OUT inserted BOOLEAN, OUT balance BIGINT, OUT month_requests BIGINT,
    OUT key_today BIGINT, OUT live_holds BIGINT, OUT held BIGINT, OUT key_held BIGINT)
LANGUAGE plpgsql AS $$
BEGIN
    inserted := false;
    balance := 0; month_requests := 0; key_today := 0; live_holds := 0; held := 0; key_held := 0;
    SELECT a.balance INTO balance FROM accounts a WHERE a.id = p_account FOR UPDATE;
    account_found := FOUND;
    IF NOT account_found THEN
        balance := 0; -- SELECT INTO without a row set it to NULL
        RETURN;
    END IF;
    SELECT coalesce((SELECT n FROM counters WHERE account_id = p_account AND key_id = 0 AND period = p_month), 0),
           coalesce((SELECT n FROM counters WHERE account_id = p_account AND key_id = p_key AND period = p_day), 0)
      INTO month_requests, key_today;
    SELECT count(*), coalesce(sum(credits), 0), coalesce(sum(credits) FILTER (WHERE key_id = p_key), 0)
      INTO live_holds, held, key_held
      FROM holds WHERE account_id = p_account AND expires_at > p_now;
    IF (p_quota > 0 AND month_requests + live_holds + 1 > p_quota)
        OR (p_cap > 0 AND key_today + key_held + p_credits > p_cap)
        OR balance - held < p_credits THEN
        RETURN;
    END IF;
    DELETE FROM holds WHERE account_id = p_account AND expires_at < p_stale;
    INSERT INTO holds (request_id, account_id, key_id, credits, expires_at)
        VALUES (p_request, p_account, p_key, p_credits, p_expires)
        ON CONFLICT (request_id) DO NOTHING;
    inserted := FOUND;
END
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION webinfra_settle(
    p_request TEXT, p_charged BIGINT, p_month BIGINT, p_day BIGINT, p_endpoint TEXT, p_now BIGINT,
    OUT hold_found BOOLEAN, OUT held BIGINT, OUT balance BIGINT)
LANGUAGE plpgsql AS $$
DECLARE
    v_account BIGINT;
    v_key BIGINT;
    v_seq BIGINT;
BEGIN
    SELECT h.account_id, h.key_id, h.credits INTO v_account, v_key, held
      FROM holds h WHERE h.request_id = p_request FOR UPDATE;
    hold_found := FOUND;
    IF NOT hold_found OR p_charged > held THEN
        RETURN;
    END IF;
    DELETE FROM holds WHERE request_id = p_request;
    INSERT INTO counters (account_id, key_id, period, n) VALUES (v_account, 0, p_month, 1)
        ON CONFLICT (account_id, key_id, period) DO UPDATE SET n = counters.n + 1;
    IF p_charged = 0 THEN
        SELECT a.balance INTO balance FROM accounts a WHERE a.id = v_account;
        RETURN;
    END IF;
    INSERT INTO counters (account_id, key_id, period, n) VALUES (v_account, v_key, p_day, p_charged)
        ON CONFLICT (account_id, key_id, period) DO UPDATE SET n = counters.n + excluded.n;
    UPDATE accounts SET balance = accounts.balance - p_charged, ledger_seq = ledger_seq + 1
        WHERE id = v_account RETURNING accounts.balance, ledger_seq INTO balance, v_seq;
    INSERT INTO ledger (account_id, id, delta, balance, reason, endpoint, request_id, key_id, created_at)
        VALUES (v_account, v_seq, -p_charged, balance, 'charge', p_endpoint, p_request, v_key, p_now);
END
$$;
-- +goose StatementEnd
