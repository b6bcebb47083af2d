-- Parley's storage (DESIGN.md "Storage"): append-only flow versions, releases with their
-- history per channel, signed bundles, every submit outcome, API tokens and signing keys.
-- Applied once by `parley migrate` inside a transaction; never edit it after it shipped.

-- Trusted Ed25519 keys CI signs bundles with, looked up by key id.
CREATE TABLE signing_keys (
    key_id      text PRIMARY KEY CHECK (char_length(key_id) BETWEEN 1 AND 200),
    algorithm   text NOT NULL DEFAULT 'ed25519' CHECK (algorithm = 'ed25519'),
    public_key  bytea NOT NULL UNIQUE CHECK (octet_length(public_key) = 32),
    created_at  timestamptz NOT NULL DEFAULT now(),
    revoked_at  timestamptz,
    CHECK (revoked_at IS NULL OR revoked_at >= created_at)
);

-- A flow is its id; everything else lives in its immutable versions.
CREATE TABLE flows (
    id          text PRIMARY KEY CHECK (char_length(id) BETWEEN 1 AND 200),
    created_at  timestamptz NOT NULL DEFAULT now()
);

-- Signed bundles, applied atomically (all flows or none); the digest is SHA-256 of the
-- bundle's canonical JSON.
CREATE TABLE bundles (
    digest         bytea PRIMARY KEY CHECK (octet_length(digest) = 32),
    channel        text NOT NULL CHECK (char_length(channel) BETWEEN 1 AND 100),
    key_id         text NOT NULL REFERENCES signing_keys (key_id),
    signature      bytea NOT NULL CHECK (octet_length(signature) = 64),
    manifest       jsonb NOT NULL,
    source_commit  text,
    applied_by     text NOT NULL,
    applied_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX bundles_by_channel ON bundles (channel, applied_at DESC);

-- Immutable flow versions. `content` is queryable jsonb; `canonical` keeps the exact
-- canonical bytes (jsonb reorders keys and drops duplicates) that `content_sha256` hashes.
-- Versions count 1, 2, 3… per flow; identical content is one version (idempotent POST).
CREATE TABLE flow_versions (
    flow_id         text NOT NULL REFERENCES flows (id),
    version         integer NOT NULL CHECK (version > 0),
    content         jsonb NOT NULL,
    canonical       bytea NOT NULL,
    content_sha256  bytea NOT NULL CHECK (octet_length(content_sha256) = 32),
    schema_version  text NOT NULL,
    author          text NOT NULL,
    source          text NOT NULL CHECK (source IN ('api', 'bundle')),
    bundle_digest   bytea REFERENCES bundles (digest),
    created_at      timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (flow_id, version),  -- version n of a flow; latest = ORDER BY version DESC LIMIT 1
    CONSTRAINT flow_versions_content_unique UNIQUE (flow_id, content_sha256),
    CHECK ((source = 'bundle') = (bundle_digest IS NOT NULL))
);
CREATE INDEX flow_versions_by_bundle ON flow_versions (bundle_digest) WHERE bundle_digest IS NOT NULL;

-- Every release ever made; the live release of (flow, channel) is its newest row, and a
-- rollback is a new row naming an older version, so history is never rewritten.
CREATE TABLE releases (
    id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    flow_id        text NOT NULL,
    channel        text NOT NULL CHECK (char_length(channel) BETWEEN 1 AND 100),
    version        integer NOT NULL,
    released_by    text NOT NULL,
    bundle_digest  bytea REFERENCES bundles (digest),
    created_at     timestamptz NOT NULL DEFAULT now(),
    FOREIGN KEY (flow_id, version) REFERENCES flow_versions (flow_id, version)
);
CREATE INDEX releases_live ON releases (flow_id, channel, id DESC);
CREATE INDEX releases_by_channel ON releases (channel, id DESC);

-- The live release per (flow, channel): the newest row of each.
CREATE VIEW live_releases AS
SELECT DISTINCT ON (flow_id, channel) id AS release_id, flow_id, channel, version, released_by, bundle_digest,
       created_at
FROM releases
ORDER BY flow_id, channel, id DESC;

-- Every submit outcome: the answers, the interpreter's outcome and where the flow went.
CREATE TABLE submissions (
    id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    flow_id       text NOT NULL,
    version       integer NOT NULL,
    step          text NOT NULL,
    core_version  text NOT NULL,
    answers       jsonb NOT NULL,
    valid         boolean NOT NULL,
    outcome       jsonb NOT NULL,
    next_step     text,
    created_at    timestamptz NOT NULL DEFAULT now(),
    FOREIGN KEY (flow_id, version) REFERENCES flow_versions (flow_id, version),
    CHECK (valid OR next_step IS NULL)
);
CREATE INDEX submissions_by_flow ON submissions (flow_id, version, created_at);

-- API tokens: only the SHA-256 of a token is stored, looked up on every request.
CREATE TABLE api_tokens (
    id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name           text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200),
    token_sha256   bytea NOT NULL CHECK (octet_length(token_sha256) = 32),
    scopes         text[] NOT NULL DEFAULT '{}',
    created_at     timestamptz NOT NULL DEFAULT now(),
    revoked_at     timestamptz,
    last_used_at   timestamptz,
    CONSTRAINT api_tokens_sha256_unique UNIQUE (token_sha256),
    CHECK (revoked_at IS NULL OR revoked_at >= created_at)
);
CREATE UNIQUE INDEX api_tokens_active_name ON api_tokens (name) WHERE revoked_at IS NULL;

-- Flow versions and releases are history: refuse to rewrite them (TRUNCATE stays possible
-- for tests, since it fires no row triggers).
CREATE FUNCTION parley_refuse_history_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '% rows are append-only', TG_TABLE_NAME USING ERRCODE = 'integrity_constraint_violation';
END
$$;
CREATE TRIGGER flow_versions_append_only BEFORE UPDATE OR DELETE ON flow_versions
    FOR EACH ROW EXECUTE FUNCTION parley_refuse_history_change();
CREATE TRIGGER releases_append_only BEFORE UPDATE OR DELETE ON releases
    FOR EACH ROW EXECUTE FUNCTION parley_refuse_history_change();

-- Every release tells all server processes (LISTEN parley_releases) at commit, so caches
-- of live versions stay coherent across processes. Payload: {"flow": …, "channel": …, "version": n}.
CREATE FUNCTION parley_notify_release() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('parley_releases',
        json_build_object('flow', NEW.flow_id, 'channel', NEW.channel, 'version', NEW.version)::text);
    RETURN NEW;
END
$$;
CREATE TRIGGER releases_notify AFTER INSERT ON releases
    FOR EACH ROW EXECUTE FUNCTION parley_notify_release();
