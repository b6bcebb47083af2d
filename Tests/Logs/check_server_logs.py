#!/usr/bin/env python3
"""Nothing personal in logs (issue 18): greps every server log of a test run, every problem
document's words and every server's /metrics for every token, session id and answer value the
suites used (Tests/ParleyTestSupport/UsedSecrets.swift writes DIR/secrets-*.tsv and
DIR/problems-*.log; ServerProcess writes DIR/parley-serve-*.log; the harness DIR/metrics-*.log).

A leak is named by kind, a fingerprint, the file and line: never the secret itself. Canaries (the
X-Request-Ids the suites sent, which the access log shows) must be found, or the grep is not
reading the logs the requests made. Exit 1 on a leak or a missing canary.

usage: check_server_logs.py DIR | --self-test
"""
import hashlib
import pathlib
import sys
import tempfile


def check(directory: pathlib.Path) -> int:
    secrets = {}
    for path in sorted(directory.glob("secrets-*.tsv")):
        for line in path.read_text(encoding="utf-8").splitlines():
            kind, _, value = line.partition("\t")
            if value:
                secrets.setdefault(value, kind)
    logs = sorted(directory.glob("*.log"))
    canaries = {value for value, kind in secrets.items() if kind == "canary"}
    if not logs or not secrets:
        print(f"no server logs ({len(logs)}) or no recorded secrets ({len(secrets)}) in {directory}")
        return 1
    leaks = 0
    seen_canaries = set()
    for log in logs:
        text = log.read_text(encoding="utf-8", errors="replace")
        for value, kind in secrets.items():
            if value not in text:  # one fast scan per secret; lines only for a hit
                continue
            if kind == "canary":
                seen_canaries.add(value)
                continue
            lines = [number for number, line in enumerate(text.splitlines(), 1) if value in line]
            leaks += 1
            fingerprint = hashlib.sha256(value.encode()).hexdigest()[:12]
            print(f"LEAK: a {kind} ({len(value)} characters, sha256 {fingerprint}...) appears in {log.name} "
                  f"on {len(lines)} lines, first line {lines[0]}")
    print(f"checked {len(logs)} logs for {len(secrets) - len(canaries)} tokens, session ids and answers: "
          f"{leaks} leaks; {len(seen_canaries)} of {len(canaries)} canaries seen")
    if canaries and not seen_canaries:
        print("no canary (X-Request-Id the suites sent) appears in any log: the logs were not captured")
        return 1
    return 1 if leaks else 0


def self_test() -> int:
    """The check fails on a planted leak and on logs without canaries, and passes on clean logs."""
    with tempfile.TemporaryDirectory() as name:
        directory = pathlib.Path(name)
        (directory / "secrets-1.tsv").write_text("answer\tada@example.com\ncanary\treq-canary-1\n")
        log = directory / "parley-serve-1.log"
        log.write_text("GET /v1/sessions/{id} 200 request_id=req-canary-1\n")
        clean = check(directory)
        log.write_text("GET /v1/sessions/{id} 200 request_id=req-canary-1\nvalue ada@example.com\n")
        leaked = check(directory)
        log.write_text("GET /v1/sessions/{id} 200\n")
        blind = check(directory)
    if (clean, leaked, blind) != (0, 1, 1):
        print(f"self-test failed: clean {clean}, leaked {leaked}, blind {blind} (want 0, 1, 1)")
        return 1
    print("self-test passed")
    return 0


if __name__ == "__main__":
    sys.exit(self_test() if sys.argv[1:] == ["--self-test"] else check(pathlib.Path(sys.argv[1])))
