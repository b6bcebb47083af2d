# Parts 5-8 of deploy/bench-service (sourced after parts 1-4, with their servers, helpers and
# bundle): memory, the access log's cost, a profile of the cache-hot screen, cold gating.

# One wrk round on the cache-hot screen: $1 names the series (RPS/CPU keys), $2 the server's pid,
# $3 its port, $4 the connections.
screen_round() {
    local before after out requests
    before=$(ticks "$2")
    out=$(wrk -t2 -c"$4" -d"${DUR}s" -H "Parley-Core: 1.2.0" "http://127.0.0.1:$3/v1/screens/passport-intake")
    after=$(ticks "$2")
    requests=$(sed -n 's/^[[:space:]]*\([0-9]*\) requests in.*/\1/p' <<<"$out")
    RPS[$1]+="$(sed -n 's/^Requests\/sec:[[:space:]]*\([0-9.]*\).*/\1/p' <<<"$out") "
    CPU[$1]+="$(python3 -c "print(round(($after - $before) / $HZ * 1e6 / max($requests, 1), 1))") "
}

if want 5; then
    say "5. resident memory (VmRSS of a release build; targets: idle <= 20 MB, c=256 <= 40 MB)"
    printf 'the server of parts 1-4, idle at start: %s MB (%s); after their load: %s MB\n' \
        "$IDLE_RSS" "$IDLE_PARTS" "$(rss "$SERVER")"
    # Fresh servers, so the comparison is not the history of earlier parts.
    for arenas in 2 16; do
        start_other "" --no-access-log --malloc-arenas "$arenas"
        idle=$(rss "$OTHER")
        peak=$(peak_rss_under_load "$OTHER" "http://127.0.0.1:$((PORT + 1))/v1/screens/passport-intake")
        printf 'fresh, --malloc-arenas %-2s: idle %6s MB   peak under c=256 %6s MB   after the load %6s MB\n' \
            "$arenas" "$idle" "$peak" "$(rss "$OTHER")"
    done
fi

if want 6; then
    say "6. access log on (default) vs off: two servers, alternating rounds, cache-hot screen at c=64 and c=256"
    start_other "" # the default: access log on (to its log file)
    for c in 64 256; do
        unset RPS CPU
        declare -A RPS CPU
        for round in 1 2 3; do
            for name in off on; do
                if [ "$name" = on ]; then screen_round on "$OTHER" $((PORT + 1)) "$c"; else screen_round off "$SERVER" "$PORT" "$c"; fi
            done
        done
        for name in off on; do
            printf 'log %-3s c=%-3s %8.0f req/s   %6s CPU µs/request   (rounds: %s| %s)\n' "$name" "$c" \
                "$(median "${RPS[$name]}")" "$(median "${CPU[$name]}")" "${RPS[$name]}" "${CPU[$name]}"
        done
        python3 -c "print('access log on/off at c=$c: req/s %.2f, CPU per request %.2f' % ($(median "${RPS[on]}") / $(median "${RPS[off]}"), $(median "${CPU[on]}") / $(median "${CPU[off]}")))"
    done
fi

if want 7; then
    say "7. perf record -g of the cache-hot screen at c=64: top symbols (self time)"
    wrk -t2 -c64 -d"$((DUR + 2))s" -H "Parley-Core: 1.2.0" "$URL" >/dev/null &
    load=$!
    sleep 1
    perf record -q -g -p "$SERVER" -o "$WORK/perf.data" -- sleep "$DUR" >/dev/null 2>&1 || echo "perf record failed"
    wait "$load" 2>/dev/null || true
    { perf report -i "$WORK/perf.data" --no-children --sort symbol --stdio 2>/dev/null || true; } |
        grep -E '^ +[0-9.]+%' | head -"${PROFILE_TOP:-12}" | swift demangle --simplified | cut -c1-160 || true
    echo "Parley functions by inclusive time (children counted):"
    { perf report -i "$WORK/perf.data" --children --sort symbol --stdio -g none 2>/dev/null || true; } |
        swift demangle --simplified | grep -E '^ +[0-9.]+%.*(Parley|HTTP|Router|Screen|Metrics|Middleware)' |
        head -"${PROFILE_TOP:-12}" | cut -c1-160 || true
fi

if want 8; then
    say "8. gating every step of every shipped flow, every core, cold (target < 50 µs)"
    "$BENCH" gating --bundle "$WORK/bundle.json" --iterations 500
fi

if want 9 && [ -n "${BENCH_BASELINE:-}" ]; then
    say "9. this build vs BENCH_BASELINE=$BENCH_BASELINE: cache-hot screen at c=64, alternating rounds"
    OTHER_BIN=$BENCH_BASELINE start_other "" --no-access-log
    unset RPS CPU
    declare -A RPS CPU
    for round in 1 2 3 4 5; do
        for name in baseline this; do
            if [ "$name" = this ]; then screen_round this "$SERVER" "$PORT" 64; else screen_round baseline "$OTHER" $((PORT + 1)) 64; fi
        done
    done
    for name in baseline this; do
        printf '%-8s c=64 %8.0f req/s   %6s CPU µs/request   (rounds: %s| %s)\n' "$name" \
            "$(median "${RPS[$name]}")" "$(median "${CPU[$name]}")" "${RPS[$name]}" "${CPU[$name]}"
    done
    python3 -c "print('this/baseline: req/s %.2f, CPU per request %.2f' % ($(median "${RPS[this]}") / $(median "${RPS[baseline]}"), $(median "${CPU[this]}") / $(median "${CPU[baseline]}")))"
fi
