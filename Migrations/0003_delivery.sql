-- Delivery (DESIGN.md "Delivery"): webhook endpoints, and an outbox with one row per event ×
-- endpoint, written in the transaction that produced the event (a completion, or the sweeper's
-- expiry), so an event is never lost and never announced for a change that rolled back.

-- A registered endpoint. The secret signs deliveries (Standard Webhooks `whsec_…`); the API
-- shows it once, at creation.
CREATE TABLE webhooks (
    id               text PRIMARY KEY CHECK (char_length(id) BETWEEN 1 AND 100),
    url              text NOT NULL CHECK (char_length(url) BETWEEN 1 AND 2000),
    secret           text NOT NULL CHECK (secret LIKE 'whsec\_%'),
    events           text[] NOT NULL CHECK (cardinality(events) > 0
                         AND events <@ ARRAY['session.completed', 'session.expired']),
    enabled          boolean NOT NULL DEFAULT true,
    disabled_reason  text,
    created_at       timestamptz NOT NULL DEFAULT now(),
    created_by       text NOT NULL,
    CHECK (enabled = (disabled_reason IS NULL))
);

-- One message to one endpoint. `message_id` is the stable `webhook-id` header: a re-delivery
-- (after a retry, a crash, a lease that ran out) carries the same one, so receivers deduplicate.
-- While a worker holds a row, next_attempt_at is pushed out by the lease.
CREATE TABLE webhook_deliveries (
    id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    webhook_id       text NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    -- The completed session's key: sealed (sensitive) answers in the payload are opened with it
    -- at send time, so they are never stored in the clear here either.
    session_key      bytea,
    message_id       text NOT NULL UNIQUE,
    event_type       text NOT NULL,
    payload          bytea NOT NULL,
    state            text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'dead')),
    attempts         integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    next_attempt_at  timestamptz NOT NULL DEFAULT now(),
    last_status      integer,
    last_error       text,
    created_at       timestamptz NOT NULL DEFAULT now(),
    updated_at       timestamptz NOT NULL DEFAULT now(),
    delivered_at     timestamptz
);
-- The workers' scan, and the age of the oldest undelivered event.
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE state = 'pending';
CREATE INDEX webhook_deliveries_pending_age ON webhook_deliveries (created_at) WHERE state = 'pending';
CREATE INDEX webhook_deliveries_by_webhook ON webhook_deliveries (webhook_id, id);

-- An instant as RFC 3339 UTC with milliseconds, as every event and export shows it.
CREATE FUNCTION parley_instant(ts timestamptz) RETURNS text LANGUAGE sql IMMUTABLE AS $$
    SELECT to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
$$;

-- A completion as the pull API, the export and `session.completed` all show it (one shape,
-- one definition). The session id is a bearer capability and is never included.
CREATE FUNCTION parley_completion_json(c completions) RETURNS jsonb LANGUAGE sql STABLE AS $$
    SELECT jsonb_build_object(
        'id', c.id, 'flow', c.flow_id, 'version', c.version, 'core', c.core_version,
        'path', c.path, 'answers', c.answers, 'completedAt', parley_instant(c.created_at))
$$;

-- A Standard Webhooks payload: {"type", "timestamp", "data"}.
CREATE FUNCTION parley_webhook_payload(event text, data jsonb) RETURNS bytea LANGUAGE sql STABLE AS $$
    SELECT convert_to(
        jsonb_build_object('type', event, 'timestamp', parley_instant(now()), 'data', data)::text, 'UTF8')
$$;

-- A fresh `webhook-id`.
CREATE FUNCTION parley_message_id() RETURNS text LANGUAGE sql VOLATILE AS $$
    SELECT 'msg_' || replace(gen_random_uuid()::text, '-', '')
$$;
