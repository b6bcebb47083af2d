# Part 10 of deploy/bench-service (sourced last, with its server, cluster and helpers): the
# database stopped under the server. Every request that needs Postgres must answer 503 with
# Retry-After in under a second (issue 15, "Fail fast"); cached screens keep being served; the
# server recovers by itself when the database is back. Figures only: the pass/fail test is
# Tests/ParleyServerTests/DatabaseOutageScenarioTests.swift.

if want 10; then
    say "10. database stopped: requests that need it (target: 503 + Retry-After in < 1 s, all of them)"
    base="http://127.0.0.1:$PORT"
    outage_session=$(curl -fsS -H "Parley-Core: 1.2.0" -H "Content-Type: application/json" \
        -d '{"flow":"passport-intake"}' "$base/v1/sessions" | python3 -c 'import json,sys; print(json.load(sys.stdin)["session"])')
    curl -fsS -H "Parley-Core: 1.2.0" "$URL" >/dev/null
    deploy/postgres stop "$PG" >/dev/null
    # One request needing the database: prints "status retry-after-present seconds".
    needs_database() { # $1 = which of the kinds below
        local out
        case $1 in
        0) out=$(curl -sS -o /dev/null -D - -w 'T %{http_code} %{time_total}\n' -H "Parley-Core: 1.2.0" \
            -H "Content-Type: application/json" -d '{"flow":"passport-intake"}' "$base/v1/sessions") ;;
        1) out=$(curl -sS -o /dev/null -D - -w 'T %{http_code} %{time_total}\n' -H "Parley-Core: 1.2.0" \
            -H "Content-Type: application/json" -d '{"rev":1,"step":"country","answers":{"passportCountry":"FR","purpose":"tourism"}}' \
            "$base/v1/sessions/$outage_session/answers") ;;
        2) out=$(curl -sS -o /dev/null -D - -w 'T %{http_code} %{time_total}\n' -H "Authorization: Bearer $TOKEN" \
            "$base/v1/flows") ;;
        esac
        awk 'tolower($1) == "retry-after:" { r = 1 } $1 == "T" { print $2, r + 0, $3 }' <<<"$out"
    }
    export -f needs_database
    export base outage_session TOKEN
    # 150 requests, 10 at a time, the three kinds interleaved.
    seq 0 149 | xargs -P 10 -I{} bash -c 'needs_database $(( {} % 3 ))' >"$WORK/outage.txt"
    python3 - "$WORK/outage.txt" <<'PY'
import sys
rows = [line.split() for line in open(sys.argv[1]) if line.strip()]
seconds = sorted(float(r[2]) for r in rows)
fast = sum(1 for r in rows if r[0] == "503" and r[1] == "1" and float(r[2]) < 1.0)
p99 = seconds[min(len(seconds) - 1, int(len(seconds) * 0.99))]
print(f"{len(rows)} requests needing the database: {fast} answered 503 with Retry-After in < 1 s "
      f"({100 * fast / max(len(rows), 1):.0f}%); statuses {sorted(set(r[0] for r in rows))}; "
      f"latency max {seconds[-1] * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms")
PY
    cached=$(curl -sS -o /dev/null -w '%{http_code} %{time_total}' -H "Parley-Core: 1.2.0" "$URL")
    echo "cached screen while the database is down: HTTP ${cached% *} in $(python3 -c "print(round(${cached#* } * 1000, 1))") ms"
    deploy/postgres start "$PG" >/dev/null
    started=$(date +%s.%N)
    for _ in $(seq 1 300); do
        code=$(curl -sS -o /dev/null -w '%{http_code}' -H "Parley-Core: 1.2.0" -H "Content-Type: application/json" \
            -d '{"flow":"passport-intake"}' "$base/v1/sessions")
        [ "$code" = 201 ] && break
        sleep 0.1
    done
    echo "database back: the first new session answered $code $(python3 -c "print(round($(date +%s.%N) - $started, 2))") s after the start command returned"
fi
