#!/usr/bin/env python3
"""The client side of deploy/ha-drills: an answer load, a live-stream follower and the checks.

  ha_drill.py load --servers URL,URL --core 1.2.0 --concurrency 16 --out DIR
      Walks passport-intake sessions to completion with `concurrency` workers, alternating
      servers. Every answer carries an Idempotency-Key; a 503 (or a broken connection) is retried
      with the same key and body after min(Retry-After, 0.2 s), as ParleyClient does, until it
      succeeds. Stops when DIR/stop exists; each worker finishes its request first. Writes
      DIR/attempts.jsonl (every HTTP attempt: start, end, status, Retry-After) and
      DIR/sessions.json (every session's last acknowledged rev and whether it completed).
  ha_drill.py live --speak URL --follow URL --agent-token T --out DIR
      Starts a session, follows its event stream on one server while an agent speaks into it
      through the other, one message at a time, each sent once the stream showed the last.
      Stops when DIR/stop exists. Writes DIR/live.json.
  ha_drill.py check --out DIR --database URL --phase NAME --event-time T [--promoted-time T]
      [--max-503-seconds S] [--max-wait-seconds S] [--write-within S]
      Compares the acknowledged revs and completions with the tables (psql), prints figures,
      exits 1 on a failure.
  ha_drill.py webhooks --log FILE --database URL
      Every completion reached the receiver, duplicates only with the same webhook-id.

Only the standard library: the drills run where deploy/test runs.
"""
import argparse
import base64
import hashlib
import http.client
import json
import os
import random
import subprocess
import sys
import threading
import time
import urllib.parse
import uuid

HANG_GUARD = 30  # seconds a single HTTP attempt may take before the drill calls it hung


def request(base, method, path, body=None, headers=None, timeout=HANG_GUARD):
    """One HTTP attempt: (status, headers dict lowercased, parsed body or None)."""
    url = urllib.parse.urlparse(base)
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=timeout)
    try:
        payload = json.dumps(body).encode() if body is not None else None
        all_headers = {"Content-Type": "application/json", **(headers or {})}
        connection.request(method, path, body=payload, headers=all_headers)
        response = connection.getresponse()
        data = response.read()
        parsed = None
        if data:
            try:
                parsed = json.loads(data)
            except ValueError:
                parsed = None
        return response.status, {k.lower(): v for k, v in response.getheaders()}, parsed
    finally:
        connection.close()


class Recorder:
    def __init__(self, path):
        self.file = open(path, "a")
        self.lock = threading.Lock()

    def attempt(self, **record):
        with self.lock:
            self.file.write(json.dumps(record) + "\n")
            self.file.flush()


# How clients retry: None keeps retrying (every 0.2 s, or sooner when Retry-After says so) up
# to a drill's hang guard; a number is ParleyClient's RetryPolicy with that many attempts
# (100 ms doubling to at most 2 s, full jitter over the upper half), which then gives up.
RETRY_ATTEMPTS = None


