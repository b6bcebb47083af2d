# The benchmark part of deploy/ha-drills (`deploy/ha-drills --bench`), sourced with its
# formation, servers ($BIN, $BASES, $URL, $HA, $WORK) and helpers. Prints figures, never fails
# on one (issue 28, "Performance"):
#   1. answers/s at c=32 through the two replicas on the formation (synchronous replication)
#      beside the same load against a single node (deploy/postgres) in the same run: the ratio;
#   2. failover time, kill -9 of the primary's machine to the first successful write, median of 5.
# shellcheck shell=bash

BENCH_SECONDS=${HA_BENCH_SECONDS:-10}
# Answers/s of the load at c=32 against $1 (comma-separated servers) for BENCH_SECONDS.
answers_per_second() {
    local out="$WORK/bench-$RANDOM"
    mkdir -p "$out"
    python3 deploy/lib/ha_drill.py load --servers "$1" --concurrency 32 --out "$out" >"$out/load.out" 2>&1 &
    local load=$!
    sleep 2 # warm-up: sessions created, connections open
    local from
    from=$(now)
    sleep "$BENCH_SECONDS"
    local to
    to=$(now)
    touch "$out/stop"
    wait "$load" || true
    python3 - "$out/attempts.jsonl" "$from" "$to" <<'PY'
import json, sys
start, end = float(sys.argv[2]), float(sys.argv[3])
ok = sum(1 for line in open(sys.argv[1]) for a in [json.loads(line)]
         if a["kind"] == "answer" and a["status"] == 200 and start <= a["end"] < end)
print(f"{ok / (end - start):.0f}")
PY
}

say "bench 1: answers/s at c=32, synchronous replication vs a single node (figures from this machine, not tuned)"
sync_rate=$(answers_per_second "$(IFS=,; echo "${BASES[*]}")")
echo "  formation (synchronous standby): $sync_rate answers/s"
SINGLE_URL=$(deploy/postgres start "$WORK/single")
PARLEY_DATABASE_URL=$SINGLE_URL "$BIN" migrate --migrations Migrations >/dev/null
for pid in "${SERVERS[@]}"; do stop_server "$pid"; done
SERVERS=()
PARLEY_DATABASE_URL=$SINGLE_URL start_servers
PARLEY_DATABASE_URL=$SINGLE_URL "$BIN" key add --id drills --pubkey "$WORK/ci.pub" >/dev/null
SINGLE_TOKEN=$(PARLEY_DATABASE_URL=$SINGLE_URL "$BIN" token create --name bench --scope publish)
"$BIN" publish "$WORK/bundle.json" --server "${BASES[0]}" --token "$SINGLE_TOKEN" --key "$WORK/ci.key" --key-id drills >/dev/null
single_rate=$(answers_per_second "$(IFS=,; echo "${BASES[*]}")")
echo "  single node: $single_rate answers/s"
echo "  ratio synchronous/single: $(python3 -c "print(f'{$sync_rate / max($single_rate, 1):.2f}')") (goal >= 0.7)"
for pid in "${SERVERS[@]}"; do stop_server "$pid"; done
SERVERS=()
deploy/postgres stop "$WORK/single" >/dev/null
start_servers

say "bench 2: failover time, kill -9 of the primary's machine to the first successful write (5 rounds)"
times=()
for round in 1 2 3 4 5; do
    out="$WORK/failover-$round"
    mkdir -p "$out"
    python3 deploy/lib/ha_drill.py load --servers "$(IFS=,; echo "${BASES[*]}")" --concurrency 4 --out "$out" \
        >"$out/load.out" 2>&1 &
    load=$!
    sleep 2
    old=$(deploy/ha-postgres primary "$HA")
    deploy/ha-postgres signal "$HA" "$old" KILL
    killed=$(now)
    wait_for_new_primary 60 "$old" >/dev/null || echo "  round $round: no new primary within 60 s"
    sleep 3
    touch "$out/stop"
    wait "$load" || true
    seconds=$(python3 - "$out/attempts.jsonl" "$killed" <<'PY'
import json, sys
killed = float(sys.argv[2])
attempts = [json.loads(line) for line in open(sys.argv[1])]
# The first success that started after the first refusal: requests already past the database
# when the signal landed succeed before anything fails.
refused = min((a["start"] for a in attempts if a["start"] >= killed and a["status"] in (0, 503)), default=killed)
ends = [a["end"] for a in attempts if a["start"] >= refused and a["status"] in (200, 201)]
print(f"{min(ends) - killed:.2f}" if ends else "nan")
PY
)
    echo "  round $round: $old killed, first write after $seconds s"
    times+=("$seconds")
    deploy/ha-postgres start "$HA" "$old"
    wait_for_secondary "$old" 120 || echo "  round $round: $old did not rejoin within 120 s"
done
echo "  failover time median of 5: $(printf '%s\n' "${times[@]}" | sort -g | awk '{ v[NR] = $1 } END { print v[3] }') s (HA_FAST monitor settings)"
