-- Reserve and Settle as functions: one round trip each, and the account's
-- row lock held only inside the function, not across round trips. Each
-- statement of a PL/pgSQL function reads what was committed when it began
-- (READ COMMITTED), so the counters and holds are read after the lock is
-- taken. The rules are store.Credits' (the same as
-- store/internal/sqlrow.CheckReservation, which the Go side applies to the
-- returned state to word a refusal); store/storetest proves them alike.

-- +goose Up
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

-- +goose Down
DROP FUNCTION webinfra_settle;
DROP FUNCTION webinfra_reserve;
