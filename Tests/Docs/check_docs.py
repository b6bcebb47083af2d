#!/usr/bin/env python3
"""Checks that the README and docs/ say what the repository does, where a script can tell.

- Nothing in README.md, docs/ or Sources/ points outside the repository (`../shared`, or a
  relative link that leaves it), docs/ and the DocC libraries cite no DESIGN.md, and every
  relative link between pages resolves, anchors included (GitHub's heading slugs).
- docs/http-api.md's problem table lists exactly the problem types the server defines
  (`urn:parley:problem:<name>`, collected from Sources/ParleyServer).
- docs/operations.md's metrics table lists exactly the metric families the server defines
  (`"parley_…"` literals in Sources/ParleyServer, less the LISTEN channel names, which
  Migrations/ notify on).
- With --openapi-url, docs/http-api.md's endpoint table lists exactly the operations of the
  server's /openapi.json.

Exits 1 with a line per problem, or 0 printing a one-line summary.
"""

import argparse
import glob
import json
import os
import re
import sys
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROBLEM_CALL = re.compile(
    r'\b(?:make|conflict|sessionConflict)\(\s*(?:[.\w]+(?:\([^)]*\))?,\s*)?"([a-z]+(?:-[a-z]+)*)"')
METRIC_LITERAL = re.compile(r'"(parley_[a-z_]+)"')
LINK = re.compile(r'\[[^\]]*\]\(([^)\s]+)\)')
FENCE = re.compile(r"^```.*?^```", re.S | re.M)


def read(path):
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def pages():
    return [os.path.join(ROOT, "README.md")] + sorted(glob.glob(os.path.join(ROOT, "docs", "*.md")))


def slug(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path):
    text = FENCE.sub("", read(path))
    return {slug(match) for match in re.findall(r"^#{1,6}\s+(.*)$", text, re.M)}


def check_links(problems):
    for path in pages():
        text = FENCE.sub("", read(path))
        for target in LINK.findall(text):
            if re.match(r"^[a-z]+:", target):
                continue  # http(s), mailto: outside links are fine where they are meant
            file_part, _, anchor = target.partition("#")
            resolved = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) if file_part else path
            where = os.path.relpath(path, ROOT)
            if not resolved.startswith(ROOT + os.sep):
                problems.append(f"{where}: the link {target} points outside the repository")
            elif not os.path.exists(resolved):
                problems.append(f"{where}: the link {target} names no file")
            elif anchor and resolved.endswith(".md") and anchor not in anchors(resolved):
                problems.append(f"{where}: the link {target} names no heading of {os.path.relpath(resolved, ROOT)}")
    for folder in ["README.md", "docs", "Sources"]:
        for path in [os.path.join(ROOT, folder)] if folder.endswith(".md") else glob.glob(
                os.path.join(ROOT, folder, "**", "*"), recursive=True):
            if os.path.isfile(path) and "../shared" in read_lenient(path):
                problems.append(f"{os.path.relpath(path, ROOT)}: mentions ../shared, which users do not have")
    # The contract's home is docs/: the pages and the libraries whose comments DocC publishes
    # name no design document users do not have.
    for folder in ["docs", "Sources/ParleyCore", "Sources/ParleyDSL", "Sources/ParleyClient"]:
        for path in glob.glob(os.path.join(ROOT, folder, "**", "*"), recursive=True):
            if os.path.isfile(path) and "DESIGN.md" in read_lenient(path):
                problems.append(f"{os.path.relpath(path, ROOT)}: cites DESIGN.md, which is not in the repository; "
                                "cite the docs/ page instead")


def read_lenient(path):
    with open(path, encoding="utf-8", errors="replace") as handle:
        return handle.read()


def swift_sources(folder):
    return [read(path) for path in glob.glob(os.path.join(ROOT, "Sources", folder, "**", "*.swift"), recursive=True)]


def table_cells(page, header_start):
    """First cells (backticked names) of the Markdown table whose header row starts with header_start."""
    names, inside = [], False
    for line in read(page).splitlines():
        if line.startswith(header_start):
            inside = True
            continue
        if inside:
            if not line.startswith("|"):
                break
            cells = [cell.strip() for cell in line.strip("|").split("|")]
            if set(cells[0]) <= set("-: "):
                continue
            names.append(cells)
    return names


def check_problem_types(problems):
    defined = set()
    for text in swift_sources("ParleyServer"):
        defined.update(PROBLEM_CALL.findall(text))
    rows = table_cells(os.path.join(ROOT, "docs", "http-api.md"), "| type (`urn:parley:problem:")
    documented = {re.sub(r"`", "", row[0]) for row in rows}
    for name in sorted(defined - documented):
        problems.append(f"docs/http-api.md: the problem type {name} is not documented")
    for name in sorted(documented - defined):
        problems.append(f"docs/http-api.md: the problem type {name} is documented but the server has none")
    return len(defined)


def check_metrics(problems):
    channels = set()
    for path in glob.glob(os.path.join(ROOT, "Migrations", "*.sql")):
        channels.update(re.findall(r"parley_[a-z_]+", read(path)))
    defined = set()
    for text in swift_sources("ParleyServer"):
        defined.update(name for name in METRIC_LITERAL.findall(text) if name not in channels)
    rows = table_cells(os.path.join(ROOT, "docs", "operations.md"), "| metric |")
    documented = {row[0].strip("`") for row in rows}
    for name in sorted(defined - documented):
        problems.append(f"docs/operations.md: the metric {name} is not documented")
    for name in sorted(documented - defined):
        problems.append(f"docs/operations.md: the metric {name} is documented but the server has none")
    return len(defined)


def check_endpoints(problems, url):
    with urllib.request.urlopen(url, timeout=10) as response:
        text = response.read().decode("utf-8")
    document = json.loads(text)
    if "DESIGN.md" in text or "../shared" in text:
        problems.append("/openapi.json cites a document outside the repository (DESIGN.md or ../shared)")
    served = {(method.upper(), path) for path, item in document["paths"].items() for method in item
              if method in ("get", "post", "put", "patch", "delete")}
    documented = set()
    for row in table_cells(os.path.join(ROOT, "docs", "http-api.md"), "| method | path |"):
        for path in re.findall(r"`([^`]+)`", row[1]):
            documented.add((row[0], path))
    for method, path in sorted(served - documented):
        problems.append(f"docs/http-api.md: {method} {path} is served but not in the endpoint table")
    for method, path in sorted(documented - served):
        problems.append(f"docs/http-api.md: {method} {path} is in the endpoint table but not in /openapi.json")
    return len(served)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--openapi-url", help="also compare the endpoint table with this /openapi.json")
    arguments = parser.parse_args()
    problems = []
    check_links(problems)
    problem_types = check_problem_types(problems)
    metrics = check_metrics(problems)
    summary = f"{len(pages())} pages, {problem_types} problem types, {metrics} metrics"
    if arguments.openapi_url:
        summary += f", {check_endpoints(problems, arguments.openapi_url)} operations"
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        print(f"docs check: {len(problems)} problems", file=sys.stderr)
        return 1
    print(f"docs check: {summary} agree with the sources")
    return 0


if __name__ == "__main__":
    sys.exit(main())