def parley_client_delay(retry):
    ceiling = min(2000, 100 << min(retry - 1, 20))
    return (ceiling // 2 + random.randint(0, ceiling // 2)) / 1000


def retrying(recorder, base, method, path, body, headers, kind, stop_deadline):
    """Sends until a non-503 answer, keeping the same Idempotency-Key and body (ParleyClient's
    rule): returns (status, body). Gives up at stop_deadline (a drill's hang guard), or after
    RETRY_ATTEMPTS attempts when set."""
    attempt = 0
    while True:
        attempt += 1
        started = time.time()
        try:
            status, response_headers, parsed = request(base, method, path, body, headers)
        except (OSError, http.client.HTTPException) as error:
            status, response_headers, parsed = 0, {}, {"error": str(error)}
        ended = time.time()
        recorder.attempt(kind=kind, server=base, start=started, end=ended, status=status,
                         retryAfter="retry-after" in response_headers)
        if status not in (0, 503):
            return status, parsed
        if time.time() > stop_deadline:
            return status, parsed
        if RETRY_ATTEMPTS is not None:
            if attempt >= RETRY_ATTEMPTS:
                return status, parsed
            time.sleep(parley_client_delay(attempt))
            continue
        retry_after = float(response_headers.get("retry-after", "0.2") or 0.2)
        time.sleep(min(retry_after, 0.2))


ANSWERS = {
    "country": lambda n: {"passportCountry": "FR", "purpose": "tourism"},
    "document": lambda n: {"documentNumber": "C01X00T47", "expiryDate": "2031-12-31"},
    "contact": lambda n: {"email": f"drill{n}@example.com"},
    "confirm": lambda n: {"emailConfirmation": f"drill{n}@example.com"},
}


def load(args):
    global RETRY_ATTEMPTS
    RETRY_ATTEMPTS = args.parley_client_attempts
    servers = args.servers.split(",")
    recorder = Recorder(os.path.join(args.out, "attempts.jsonl"))
    stop_file = os.path.join(args.out, "stop")
    sessions = {}
    sessions_lock = threading.Lock()
    failures = []
    core = {"Parley-Core": args.core}

    def worker(index):
        n = 0
        while not os.path.exists(stop_file):
            base = servers[(index + n) % len(servers)]
            n += 1
            deadline = time.time() + 120
            status, snapshot = retrying(recorder, base, "POST", "/v1/sessions", {"flow": "passport-intake"},
                                        core, "create", deadline)
            if status != 201:
                failures.append(f"create: {status} {snapshot}")
                time.sleep(0.2)
                continue
            session = snapshot["session"]
            tag = f"{index}-{n}-{uuid.uuid4().hex[:8]}"
            with sessions_lock:
                sessions[session] = {"rev": snapshot["rev"], "completed": False}
            while snapshot["status"] == "active" and not os.path.exists(stop_file):
                step = snapshot["step"]
                body = {"rev": snapshot["rev"], "step": step, "answers": ANSWERS[step](tag)}
                headers = {**core, "Idempotency-Key": str(uuid.uuid4())}
                status, answered = retrying(recorder, base, "POST", f"/v1/sessions/{session}/answers", body,
                                            headers, "answer", deadline)
                if status != 200:
                    failures.append(f"answer {step}: {status} {answered}")
                    break
                snapshot = answered
                with sessions_lock:
                    sessions[session] = {"rev": snapshot["rev"], "completed": snapshot["status"] == "completed"}

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(args.concurrency)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    with open(os.path.join(args.out, "sessions.json"), "w") as f:
        json.dump({"sessions": sessions, "failures": failures}, f)


def follow_stream(base, session, seen, done, core):
    """Reads the session's SSE stream, appending every snapshot rev to `seen`; reconnects with
    Last-Event-ID when the connection ends (a live client's rule)."""
    url = urllib.parse.urlparse(base)
    while not done.is_set():
        headers = {"Accept": "text/event-stream", **core}
        if seen:
            headers["Last-Event-ID"] = str(seen[-1])
        try:
            connection = http.client.HTTPConnection(url.hostname, url.port, timeout=HANG_GUARD)
            connection.request("GET", f"/v1/sessions/{session}/events", headers=headers)
            response = connection.getresponse()
            data_lines = []
            while not done.is_set():
                line = response.fp.readline()
                if not line:
                    break
                line = line.decode().rstrip("\r\n")
                if line.startswith("data:"):
                    data_lines.append(line[5:].strip())
                elif line == "" and data_lines:
                    snapshot = json.loads("\n".join(data_lines))
                    data_lines = []
                    seen.append(snapshot["rev"])
            connection.close()
        except (OSError, http.client.HTTPException, ValueError):
            time.sleep(0.2)


def live(args):
    stop_file = os.path.join(args.out, "stop")
    recorder = Recorder(os.path.join(args.out, "live-attempts.jsonl"))
    core = {"Parley-Core": args.core}
    status, _, snapshot = request(args.speak, "POST", "/v1/sessions", {"flow": "passport-intake"}, core)
    assert status == 201, f"live session: {status} {snapshot}"
    session = snapshot["session"]
    seen = []
    # The follower reads until the speaker is done (not until the stop file: the last message
    # sent before it must still arrive).
    done = threading.Event()
    follower = threading.Thread(target=follow_stream, args=(args.follow, session, seen, done, core), daemon=True)
    follower.start()
    acknowledged = []
    problems = []
    agent = {"Authorization": f"Bearer {args.agent_token}"}
    said = 0
    # A session holds at most 500 messages (a 409 past them): a slow run (a loaded machine, a
    # switchover that takes 20 s) must not reach that, so the pace drops after 300 and the
    # speaker stops at 480, then waits for the stop file like the follower.
    while not os.path.exists(stop_file):
        if said >= 480:
            time.sleep(0.2)
            continue
        said += 1
        body = {"say": {"text": f"message {said}", "from": "drill"}}
        status, answered = retrying(recorder, args.speak, "POST", f"/v1/sessions/{session}/events", body,
                                    {**agent, "Idempotency-Key": str(uuid.uuid4())}, "say", time.time() + 60)
        if status not in (200, 201):
            problems.append(f"say: {status} {answered}")
            break
        rev = answered["rev"]
        acknowledged.append(rev)
        acknowledged_at = time.time()
        deadline = acknowledged_at + 15
        while (not seen or seen[-1] < rev) and time.time() < deadline:
            time.sleep(0.01)
        if not seen or seen[-1] < rev:
            problems.append(f"rev {rev} (acknowledged at {time.strftime('%H:%M:%S', time.gmtime(acknowledged_at))} UTC) "
                            f"did not reach the stream within 15 s (last seen {seen[-1:]})")
            break
        time.sleep(0.1 if said < 300 else 1.0)
    done.set()
    with open(os.path.join(args.out, "live.json"), "w") as f:
        json.dump({"acknowledged": acknowledged, "seen": list(seen), "problems": problems}, f)


def psql(database, sql):
    return subprocess.run(["psql", "-X", "-qtA", "-F", "\t", database, "-c", sql], check=True,
                          capture_output=True, text=True, timeout=60).stdout


def session_key(session):
    """The hex `sessions.key` of a session id, as the server derives it (`SessionID.key(of:)`,
    `parley_session_key` in SQL): an id of 30 characters whose first 8 are base64url gives the 6
    bytes they spell (the start's millisecond), then the first 26 bytes of its SHA-256; any other
    id its SHA-256."""
    raw = session.encode()
    digest = hashlib.sha256(raw).digest()
    alphabet = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    if len(raw) == 30 and all(byte in alphabet for byte in raw[:8]):
        return (base64.urlsafe_b64decode(raw[:8]) + digest[:26]).hex()
    return digest.hex()


def check(args):
    failures = []
    attempts = [json.loads(line) for line in open(os.path.join(args.out, "attempts.jsonl"))]
    state = json.load(open(os.path.join(args.out, "sessions.json")))
    sessions, load_failures = state["sessions"], state["failures"]
    failures += [f"client saw a failure: {f}" for f in load_failures[:5]]
    event = args.event_time
    writes = [a for a in attempts if a["kind"] in ("create", "answer")]
    after = [a for a in writes if a["start"] >= event]
    unavailable = [a for a in after if a["status"] in (0, 503)]
    # Writes succeed again: the first success that started after the first refusal (requests
    # already past the database when the signal landed succeed before anything failed).
    first_refusal = min((a["start"] for a in unavailable), default=event)
    first_ok = min((a["end"] for a in after if a["status"] in (200, 201) and a["start"] >= first_refusal),
                   default=None)
    statuses = sorted({a["status"] for a in writes})
    print(f"  {args.phase}: {len(writes)} write attempts, statuses {statuses}, "
          f"{len(unavailable)} answered 503/broken after the event")
    if first_ok is None:
        failures.append("no write succeeded after the event")
    else:
        since_promotion = first_ok - args.promoted_time if args.promoted_time else None
        # (A switchover's command returns, and the promotion is seen, after writes resumed.)
        print(f"  {args.phase}: first successful write {first_ok - event:.2f} s after the event"
              + (f", {since_promotion:.2f} s after the promotion" if since_promotion and since_promotion > 0 else ""))
    if any(a["status"] not in (0, 200, 201, 503) for a in writes):
        failures.append(f"unexpected statuses {statuses}")
    if args.max_503_seconds:
        slow = [a for a in unavailable if a["end"] - a["start"] > args.max_503_seconds]
        missing = [a for a in unavailable if a["status"] == 503 and not a["retryAfter"]]
        broken = [a for a in unavailable if a["status"] == 0]
        worst = max((a["end"] - a["start"] for a in unavailable), default=0)
        print(f"  {args.phase}: slowest 503 {worst * 1000:.0f} ms; {len(missing)} without Retry-After")
        if slow or missing or broken:
            failures.append(f"{len(slow)} 503s slower than {args.max_503_seconds} s, {len(missing)} without "
                            f"Retry-After, {len(broken)} broken connections")
    if args.max_wait_seconds:
        # Every request of the run, those in flight when the primary froze included.
        worst = max((a["end"] - a["start"] for a in writes), default=0)
        print(f"  {args.phase}: longest wait for an answer {worst * 1000:.0f} ms (any request of the run)")
        if worst > args.max_wait_seconds:
            failures.append(f"a request waited {worst:.2f} s (limit {args.max_wait_seconds} s)")
    if args.write_within and args.promoted_time and first_ok is not None:
        if first_ok - args.promoted_time > args.write_within:
            failures.append(f"first write {first_ok - args.promoted_time:.2f} s after the promotion "
                            f"(limit {args.write_within} s)")
    # Nothing acknowledged lost, nothing applied twice: every session's latest rev in its log (the
    # session's truth, migration 0009: the row keeps the rev it started with) is the rev its client
    # last saw acknowledged (each client ends on an acknowledged request).
    rows = psql(args.database, "SELECT encode(s.key, 'hex'), "
                               "(SELECT max(l.rev) FROM session_log l WHERE l.session_key = s.key), "
                               "s.status, c.id IS NOT NULL "
                               "FROM sessions s LEFT JOIN completions c ON c.session_key = s.key")
    table = {}
    for line in rows.splitlines():
        key, rev, status, completed = line.split("\t")
        table[key] = (int(rev), status, completed == "t")
    lost, twice, missing_completion = [], [], []
    for session, acked in sessions.items():
        key = session_key(session)
        rev, status, completed = table.get(key, (0, "missing", False))
        if rev < acked["rev"]:
            lost.append((acked["rev"], rev))
        elif rev > acked["rev"]:
            twice.append((acked["rev"], rev))
        if acked["completed"] and not completed:
            missing_completion.append(key[:8])
    completions = sum(1 for s in sessions.values() if s["completed"])
    print(f"  {args.phase}: {len(sessions)} sessions, {sum(s['rev'] for s in sessions.values())} acknowledged "
          f"revs, {completions} acknowledged completions; lost {len(lost)}, applied twice {len(twice)}, "
          f"completions missing {len(missing_completion)}")
    if lost or twice or missing_completion:
        failures.append(f"lost {lost[:3]}, applied twice {twice[:3]}, completions missing {missing_completion[:3]}")
    live_path = os.path.join(args.out, "live.json")
    if os.path.exists(live_path):
        live_state = json.load(open(live_path))
        seen, acknowledged = live_state["seen"], live_state["acknowledged"]
        in_order = all(b == a + 1 for a, b in zip(seen, seen[1:]))
        covered = set(acknowledged) <= set(seen)
        print(f"  {args.phase}: live stream saw revs {seen[:1]}..{seen[-1:]} ({len(seen)}), "
              f"{len(acknowledged)} agent messages acknowledged; every rev once and in order: {in_order and covered}")
        if live_state["problems"] or not in_order or not covered:
            failures.append(f"live stream: {live_state['problems'][:2]} in order {in_order} covered {covered}")
    for failure in failures:
        print(f"FAIL {args.phase}: {failure}")
    sys.exit(1 if failures else 0)


def webhooks(args):
    deliveries = [json.loads(line) for line in open(args.log)]
    by_id = {}
    unverified = 0
    completion_ids = {}
    for delivery in deliveries:
        body = json.loads(delivery["body"])
        unverified += 0 if delivery["verified"] else 1
        webhook_id = delivery["headers"].get("webhook-id")
        by_id.setdefault(webhook_id, set()).add(json.dumps(body["data"], sort_keys=True))
        if body.get("type") == "session.completed":
            completion_ids.setdefault(body["data"]["id"], set()).add(webhook_id)
    table = {int(line) for line in psql(args.database, "SELECT id FROM completions").split()}
    missing = table - set(completion_ids)
    reused = [k for k, ids in completion_ids.items() if len(ids) > 1]
    changed = [k for k, bodies in by_id.items() if len(bodies) > 1]
    duplicates = len(deliveries) - len(by_id)
    print(f"  webhooks: {len(deliveries)} deliveries, {len(completion_ids)} completions of {len(table)} in the "
          f"table, {duplicates} duplicates (same webhook-id), {unverified} unverified")
    problems = []
    if missing:
        problems.append(f"{len(missing)} completions never delivered")
    if reused or changed:
        problems.append(f"a completion under several webhook-ids ({len(reused)}) or one id with other data "
                        f"({len(changed)})")
    if unverified:
        problems.append(f"{unverified} signatures did not verify")
    for problem in problems:
        print(f"FAIL webhooks: {problem}")
    sys.exit(1 if problems else 0)


def main():
    parser = argparse.ArgumentParser()
    commands = parser.add_subparsers(dest="command", required=True)
    p = commands.add_parser("load")
    p.add_argument("--servers", required=True)
    p.add_argument("--core", default="1.2.0")
    p.add_argument("--concurrency", type=int, default=16)
    p.add_argument("--parley-client-attempts", type=int,
                   help="retry as ParleyClient's RetryPolicy(attempts: N) does, then give up")
    p.add_argument("--out", required=True)
    p = commands.add_parser("live")
    p.add_argument("--speak", required=True)
    p.add_argument("--follow", required=True)
    p.add_argument("--agent-token", required=True)
    p.add_argument("--core", default="1.2.0")
    p.add_argument("--out", required=True)
    p = commands.add_parser("check")
    p.add_argument("--out", required=True)
    p.add_argument("--database", required=True)
    p.add_argument("--phase", required=True)
    p.add_argument("--event-time", type=float, required=True)
    p.add_argument("--promoted-time", type=float)
    p.add_argument("--max-503-seconds", type=float)
    p.add_argument("--max-wait-seconds", type=float)
    p.add_argument("--write-within", type=float)
    p = commands.add_parser("webhooks")
    p.add_argument("--log", required=True)
    p.add_argument("--database", required=True)
    args = parser.parse_args()
    {"load": load, "live": live, "check": check, "webhooks": webhooks}[args.command](args)


if __name__ == "__main__":
    main()
