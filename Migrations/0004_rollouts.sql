-- Staged rollouts (DESIGN.md "Staged rollouts"): a release may serve its version to a stable
-- fraction of new sessions; the previous full release keeps serving the rest.

-- Releases stay append-only: the percentage is part of the release row, and raising it is a
-- new release of the same version.
ALTER TABLE releases ADD COLUMN percent integer NOT NULL DEFAULT 100 CHECK (percent BETWEEN 1 AND 100);

-- A halted partial release sends every new session to the previous full release's version.
-- A separate append-only table, because releases rows are never updated.
CREATE TABLE release_halts (
    release_id  bigint PRIMARY KEY REFERENCES releases (id),
    halted_by   text NOT NULL,
    halted_at   timestamptz NOT NULL DEFAULT now()
);
CREATE TRIGGER release_halts_append_only BEFORE UPDATE OR DELETE ON release_halts
    FOR EACH ROW EXECUTE FUNCTION parley_refuse_history_change();

-- A halt changes what is live: tell every process, with the payload a release sends.
CREATE FUNCTION parley_notify_release_halt() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('parley_releases',
        (SELECT json_build_object('flow', flow_id, 'channel', channel, 'version', version)::text
         FROM releases WHERE id = NEW.release_id));
    RETURN NEW;
END
$$;
CREATE TRIGGER release_halts_notify AFTER INSERT ON release_halts
    FOR EACH ROW EXECUTE FUNCTION parley_notify_release_halt();

-- The comparison of a rollout's versions reads sessions of one flow and channel since a time.
CREATE INDEX sessions_by_channel ON sessions (flow_id, channel, created_at);

-- Rejected answers per session and rule (an invalid answer changes no state, so the session log
-- does not see it): what a rollout's comparison sets side by side per version. No values.
CREATE TABLE session_rejections (
    session_key  bytea NOT NULL REFERENCES sessions (key),
    rule         text NOT NULL,
    count        integer NOT NULL CHECK (count > 0),
    PRIMARY KEY (session_key, rule)
);
