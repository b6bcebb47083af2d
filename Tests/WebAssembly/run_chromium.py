#!/usr/bin/env python3
"""Runs the parley-core cases (parley core-cases) in headless Chromium.

usage: run_chromium.py MODULE.wasm CASES.ndjson

Serves the module, the ES modules and the cases from a temporary folder on a loopback port
(ES modules do not load from file: URLs), loads Tests/WebAssembly/page.html in headless
Chromium through selenium (deploy/browser-test installs both), waits for the outcome with a
deadline and prints one line per kind of case. Exits 1 on any failure.
"""
import functools
import http.server
import os
import shutil
import sys
import tempfile
import threading

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
DEADLINE_SECONDS = 600


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".mjs": "text/javascript", ".wasm": "application/wasm"}

    def log_message(self, *args):
        pass


def start_chromium(options):
    """A Chromium session; one retry, since a loaded machine can miss chromedriver's start-up deadline."""
    service_path = shutil.which("chromedriver") or "/usr/bin/chromedriver"
    try:
        return webdriver.Chrome(service=Service(service_path), options=options)
    except WebDriverException as error:
        print(f"chromium did not start ({error.msg.splitlines()[0] if error.msg else error}); retrying once",
              file=sys.stderr)
        return webdriver.Chrome(service=Service(service_path), options=options)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    wasm, cases = sys.argv[1], sys.argv[2]
    folder = tempfile.mkdtemp(prefix="parley-wasm-browser.")
    server = None
    driver = None
    try:
        shutil.copy(wasm, os.path.join(folder, "parley-core.wasm"))
        shutil.copy(cases, os.path.join(folder, "cases.ndjson"))
        shutil.copy(os.path.join(ROOT, "Sources", "ParleyStudio", "web", "parley-core.mjs"), folder)
        shutil.copy(os.path.join(HERE, "cases.mjs"), folder)
        shutil.copy(os.path.join(HERE, "page.html"), folder)
        handler = functools.partial(QuietHandler, directory=folder)
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        options = Options()
        for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
            options.add_argument(flag)
        options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
        driver = start_chromium(options)
        driver.set_script_timeout(30)
        version = driver.capabilities.get("browserVersion", "?")
        driver.get(f"http://127.0.0.1:{server.server_address[1]}/page.html")
        outcome = WebDriverWait(driver, DEADLINE_SECONDS, poll_frequency=0.5).until(
            lambda d: d.execute_script("return window.parleyOutcome || null"))
        for kind, count in outcome["counts"].items():
            print(f"chromium {version}, core {outcome.get('version', '?')}: {kind}: "
                  f"{count['passed']} passed, {count['failed']} failed")
        for failure in outcome["failures"]:
            print(f"  FAIL {failure}")
        return 0 if outcome["failed"] == 0 else 1
    finally:
        if driver is not None:
            driver.quit()
        if server is not None:
            server.shutdown()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
