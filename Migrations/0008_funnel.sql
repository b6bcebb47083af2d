-- The funnel from the database (issue 26, DESIGN.md "Studio"): every replica computes the same
-- funnel from stored sessions, and a restart loses nothing.

-- The steps a session has passed, in order, kept by Postgres itself from `path` (no answers in
-- it), so the funnel groups sessions without reading their answers.
ALTER TABLE sessions ADD COLUMN path_steps jsonb
    GENERATED ALWAYS AS (jsonb_path_query_array(path, '$[*].step')) STORED;

-- One flow's sessions in time order with everything the funnel groups by: an index-only scan
-- answers it (1,000,000 sessions of one flow in well under a second; deploy/bench-funnel).
CREATE INDEX sessions_funnel ON sessions (flow_id, created_at)
    INCLUDE (version, status, step, core_version, locale, path_steps);

-- Rejected answers per step and field as well as per rule, for the funnel's drift signal.
-- Rows written before this migration keep an empty step and field.
ALTER TABLE session_rejections ADD COLUMN step text NOT NULL DEFAULT '';
ALTER TABLE session_rejections ADD COLUMN field text NOT NULL DEFAULT '';
ALTER TABLE session_rejections DROP CONSTRAINT session_rejections_pkey;
ALTER TABLE session_rejections ADD PRIMARY KEY (session_key, step, field, rule);
