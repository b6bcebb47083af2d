#!/usr/bin/env python3
"""A webhook receiver for Parley's delivery tests, verifying with the Standard Webhooks
reference library (PyPI `standardwebhooks`).

Every request appends one JSON line to --log: the webhook headers, the body, whether the
signature verified, whether a tampered copy of the body was rejected, the monotonic arrival
time and the status answered. Answers follow --statuses (one per request, then 200).
The secret is read from --secret-file at each request (the test writes it after registering).
"""
import argparse
import json
import os
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from standardwebhooks.webhooks import Webhook, WebhookVerificationError

parser = argparse.ArgumentParser()
parser.add_argument("--port", type=int, default=0)
parser.add_argument("--log", required=True)
parser.add_argument("--secret-file", required=True)
parser.add_argument("--statuses", default="")
parser.add_argument("--hold-first", type=float, default=0, help="seconds to hold the first request")
args = parser.parse_args()

statuses = [int(s) for s in args.statuses.split(",") if s]
lock = threading.Lock()
count = [0]


def verifies(secret, body, headers):
    try:
        Webhook(secret).verify(body, headers)
        return True
    except WebhookVerificationError:
        return False


class Handler(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        arrived = time.monotonic()
        with lock:
            index = count[0]
            count[0] += 1
        status = statuses[index] if index < len(statuses) else 200
        headers = {k: self.headers[k] for k in ("webhook-id", "webhook-timestamp", "webhook-signature")
                   if self.headers.get(k) is not None}
        with open(args.secret_file) as f:
            secret = f.read().strip()
        record = {
            "index": index, "arrived": arrived, "status": status, "headers": headers,
            "body": body.decode("utf-8", "replace"), "path": self.path,
            "verified": verifies(secret, body, headers),
            "tamperRejected": not verifies(secret, body + b" ", headers),
        }
        if index == 0 and args.hold_first > 0:
            self.log_line(dict(record, held=True))
            time.sleep(args.hold_first)
        else:
            self.log_line(record)
        self.send_response(status)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"ok")

    def log_line(self, record):
        with lock, open(args.log, "a") as f:
            f.write(json.dumps(record) + "\n")

    def log_message(self, *a):
        pass


def exit_with_parent(parent):
    # A test process that dies must not leave receivers behind.
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(0)


threading.Thread(target=exit_with_parent, args=(os.getppid(),), daemon=True).start()
server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
print(f"listening {server.server_address[1]}", flush=True)
server.serve_forever()
