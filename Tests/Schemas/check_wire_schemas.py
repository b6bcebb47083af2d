#!/usr/bin/env python3
"""Checks Parley's wire documents against /schemas/*.json with an independent
validator (Python `jsonschema`, Draft 2020-12) — issue 14.

Usage: check_wire_schemas.py SCHEMAS_DIR [--fixtures DIR] [--bundle FILE] [--responses DIR] [--openapi FILE]

- every schema must itself be a valid 2020-12 schema;
- every parley.flow/screen/bundle document found in the conformance fixtures;
- the bundle of shipped flows (`parley bundle build`) and each flow in it;
- every JSON response the end-to-end suites recorded (PARLEY_RESPONSE_LOG):
  problems, gated screens, session snapshots, stored flow versions;
- with --openapi, every one of those JSON responses again against the response schema
  /openapi.json documents for its route and status: a body of a route or status the document
  does not describe is a mismatch too.
Exits 1 listing every mismatch; prints what it checked.
"""
import argparse
import glob
import json
import os
import re
import sys
import urllib.parse

from jsonschema import Draft202012Validator

KINDS = ["flow", "screen", "session", "problem", "bundle"]


def load_validators(directory):
    validators = {}
    for kind in KINDS:
        with open(os.path.join(directory, f"{kind}.json"), encoding="utf-8") as handle:
            schema = json.load(handle)
        Draft202012Validator.check_schema(schema)
        validators[kind] = Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)
    # Top-level screen documents (fixtures) are checked against the Screen definition of screen.json.
    screen = json.load(open(os.path.join(directory, "screen.json"), encoding="utf-8"))
    document = dict(screen, **{"$ref": "#/$defs/Screen"})
    validators["screen-document"] = Draft202012Validator(document)
    return validators


def documents_in(value):
    """Every object inside `value` whose `schema` names a Parley document kind."""
    if isinstance(value, dict):
        schema = value.get("schema")
        if isinstance(schema, str):
            match = re.match(r"^parley\.(flow|screen|bundle)/1(\.\d+)?$", schema)
            if match:
                yield match.group(1), value
        for member in value.values():
            yield from documents_in(member)
    elif isinstance(value, list):
        for element in value:
            yield from documents_in(element)


SESSION_PATH = re.compile(r"^/v1/sessions(/[^/?]+(/answers|/back)?)?(\?.*)?$")
VERSION_PATH = re.compile(r"^/v1/flows/[^/?]+/versions/\d+(\?.*)?$")


def kind_of(entry):
    """Which schema a recorded response must satisfy, and the part of the body it covers."""
    target, status, body = entry["target"], entry["status"], entry["body"]
    if entry["contentType"].startswith("application/problem+json"):
        return "problem", body
    if status not in (200, 201):
        return None, None
    if target.startswith("/v1/screens/"):
        return "screen", body
    if SESSION_PATH.match(target) and entry["method"] in ("GET", "POST"):
        return "session", body
    if (VERSION_PATH.match(target) and entry["method"] == "GET") or (
        target == "/v1/flows" and entry["method"] == "POST"
    ):
        return "flow", body.get("content") if isinstance(body, dict) else None
    return None, None


