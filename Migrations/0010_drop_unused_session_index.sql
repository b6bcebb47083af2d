-- Every session start inserts into each index of `sessions` (issue 27: a start is a write, held
-- to the same rate as an answer). `sessions_by_flow` (flow_id, version, created_at, migration
-- 0002) has had no reader since migration 0008: the funnel reads `sessions_funnel` (flow and
-- start time, with the version among its included columns) and a rollout's comparison reads
-- `sessions_by_channel`; the pruner, the sweeper and erasure use the key, `sessions_started` and
-- the partial indexes. Dropping it takes one btree insert, its WAL and its full-page images off
-- every start: 4-6 µs of Postgres CPU a start at c=32 (58.6 and 54.4 -> 52.5 and 50.0 µs in
-- alternating runs on one cluster). Dropping an index only removes its catalog entry and files:
-- no rewrite, a brief exclusive lock.
DROP INDEX IF EXISTS sessions_by_flow;
