-- The session log is the truth (issue 27, docs/design-notes.md "The session log is the truth").
--
-- An answer is one row appended to `session_log`, guarded by its primary key: revs are dense, so
-- an append at rev + 1 succeeds only for a writer that saw the latest rev, and a duplicate key is
-- the stale-rev 409. The `sessions` row changes at start, completion, expiry and erasure only.
-- The log is partitioned by the month its session started (every row of a session in one
-- partition, so the key can hold the partition key), and retention drops whole months.

ALTER TABLE session_log RENAME TO session_log_0008;
ALTER TABLE session_log_0008 RENAME CONSTRAINT session_log_pkey TO session_log_0008_pkey;
DROP TRIGGER session_log_append_only ON session_log_0008;

CREATE TABLE session_log (
    session_key   bytea NOT NULL,
    rev           integer NOT NULL CHECK (rev > 0),
    -- The UTC month the session started as yyyymm (202611): the partition key, fixed for the
    -- session's life (taken from its start, never from a clock at append time).
    month         integer NOT NULL,
    kind          text NOT NULL CHECK (kind IN ('start', 'answer', 'back', 'expire', 'say', 'goto', 'erase')),
    step          text NOT NULL,
    answers       jsonb,
    outcome       jsonb,
    next_step     text,
    core_version  text NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now(),
    -- When the session expires if idle after this change (NULL on rows written before this
    -- migration: the session row's expiry holds for them).
    expires_at    timestamptz,
    -- How many steps the path holds after this change: the funnel reads a path from the
    -- depths of its appends without folding answers.
    depth         integer NOT NULL DEFAULT 0,
    PRIMARY KEY (session_key, rev, month)
) PARTITION BY RANGE (month);
CREATE TRIGGER session_log_append_only BEFORE UPDATE OR DELETE ON session_log
    FOR EACH ROW EXECUTE FUNCTION parley_guard_session_log();
-- Rows of a month with no partition of their own: never a failed write.
CREATE TABLE session_log_default PARTITION OF session_log DEFAULT;

-- yyyymm of an instant, in UTC.
CREATE FUNCTION parley_log_month(at timestamptz) RETURNS integer LANGUAGE sql IMMUTABLE AS $$
    SELECT (extract(year FROM at AT TIME ZONE 'UTC') * 100 + extract(month FROM at AT TIME ZONE 'UTC'))::integer
$$;

-- Creates the partition of `month` (yyyymm) unless it exists. One creator at a time (an
-- advisory lock): every server calls this on its sweeps. A month already written to the default
-- partition is left there (logged) rather than failing the caller.
CREATE FUNCTION parley_session_log_partition(month integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    name text := 'session_log_' || month;
    next integer := CASE WHEN month % 100 = 12 THEN month + 89 ELSE month + 1 END;
BEGIN
    IF to_regclass(name) IS NOT NULL THEN
        RETURN;
    END IF;
    PERFORM pg_advisory_xact_lock(hashtextextended('parley.session_log_partitions', 0));
    IF to_regclass(name) IS NOT NULL THEN
        RETURN;
    END IF;
    BEGIN
        EXECUTE format('CREATE TABLE %I PARTITION OF session_log FOR VALUES FROM (%s) TO (%s)', name, month, next);
    EXCEPTION WHEN check_violation THEN
        RAISE WARNING 'session_log rows of % are in the default partition; its partition was not created', month;
    END;
END
$$;

-- The partitions of this month and the next `ahead` months.
CREATE FUNCTION parley_session_log_partitions_ahead(ahead integer DEFAULT 2) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    month integer := parley_log_month(now());
BEGIN
    FOR n IN 0..ahead LOOP
        PERFORM parley_session_log_partition(month);
        month := CASE WHEN month % 100 = 12 THEN month + 89 ELSE month + 1 END;
    END LOOP;
END
$$;

-- Every month an existing session started in, and the months ahead.
SELECT parley_session_log_partition(m)
FROM (SELECT DISTINCT parley_log_month(created_at) AS m FROM sessions) AS months;
SELECT parley_session_log_partitions_ahead(2);

-- Existing logs, with the path depth each change left (the same walk the server folds).
DO $$
DECLARE
    r record;
    current bytea;
    path text[];
    here text;
    position integer;
BEGIN
    FOR r IN
        SELECT l.*, parley_log_month(s.created_at) AS started_month
        FROM session_log_0008 l JOIN sessions s ON s.key = l.session_key
        ORDER BY l.session_key, l.rev
    LOOP
        IF current IS DISTINCT FROM r.session_key THEN
            current := r.session_key;
            path := '{}';
            here := r.step;
        END IF;
        CASE r.kind
            WHEN 'start' THEN
                path := '{}';
                here := r.step;
            WHEN 'answer' THEN
                path := path || r.step;
                here := coalesce(r.next_step, r.step);
            WHEN 'back' THEN
                path := path[1:greatest(cardinality(path) - 1, 0)];
                here := r.step;
            WHEN 'goto' THEN
                position := array_position(path, r.next_step);
                IF position IS NOT NULL THEN
                    path := path[1:position - 1];
                ELSIF r.next_step IS DISTINCT FROM here THEN
                    path := path || r.step;
                END IF;
                here := r.next_step;
            ELSE
                NULL;
        END CASE;
        INSERT INTO session_log (session_key, rev, month, kind, step, answers, outcome, next_step, core_version,
                                 created_at, depth)
        VALUES (r.session_key, r.rev, r.started_month, r.kind, r.step, r.answers, r.outcome, r.next_step,
                r.core_version, r.created_at, cardinality(path));
    END LOOP;
END
$$;
DROP TABLE session_log_0008;

-- The pruner decides per month whether every session that started in it is past retention.
CREATE INDEX sessions_started ON sessions (created_at);

-- Changes of status other than completion (expiry, erasure) still notify from the row; a
-- completion is announced by the server with its batch, and nothing else the row ever takes
-- (a lazy expiry moved forward, a re-encrypted path) changes what a snapshot shows.
DROP TRIGGER sessions_notify ON sessions;
CREATE TRIGGER sessions_notify AFTER UPDATE ON sessions
    FOR EACH ROW WHEN (NEW.status IS DISTINCT FROM OLD.status AND NEW.status <> 'completed')
    EXECUTE FUNCTION parley_notify_session();