class OpenAPIResponses:
    """The response schemas of /openapi.json, looked up by method, concrete target and status."""

    def __init__(self, path):
        with open(path, encoding="utf-8") as handle:
            self.document = json.load(handle)
        self.routes = []
        for template, item in self.document["paths"].items():
            segments = template.strip("/").split("/") if template != "/" else []
            for method, operation in item.items():
                self.routes.append((method.upper(), segments, operation))
        self.validators = {}

    @staticmethod
    def _matches(segments, parts):
        if len(segments) != len(parts):
            return None
        # A literal segment outranks a parameter, left to right (the router's rule).
        rank = []
        for segment, part in zip(segments, parts):
            literal = not (segment.startswith("{") and segment.endswith("}"))
            if literal and segment != part:
                return None
            rank.append(literal)
        return rank

    def operation(self, method, target):
        """The documented operation of the route the server dispatched `target` to, if any."""
        path = urllib.parse.unquote(target.split("?", 1)[0])
        parts = path.strip("/").split("/") if path != "/" else []
        best, found = None, None
        for route_method, segments, operation in self.routes:
            rank = self._matches(segments, parts)
            if rank is None or (best is not None and rank < best):
                continue
            if best is None or rank > best:
                best, found = rank, None
            if route_method == method or (method == "HEAD" and route_method == "GET" and found is None):
                found = operation
        return found

    def validator(self, schema):
        key = json.dumps(schema, sort_keys=True)
        if key not in self.validators:
            self.validators[key] = Draft202012Validator(dict(self.document, **schema))
        return self.validators[key]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("schemas")
    parser.add_argument("--fixtures", action="append", default=[])
    parser.add_argument("--bundle")
    parser.add_argument("--responses")
    parser.add_argument("--openapi")
    arguments = parser.parse_args()
    validators = load_validators(arguments.schemas)
    failures = []
    counts = {}

    def check(kind, document, where):
        key = "screen-document" if kind == "screen" and "root" in document else kind
        counts[kind] = counts.get(kind, 0) + 1
        for error in validators[key].iter_errors(document):
            failures.append(f"{where}: {kind} at /{'/'.join(map(str, error.absolute_path))}: {error.message[:300]}")

    for directory in arguments.fixtures:
        for path in sorted(glob.glob(os.path.join(directory, "**", "*.json"), recursive=True)):
            with open(path, encoding="utf-8") as handle:
                fixture = json.load(handle)
            for kind, document in documents_in(fixture):
                check(kind, document, path)
    if arguments.bundle:
        with open(arguments.bundle, encoding="utf-8") as handle:
            bundle = json.load(handle)
        check("bundle", bundle, arguments.bundle)
        for flow in bundle.get("flows", []):
            check("flow", flow, f"{arguments.bundle} flow {flow.get('id')}")
    openapi = OpenAPIResponses(arguments.openapi) if arguments.openapi else None

    def check_documented(entry, where):
        """The body against the schema /openapi.json gives its route, status and media type."""
        operation = openapi.operation(entry["method"], entry["target"])
        media = entry["contentType"].split(";")[0].strip()
        if operation is None:
            # A path or method no route has: only a 404/405 problem document may come back, and it
            # must be a valid one; any other body of an undocumented route is a mismatch.
            if entry["status"] not in (404, 405) or media != "application/problem+json":
                failures.append(f"{where}: {entry['status']} {media} from a route /openapi.json does not describe")
                return
            counts["unrouted"] = counts.get("unrouted", 0) + 1
            for error in validators["problem"].iter_errors(entry["body"]):
                failures.append(f"{where}: unrouted problem at /{'/'.join(map(str, error.absolute_path))}: {error.message[:300]}")
            return
        response = operation.get("responses", {}).get(str(entry["status"]))
        if response is None:
            failures.append(f"{where}: status {entry['status']} is not documented for {operation['operationId']}")
            return
        schema = response.get("content", {}).get(media, {}).get("schema")
        if schema is None:
            failures.append(f"{where}: {media} is not documented for {operation['operationId']} {entry['status']}")
            return
        counts["openapi"] = counts.get("openapi", 0) + 1
        for error in openapi.validator(schema).iter_errors(entry["body"]):
            failures.append(f"{where}: openapi at /{'/'.join(map(str, error.absolute_path))}: {error.message[:300]}")

    if arguments.responses:
        for path in sorted(glob.glob(os.path.join(arguments.responses, "*.jsonl"))):
            with open(path, encoding="utf-8") as handle:
                for number, line in enumerate(handle, 1):
                    entry = json.loads(line)
                    kind, document = kind_of(entry)
                    where = f"{entry['method']} {entry['target'][:120]} → {entry['status']}"
                    if kind and document is not None:
                        check(kind, document, where)
                    if openapi:
                        check_documented(entry, where)
    if arguments.responses and openapi and not counts.get("openapi"):
        failures.append(f"{arguments.responses}: no recorded response to check (is PARLEY_RESPONSE_LOG set?)")
    summary = ", ".join(f"{count} {kind}" for kind, count in sorted(counts.items()))
    print(f"wire schemas: checked {summary}")
    if failures:
        print(f"{len(failures)} mismatches:", file=sys.stderr)
        for failure in failures[:200]:
            print("  " + failure, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
