#!/usr/bin/env python3
"""Follows a Parley session with sseclient-py (PyPI) while an agent speaks into it.

Checks (exit 1 with a message on the first failure):
  - every change arrives, in rev order, each rev exactly once;
  - after a disconnect, reconnecting with Last-Event-ID resumes with the current snapshot:
    nothing missed (every message said meanwhile is in it) and nothing repeated.

usage: sse_follower.py --base http://127.0.0.1:PORT --session ID --agent-token TOKEN [--events N]
"""
import argparse
import json
import queue
import socket
import sys
import threading
import urllib.request

import sseclient

TIMEOUT = 30  # seconds: a hang guard, never a latency bound


def fail(message):
    print(f"FAIL: {message}", flush=True)
    sys.exit(1)


def open_stream(base, session, last_event_id=None):
    headers = {"Accept": "text/event-stream"}
    if last_event_id is not None:
        headers["Last-Event-ID"] = str(last_event_id)
    request = urllib.request.Request(f"{base}/v1/sessions/{session}/events", headers=headers)
    response = urllib.request.urlopen(request, timeout=TIMEOUT)
    if response.status != 200 or not response.headers["Content-Type"].startswith("text/event-stream"):
        fail(f"stream answered {response.status} {response.headers['Content-Type']}")
    return response


def follow(response, events):
    """Puts every (id, event, snapshot) the stream carries on the queue, then None at its end."""
    try:
        for event in sseclient.SSEClient(response).events():
            events.put((event.id, event.event, json.loads(event.data)))
    except Exception as error:  # the test closed the response: the stream is over
        events.put(("closed", str(error), None))
    events.put(None)


def disconnect(response):
    """Drops the connection under the reading thread (close() would wait for its read)."""
    response.fp.raw._sock.shutdown(socket.SHUT_RDWR)


def say(base, session, token, text):
    body = json.dumps({"say": {"text": text, "from": "sse-test"}}).encode()
    request = urllib.request.Request(
        f"{base}/v1/sessions/{session}/events", data=body, method="POST",
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
        return json.loads(response.read())


def next_snapshot(events):
    try:
        item = events.get(timeout=TIMEOUT)
    except queue.Empty:
        fail(f"no event within {TIMEOUT} s")
    if item is None or item[0] == "closed":
        fail(f"the stream ended early: {item}")
    event_id, kind, snapshot = item
    if kind != "snapshot" or str(snapshot["rev"]) != event_id:
        fail(f"event {kind} id {event_id} does not carry its rev: {snapshot.get('rev')}")
    return snapshot


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", required=True)
    parser.add_argument("--session", required=True)
    parser.add_argument("--agent-token", required=True)
    parser.add_argument("--events", type=int, default=20)
    args = parser.parse_args()
    base, session, token = args.base, args.session, args.agent_token

    seen = []
    response = open_stream(base, session)
    events = queue.Queue()
    threading.Thread(target=follow, args=(response, events), daemon=True).start()
    first = next_snapshot(events)
    seen.append(first["rev"])
    for index in range(args.events):
        said = say(base, session, token, f"message {index}")
        snapshot = next_snapshot(events)
        if snapshot["rev"] != said["rev"] or snapshot["messages"][-1]["text"] != f"message {index}":
            fail(f"expected rev {said['rev']} with message {index}, got rev {snapshot['rev']}")
        seen.append(snapshot["rev"])
    if seen != list(range(seen[0], seen[0] + len(seen))):
        fail(f"revs out of order or missing: {seen}")

    # Disconnect, let three changes happen, resume from the last event id.
    disconnect(response)
    last = seen[-1]
    for index in range(3):
        say(base, session, token, f"while away {index}")
    resumed = open_stream(base, session, last_event_id=last)
    events = queue.Queue()
    threading.Thread(target=follow, args=(resumed, events), daemon=True).start()
    current = next_snapshot(events)
    if current["rev"] != last + 3:
        fail(f"resumed at rev {current['rev']}, expected the current rev {last + 3}")
    texts = [message["text"] for message in current["messages"]]
    if texts[-3:] != ["while away 0", "while away 1", "while away 2"]:
        fail(f"messages said while away are missing: {texts[-3:]}")
    said = say(base, session, token, "after resuming")
    after = next_snapshot(events)
    if after["rev"] != said["rev"] or after["rev"] != current["rev"] + 1:
        fail(f"after resuming expected rev {current['rev'] + 1}, got {after['rev']}")
    seen += [current["rev"], after["rev"]]
    if len(set(seen)) != len(seen) or seen != sorted(seen):
        fail(f"a rev was repeated or went backwards: {seen}")
    disconnect(resumed)
    print(f"followed {len(seen)} snapshots in rev order: {seen[0]}..{seen[-1]}; resumed without loss", flush=True)


if __name__ == "__main__":
    main()
