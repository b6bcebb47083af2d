-- The `sessions.key` (and `session_log.session_key`, …) of a session id, as the server derives it
-- (`SessionID`): for an id of the current form, 30 base64url characters whose first 8 spell the
-- start's millisecond, those 6 bytes and then the first 26 bytes of the SHA-256 of the id's
-- text; for any other id (those issued before this migration, 22 characters), the SHA-256 of its
-- text. Keys of sessions started together are neighbours in every index that leads with them,
-- so a write load touches the indexes' newest pages instead of a random page each (issue 27).
-- For operators and scripts that look a session up by its id in SQL; the server computes keys
-- itself and never calls it.
CREATE OR REPLACE FUNCTION parley_session_key(id text) RETURNS bytea
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT CASE
        WHEN octet_length(id) = 30 AND substr(id, 1, 8) ~ '^[A-Za-z0-9_-]{8}$'
            THEN decode(translate(substr(id, 1, 8), '-_', '+/'), 'base64')
                 || substr(sha256(convert_to(id, 'UTF8')), 1, 26)
        ELSE sha256(convert_to(id, 'UTF8'))
    END
$$;
