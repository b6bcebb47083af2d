-- The funnel from the database (issue 26, DESIGN.md "Studio"): every replica computes the same
-- funnel from stored sessions, and a restart loses nothing.

-- The steps a session has passed, in order, as JSON text, kept by Postgres itself from `path`
-- (no answers in it), so the funnel groups sessions without reading their answers; text hashes
-- faster than jsonb when a million sessions are grouped.
ALTER TABLE sessions ADD COLUMN path_steps text
    GENERATED ALWAYS AS (jsonb_path_query_array(path, '$[*].step')::text) STORED;

-- One flow's sessions in time order with everything the funnel groups by, so a time-bounded
-- funnel reads the index alone (deploy/bench-funnel prints the figures).
CREATE INDEX sessions_funnel ON sessions (flow_id, created_at)
    INCLUDE (version, status, step, core_version, locale, path_steps);

-- Rejected answers per step and field as well as per rule (the funnel's drift signal), with the
-- session's flow, version, core, locale and start copied in, so the funnel filters rejections
-- without joining every session of the flow. Rows written before this migration keep an empty
-- step and field.
ALTER TABLE session_rejections ADD COLUMN step text NOT NULL DEFAULT '';
ALTER TABLE session_rejections ADD COLUMN field text NOT NULL DEFAULT '';
ALTER TABLE session_rejections ADD COLUMN flow_id text;
ALTER TABLE session_rejections ADD COLUMN version integer;
ALTER TABLE session_rejections ADD COLUMN core_version text;
ALTER TABLE session_rejections ADD COLUMN locale text;
ALTER TABLE session_rejections ADD COLUMN session_created_at timestamptz;
UPDATE session_rejections r
    SET flow_id = s.flow_id, version = s.version, core_version = s.core_version, locale = s.locale,
        session_created_at = s.created_at
    FROM sessions s WHERE s.key = r.session_key;
ALTER TABLE session_rejections DROP CONSTRAINT session_rejections_pkey;
ALTER TABLE session_rejections ADD PRIMARY KEY (session_key, step, field, rule);
CREATE INDEX session_rejections_by_flow ON session_rejections (flow_id, session_created_at);
