#!/usr/bin/env python3
"""Fails when a public symbol declared in Sources/ has no doc comment (STYLE.md, convention 2).

Reads the symbol graphs `swift package generate-documentation` extracted (one module's
`*.symbols.json`). A symbol counts when it is public or open and its declaration is in this
repository's Sources/; extensions of other modules' types are containers, not declarations,
and members that implement a protocol requirement inherit the requirement's comment (the
symbol graph carries it), as DocC shows them. Prints each undocumented symbol as
`path:line: kind name` and exits 1, or exits 0 quietly.
"""

import json
import sys

CONTAINERS = {"swift.extension"}


def undocumented(path):
    with open(path, encoding="utf-8") as handle:
        graph = json.load(handle)
    found = []
    for symbol in graph.get("symbols", []):
        uri = symbol.get("location", {}).get("uri", "")
        if "/Sources/" not in uri or symbol.get("accessLevel") not in ("public", "open"):
            continue
        if symbol["kind"]["identifier"] in CONTAINERS:
            continue
        lines = symbol.get("docComment", {}).get("lines", [])
        if any(line.get("text", "").strip() for line in lines):
            continue
        line = symbol["location"].get("position", {}).get("line", 0) + 1
        source = "Sources/" + uri.split("/Sources/", 1)[1]
        found.append(f"{source}:{line}: {symbol['kind']['displayName'].lower()} {'.'.join(symbol['pathComponents'])}")
    return found


def main():
    missing = sorted({entry for path in sys.argv[1:] for entry in undocumented(path)})
    if missing:
        print("public symbols without a /// doc comment:", file=sys.stderr)
        for entry in missing:
            print("  " + entry, file=sys.stderr)
        print(f"{len(missing)} undocumented public symbols", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
