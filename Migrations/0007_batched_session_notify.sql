-- Group-committed session changes are announced once per transaction (issue 15, "Writes").
--
-- A transaction that first sets `parley.session_changes` to '+' (the group committer's batches
-- do, see SessionStore.batchOpening) collects the "<hex key>:<rev>" of every session row it
-- updates instead of notifying each, and its last statement before COMMIT
-- (SessionStore.batchClosing) sends them as one `parley_sessions` notification, the entries
-- comma-separated (at most 100 per notification: NOTIFY payloads stop at 8000 bytes). It is
-- still part of the transaction, so it is delivered if and only if the changes commit.
-- Every other writer (the expiry sweeper, erasure, a process of an older release) notifies
-- per row as before, with the same "<hex key>:<rev>" payload: a list of one.
--
-- One notification per batch instead of one per answer: each process's listener wakes once per
-- batch, and Postgres queues, signals and delivers once per batch.
CREATE OR REPLACE FUNCTION parley_notify_session() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    collected text := current_setting('parley.session_changes', true);
    change text := encode(NEW.key, 'hex') || ':' || NEW.rev;
BEGIN
    IF collected LIKE '+%' THEN
        PERFORM set_config('parley.session_changes', collected || ',' || change, true);
    ELSE
        PERFORM pg_notify('parley_sessions', change);
    END IF;
    RETURN NEW;
END
$$;
