-- Data protection, the rest (issue 18): data-key rotation and erasure rewrite stored answers, and
-- retention deletes old sessions. The session log stays append-only for the service; only a
-- transaction that declares itself history maintenance (`SET LOCAL parley.history_maintenance =
-- 'on'`: rotation, erasure, prune) may re-encrypt, blank or delete its rows.
CREATE FUNCTION parley_guard_session_log() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF current_setting('parley.history_maintenance', true) = 'on' THEN
        IF TG_OP = 'DELETE' THEN
            RETURN OLD;
        END IF;
        -- Maintenance rewrites what was answered, never which change happened.
        IF (NEW.session_key, NEW.rev, NEW.kind, NEW.step, NEW.next_step, NEW.core_version, NEW.created_at)
            IS NOT DISTINCT FROM
           (OLD.session_key, OLD.rev, OLD.kind, OLD.step, OLD.next_step, OLD.core_version, OLD.created_at) THEN
            RETURN NEW;
        END IF;
    END IF;
    RAISE EXCEPTION '% rows are append-only', TG_TABLE_NAME USING ERRCODE = 'integrity_constraint_violation';
END
$$;
DROP TRIGGER session_log_append_only ON session_log;
CREATE TRIGGER session_log_append_only BEFORE UPDATE OR DELETE ON session_log
    FOR EACH ROW EXECUTE FUNCTION parley_guard_session_log();

-- Erasure (`DELETE /v1/sessions/{id}`) keeps a tombstone: flow, version, times, status 'erased'.
ALTER TABLE sessions ADD COLUMN erased_at timestamptz;
ALTER TABLE sessions DROP CONSTRAINT sessions_status_check;
ALTER TABLE sessions ADD CONSTRAINT sessions_status_check
    CHECK (status IN ('active', 'completed', 'expired', 'erased'));
-- A completed session that is erased keeps its completion time.
ALTER TABLE sessions DROP CONSTRAINT sessions_check;
ALTER TABLE sessions ADD CONSTRAINT sessions_completed_check
    CHECK (status <> 'completed' OR completed_at IS NOT NULL);
ALTER TABLE sessions ADD CONSTRAINT sessions_erased_check CHECK ((status = 'erased') = (erased_at IS NOT NULL));
ALTER TABLE session_log DROP CONSTRAINT session_log_kind_check;
ALTER TABLE session_log ADD CONSTRAINT session_log_kind_check
    CHECK (kind IN ('start', 'answer', 'back', 'expire', 'say', 'goto', 'erase'));

-- `session.erased` tells downstream systems to erase what `session.completed` gave them.
ALTER TABLE webhooks DROP CONSTRAINT webhooks_events_check;
ALTER TABLE webhooks ADD CONSTRAINT webhooks_events_check CHECK (cardinality(events) > 0
    AND events <@ ARRAY['session.completed', 'session.expired', 'session.erased']);

-- Erasure and prune find a session's outbox rows; prune scans ended sessions by end time.
CREATE INDEX webhook_deliveries_by_session ON webhook_deliveries (session_key) WHERE session_key IS NOT NULL;
CREATE INDEX sessions_completed ON sessions (completed_at) WHERE status = 'completed';
CREATE INDEX sessions_expired ON sessions (updated_at) WHERE status = 'expired';
CREATE INDEX webhook_deliveries_finished ON webhook_deliveries (updated_at) WHERE state <> 'pending';

-- Retention (`"retention": "P90D"` in a flow, else the server's default): a flow version's
-- retention as an interval. A version stored before lint knew the member may hold anything there,
-- so only a well-formed, non-zero duration counts; otherwise `fallback`.
CREATE FUNCTION parley_retention(content jsonb, fallback interval) RETURNS interval LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE
        WHEN content->>'retention'
             ~ '^P(?=.)(\d{1,6}Y)?(\d{1,6}M)?(\d{1,6}W)?(\d{1,6}D)?(T(?=\d)(\d{1,6}H)?(\d{1,6}M)?(\d{1,6}S)?)?$'
        THEN CASE WHEN (content->>'retention')::interval > interval '0' THEN (content->>'retention')::interval
                  ELSE fallback END
        ELSE fallback END
$$;

-- A pruned session is gone: every process drops its cached snapshot (a rev no snapshot reaches).
CREATE FUNCTION parley_notify_session_gone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('parley_sessions', encode(OLD.key, 'hex') || ':2147483647');
    RETURN OLD;
END
$$;
CREATE TRIGGER sessions_notify_gone AFTER DELETE ON sessions
    FOR EACH ROW EXECUTE FUNCTION parley_notify_session_gone();
