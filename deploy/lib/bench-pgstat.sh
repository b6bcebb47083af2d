# Where Postgres's CPU goes under part 2 of deploy/bench-service (sourced by it; issue 27), with
# BENCH_PG_STATEMENTS=1: the cluster loads pg_stat_statements (planning tracked), and every
# answer run prints, per statement, what one call cost (plans, plan and execution µs, buffers,
# WAL) and what the cluster's processes spent per answer, by role (client backends, the LISTEN
# connection, WAL writer, checkpointer, autovacuum, …). To stderr, so callers that capture a
# run's summary line are not disturbed: the figures print just above that line.

# Loads pg_stat_statements into the cluster in $PG (a restart) when BENCH_PG_STATEMENTS is set.
pgstat_setup() {
    [ -n "${BENCH_PG_STATEMENTS:-}" ] || return 0
    local root
    root=$(cat "$PG/cluster-root" 2>/dev/null || echo "$PG")
    cat >>"$root/data/postgresql.conf" <<'EOF'
shared_preload_libraries = 'pg_stat_statements'
pg_stat_statements.track_planning = on
EOF
    PARLEY_DATABASE_URL=$(deploy/postgres restart "$PG")
    psql -q "$PARLEY_DATABASE_URL" -c "CREATE EXTENSION IF NOT EXISTS pg_stat_statements"
}

# "pid ticks role" for every process of the cluster; a client backend whose last statement was a
# LISTEN is the listener's connection.
pgstat_processes() {
    local postmaster listeners
    postmaster=$(head -1 "$(cat "$PG/cluster-root" 2>/dev/null || echo "$PG")/data/postmaster.pid")
    listeners=" $(psql -qtA "$PARLEY_DATABASE_URL" -c "SELECT string_agg(pid::text, ' ') FROM pg_stat_activity
        WHERE query ILIKE 'LISTEN%'") "
    ps --ppid "$postmaster" -o pid=,args= | while read -r pid args; do
        local role=${args#postgres: }
        case "$role" in
        *127.0.0.1* | *"[local]"*) role=backend ;;
        esac
        [[ "$listeners" == *" $pid "* ]] && role=listener
        role=${role// /-}
        echo "$pid $(awk '{ print $14 + $15 }' "/proc/$pid/stat" 2>/dev/null || echo 0) $role"
    done
}

# Before a run: statistics reset, process ticks noted.
pgstat_begin() {
    [ -n "${BENCH_PG_STATEMENTS:-}" ] || return 0
    psql -qtA "$PARLEY_DATABASE_URL" -c "SELECT pg_stat_statements_reset()" >/dev/null
    pgstat_processes >"$WORK/pgstat-before"
}

# After a run of $1 answers named $2: the statements and the processes, per call and per answer.
pgstat_report() {
    [ -n "${BENCH_PG_STATEMENTS:-}" ] || return 0
    local answers=$1
    pgstat_processes >"$WORK/pgstat-after"
    {
        echo "  Postgres during '$2' ($answers answers; the line below is its summary):"
        psql -qtA -F'|' "$PARLEY_DATABASE_URL" -c "
            SELECT calls, round(rows::numeric / calls, 1), plans,
                   round((total_plan_time / greatest(plans, 1) * 1000)::numeric, 1),
                   round((total_exec_time / calls * 1000)::numeric, 1),
                   round(((total_plan_time + total_exec_time) * 1000 / $answers)::numeric, 1),
                   round(shared_blks_hit::numeric / calls, 1), round(shared_blks_dirtied::numeric / calls, 2),
                   round(wal_records::numeric / calls, 1), round(wal_bytes / calls), round(wal_fpi::numeric / calls, 2),
                   left(regexp_replace(query, '\s+', ' ', 'g'), 60)
            FROM pg_stat_statements WHERE calls > 0 AND query NOT ILIKE '%pg_stat_statements%'
            ORDER BY total_plan_time + total_exec_time DESC LIMIT ${PGSTAT_TOP:-8}" |
            awk -F'|' 'BEGIN { printf "    %8s %6s %7s %8s %8s %8s %6s %7s %5s %7s %5s  %s\n", "calls", "rows", "plans",
                "plan µs", "exec µs", "µs/ans", "hit", "dirtied", "WAL#", "WALbyte", "FPI", "statement" }
                { printf "    %8s %6s %7s %8s %8s %8s %6s %7s %5s %7s %5s  %s\n", $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12 }'
        # CPU per answer by process role (processes that came or went count from zero).
        awk -v answers="$answers" -v hz="$HZ" '
            NR == FNR { before[$1] = $2; next }
            { cpu[$3] += $2 - before[$1]; total += $2 - before[$1] }
            END {
                printf "    CPU µs/answer by process: total %.0f", total / hz * 1e6 / answers
                for (role in cpu) if (cpu[role] > 0) printf ", %s %.0f", role, cpu[role] / hz * 1e6 / answers
                printf "\n"
            }' "$WORK/pgstat-before" "$WORK/pgstat-after"
    } >&2
}
