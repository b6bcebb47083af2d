#!/usr/bin/env python3
"""Runs every fenced shell block marked runnable in the README and docs/ against a live server.

A block is runnable when its info string is `sh runnable`:

    ```sh runnable
    curl -fsS http://127.0.0.1:8080/healthz
    ```

`sh runnable allow-http-errors` runs the block without making curl fail on 4xx/5xx answers
(for blocks that show an error on purpose; they check it themselves, e.g. with `test`).

The blocks of one file run in order in one bash (`set -euo pipefail`), so a variable set in
one block (`SESSION=…`) is there in the next, from the repository's root, with the parley
binary's folder first on PATH. What the docs write for a reader's own machine is rewritten
for the server under test: `127.0.0.1:8080` becomes its address and `deploy/data/` its data
folder. curl fails on an HTTP error status (`--fail-with-body`) unless the block allows them.

Prints `runnable docs: N commands in B blocks of F files ran, 0 failed` and exits 0, or
shows the failing block with its output and exits 1.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

FENCE = re.compile(r"^```(?P<info>[^\n`]*)\n(?P<body>.*?)^```\s*$", re.S | re.M)


def runnable_blocks(path):
    """(line, options, body) of each runnable block in a Markdown file."""
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    blocks = []
    for match in FENCE.finditer(text):
        words = match.group("info").split()
        if len(words) >= 2 and words[0] == "sh" and words[1] == "runnable":
            line = text.count("\n", 0, match.start()) + 1
            blocks.append((line, set(words[2:]), match.group("body")))
    return blocks


def command_count(body):
    """Logical command lines: continuation lines joined, blanks and comments left out."""
    count, continued = 0, False
    for line in body.splitlines():
        stripped = line.strip()
        if not continued and stripped and not stripped.startswith("#"):
            count += 1
        continued = stripped.endswith("\\")
    return count


def script_for(path, blocks, port, data_dir):
    parts = [
        "set -euo pipefail",
        'PARLEY_DOCS_CURL_FAIL="--fail-with-body"',
        # Every curl of a block fails on an HTTP error status unless the block allows them
        # (or the command asks for -f itself: curl refuses both). Each has a deadline; a
        # --max-time of the command's own comes later and wins.
        'curl() {',
        '    local fail=$PARLEY_DOCS_CURL_FAIL argument',
        '    for argument in "$@"; do',
        '        if [[ $argument == --fail* || $argument =~ ^-[A-Za-z]*f[A-Za-z]*$ ]]; then fail=""; fi',
        '    done',
        '    command curl $fail --max-time 30 "$@"',
        '}',
    ]
    for line, options, body in blocks:
        body = body.replace("127.0.0.1:8080", f"127.0.0.1:{port}")
        body = body.replace("localhost:8080", f"127.0.0.1:{port}")
        body = body.replace("deploy/data/", data_dir.rstrip("/") + "/")
        fail = "" if "allow-http-errors" in options else "--fail-with-body"
        parts.append(f"echo '>>> {path}:{line}' >&2")
        parts.append(f'PARLEY_DOCS_CURL_FAIL="{fail}"')
        parts.append(body)
    return "\n".join(parts) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", required=True, type=int, help="the server under test")
    parser.add_argument("--data-dir", required=True, help="what deploy/data/ stands for")
    parser.add_argument("--bin-dir", required=True, help="the folder holding the parley binary")
    parser.add_argument("--timeout", type=int, default=180, help="seconds per file")
    parser.add_argument("--list", action="store_true", help="list the blocks, run nothing")
    parser.add_argument("--show-output", action="store_true", help="print every file's output, not only a failure's")
    parser.add_argument("files", nargs="+")
    arguments = parser.parse_args()

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    environment = dict(os.environ)
    environment["PATH"] = arguments.bin_dir + os.pathsep + environment.get("PATH", "")
    commands = blocks_run = files_run = 0
    for path in arguments.files:
        blocks = runnable_blocks(path)
        if not blocks:
            continue
        if arguments.list:
            for line, options, body in blocks:
                print(f"{path}:{line}: {command_count(body)} commands {sorted(options)}")
            continue
        script = script_for(os.path.relpath(path, root), blocks, arguments.port, arguments.data_dir)
        with tempfile.TemporaryFile(mode="w+") as output:
            try:
                result = subprocess.run(
                    ["bash", "-c", script], cwd=root, env=environment, stdin=subprocess.DEVNULL,
                    stdout=output, stderr=subprocess.STDOUT, timeout=arguments.timeout)
                status = result.returncode
            except subprocess.TimeoutExpired:
                status = "timeout"
            output.seek(0)
            log = output.read()
        if arguments.show_output:
            print(log, end="")
        if status != 0:
            started = re.findall(r"^>>> (.*)$", log, re.M)
            where = started[-1] if started else path
            print(f"runnable docs: the block at {where} failed ({status}); its file's output:", file=sys.stderr)
            print(log[-6000:], file=sys.stderr)
            print(f"runnable docs: {commands} commands ran before it, 1 failed", file=sys.stderr)
            return 1
        commands += sum(command_count(body) for _, _, body in blocks)
        blocks_run += len(blocks)
        files_run += 1
    if not arguments.list:
        print(f"runnable docs: {commands} commands in {blocks_run} blocks of {files_run} files ran, 0 failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
