-- Sessions (DESIGN.md "Sessions"): one user's walk through one flow, pinned to the version it
-- started on; an append-only log of every change; the completion written in the transaction of
-- the last answer; idempotency records for retried answers.

-- A session is keyed by the SHA-256 of its id: the id is a bearer capability (128 random bits,
-- base64url) that the server hands out once and never stores, like API tokens.
CREATE TABLE sessions (
    key           bytea PRIMARY KEY CHECK (octet_length(key) = 32),
    flow_id       text NOT NULL,
    version       integer NOT NULL,
    channel       text NOT NULL CHECK (char_length(channel) BETWEEN 1 AND 100),
    core_version  text NOT NULL,
    rev           integer NOT NULL CHECK (rev > 0),
    status        text NOT NULL CHECK (status IN ('active', 'completed', 'expired')),
    step          text NOT NULL,
    -- Confirmed steps in order: [{"step": id, "answers": {…}}].
    path          jsonb NOT NULL DEFAULT '[]',
    -- Prefill for the current step (answers given before going back to it).
    "values"      jsonb NOT NULL DEFAULT '{}',
    -- Steps undone by going back, nearest first; dropped when a changed answer leaves them.
    forward       jsonb NOT NULL DEFAULT '[]',
    messages      jsonb NOT NULL DEFAULT '[]',
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now(),
    expires_at    timestamptz NOT NULL,
    completed_at  timestamptz,
    FOREIGN KEY (flow_id, version) REFERENCES flow_versions (flow_id, version),
    CHECK ((status = 'completed') = (completed_at IS NOT NULL))
);
-- The sweeper's scan: active sessions by expiry.
CREATE INDEX sessions_expiring ON sessions (expires_at) WHERE status = 'active';
CREATE INDEX sessions_by_flow ON sessions (flow_id, version, created_at);

-- Every change of a session, one row per rev, written with the guarded update
-- (`UPDATE sessions … WHERE rev = expected`): the primary key makes a second writer of the
-- same rev impossible. Completion replays the path from this log, not from the row.
CREATE TABLE session_log (
    session_key   bytea NOT NULL REFERENCES sessions (key),
    rev           integer NOT NULL CHECK (rev > 0),
    kind          text NOT NULL CHECK (kind IN ('start', 'answer', 'back', 'expire', 'say', 'goto')),
    step          text NOT NULL,
    answers       jsonb,
    outcome       jsonb,
    next_step     text,
    core_version  text NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (session_key, rev)
);
CREATE TRIGGER session_log_append_only BEFORE UPDATE OR DELETE ON session_log
    FOR EACH ROW EXECUTE FUNCTION parley_refuse_history_change();

-- A completed session's result: exactly the fields of the steps on the final path.
CREATE TABLE completions (
    id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    session_key   bytea NOT NULL UNIQUE REFERENCES sessions (key),
    flow_id       text NOT NULL,
    version       integer NOT NULL,
    core_version  text NOT NULL,
    path          jsonb NOT NULL,
    answers       jsonb NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now(),
    FOREIGN KEY (flow_id, version) REFERENCES flow_versions (flow_id, version)
);
CREATE INDEX completions_by_flow ON completions (flow_id, id);

-- Idempotency-Key records (IETF httpapi draft): the response of a state change, replayed
-- for a retry with the same key and body.
CREATE TABLE session_idempotency (
    session_key     bytea NOT NULL REFERENCES sessions (key),
    key             text NOT NULL CHECK (char_length(key) BETWEEN 1 AND 255),
    request_sha256  bytea NOT NULL CHECK (octet_length(request_sha256) = 32),
    status          integer NOT NULL,
    response        bytea NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (session_key, key)
);

-- Every session change tells all server processes (LISTEN parley_sessions) at commit, so cached
-- snapshots stay coherent. Payload: "<hex key>:<rev>" (the key, never the id).
CREATE FUNCTION parley_notify_session() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('parley_sessions', encode(NEW.key, 'hex') || ':' || NEW.rev);
    RETURN NEW;
END
$$;
CREATE TRIGGER sessions_notify AFTER UPDATE ON sessions
    FOR EACH ROW EXECUTE FUNCTION parley_notify_session();
