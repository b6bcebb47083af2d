"""Issue 31 in headless Chromium (run by studio_browser_test.py, sharing its browser): the web client
kit walks passport-intake against a real server across a restart and follows a live session, and
the studio lints and previews a draft with its server stopped, through parley-core.wasm.

Each test runs its own `parley serve --core-module` on the test database (the shared server keeps
serving the other tests), on a port it keeps, so a restarted server is the same origin to the page.
The kit and its example page are served by the server itself (/studio/assets/): the same origin as
the API, so no CORS is needed, and they are what `deploy/run` offers a web team to try.
"""
import os
import re
import signal
import subprocess
import tempfile
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

HANG_GUARD = 20  # seconds: only a ceiling against hangs, never a speed assertion
MODULE = os.environ.get("PARLEY_CORE_MODULE")
EXAMPLE = "/studio/assets/client-example.html?flow=passport-intake"
# What Chromium itself logs for the requests these tests make fail on purpose: the server down
# (the kit retries), and answers refused with 422 (the page shows the errors).
EXPECTED_CONSOLE = ("ERR_CONNECTION_REFUSED", "ERR_EMPTY_RESPONSE", "status of 422")


class OwnServer:
    """A `parley serve --core-module` of the test's own that can be killed and started again on its port."""

    def __init__(self, studio):
        assert MODULE, "PARLEY_CORE_MODULE is not set (deploy/browser-test builds it with deploy/wasm-core)"
        self.studio = studio
        self.port = 0
        self.process = None
        self.log = tempfile.NamedTemporaryFile(prefix="studio-wasm-serve-", suffix=".log", delete=False)
        self.start()

    def start(self):
        offset = self.log.tell() if self.port else 0
        self.process = subprocess.Popen(
            [os.environ["PARLEY_BIN"], "serve", "--host", "127.0.0.1", "--port", str(self.port), "--migrations",
             "Migrations", "--core-module", MODULE], cwd=self.studio.root, stdout=self.log, stderr=self.log)
        deadline = time.monotonic() + HANG_GUARD
        while True:
            with open(self.log.name) as log:
                log.seek(offset)
                match = re.search(r"listening on 127\.0\.0\.1:(\d+)", log.read())
            if match:
                self.port = int(match.group(1))
                break
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("parley serve did not start:\n" + open(self.log.name).read()[-3000:])
            time.sleep(0.05)
        self.log.seek(0, os.SEEK_END)
        self.base = f"http://127.0.0.1:{self.port}"

    def kill(self):
        """SIGKILL: no graceful shutdown, as a crash or an OOM kill would stop it."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=HANG_GUARD)

    def close(self):
        self.kill()
        os.unlink(self.log.name)


def page_state(studio):
    return studio.driver.execute_script(
        "const f = document.getElementById('screen');"
        "return {step: f.dataset.step, rev: Number(f.dataset.rev), status: f.dataset.status,"
        " core: document.documentElement.dataset.core, ready: document.documentElement.dataset.ready};")


def wait_for_step(studio, step, status="active"):
    return WebDriverWait(studio.driver, HANG_GUARD * 2, poll_frequency=0.1).until(
        lambda d: (lambda s: s if s["step"] == step and s["status"] == status else False)(page_state(studio)),
        f"waiting for the kit to reach {step} ({status}): {page_state(studio)}")


def fill(studio, values):
    for field, value in values.items():
        control = studio.driver.find_element(By.ID, f"field-{field}")
        if control.tag_name == "select" or control.get_attribute("type") == "date":  # no typing into a date picker
            studio.driver.execute_script(
                "arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input', {bubbles: true}));",
                control, value)
        else:
            control.clear()
            control.send_keys(value)


def submit(studio):
    studio.driver.find_element(By.CSS_SELECTOR, "#screen button[type=submit]").click()


def open_example(studio, server):
    """The example page on a session of its own. The first load may resume an earlier test's
    session or start one; it is cleared only once that load is ready: cleared while its start
    was in flight, the new id landed in storage afterwards and the reload resumed it (a resumed
    session validates on the server, so a local refusal was not local)."""
    studio.driver.get_log("browser")  # what earlier tests logged is theirs
    studio.driver.get(server.base + EXAMPLE)
    WebDriverWait(studio.driver, HANG_GUARD).until(lambda d: page_state(studio)["ready"] == "true",
                                                   "the example page never got ready")
    studio.driver.execute_script("sessionStorage.clear()")
    studio.driver.get(server.base + EXAMPLE)
    WebDriverWait(studio.driver, HANG_GUARD).until(lambda d: page_state(studio)["ready"] == "true",
                                                   "the example page never got ready")


def test_kit_walks_passport_intake_across_a_server_restart(studio):
    server = OwnServer(studio)
    try:
        open_example(studio, server)
        state = wait_for_step(studio, "country")
        assert state["core"] and state["core"] != "server", f"the page runs without the module: {state}"
        # Local validation through the module: refused without a request, errors tied to their fields.
        fill(studio, {"passportCountry": "de"})
        submit(studio)
        studio.wait("#error-passportCountry", "two-letter")
        assert page_state(studio)["rev"] == 1, "a locally refused answer must not reach the server"
        assert "nothing was sent" in studio.driver.find_element(By.ID, "connection").text
        control = studio.driver.find_element(By.ID, "field-passportCountry")
        assert control.get_attribute("aria-invalid") == "true"
        assert control.get_attribute("aria-describedby") == "error-passportCountry"
        focused = studio.driver.switch_to.active_element.get_attribute("id")
        assert focused == "field-passportCountry", f"focus went to {focused}, not the first field in error"
        studio.check_page("kit-local-errors", EXPECTED_CONSOLE)
        fill(studio, {"passportCountry": "DE", "purpose": "work"})
        submit(studio)
        wait_for_step(studio, "employer")
        assert studio.driver.switch_to.active_element.get_attribute("id") == "title", "a new step focuses its heading"
        # The server dies mid-session; the answer is sent while it is down and retried until it is back.
        server.kill()
        fill(studio, {"employerName": "Acme", "employerCity": "Lyon"})
        submit(studio)
        time.sleep(1.0)
        assert page_state(studio)["step"] == "employer", "the step cannot move while the server is down"
        server.start()
        state = wait_for_step(studio, "document")
        assert state["rev"] == 3, f"one answer, applied once (Idempotency-Key): {state}"
        # A reload resumes the same session from sessionStorage.
        studio.driver.refresh()
        WebDriverWait(studio.driver, HANG_GUARD).until(lambda d: page_state(studio)["ready"] == "true")
        assert wait_for_step(studio, "document")["rev"] == 3, "the reload must resume, not start again"
        fill(studio, {"documentNumber": "C01X00T47", "expiryDate": "2031-12-31"})
        submit(studio)
        wait_for_step(studio, "contact")
        fill(studio, {"email": "ana@example.com"})
        submit(studio)
        wait_for_step(studio, "confirm")
        fill(studio, {"emailConfirmation": "other@example.com"})
        submit(studio)
        studio.wait("#error-emailConfirmation")
        fill(studio, {"emailConfirmation": "ana@example.com"})
        submit(studio)
        wait_for_step(studio, "done", status="completed")
        studio.wait("#title", "Thank you")
        studio.check_page("kit-completed", EXPECTED_CONSOLE)
    finally:
        server.close()


def test_kit_follows_a_live_session(studio):
    server = OwnServer(studio)
    try:
        agent = subprocess.run(
            [os.environ["PARLEY_BIN"], "token", "create", "--name", f"kit-agent-{os.getpid()}", "--scope", "agent"],
            cwd=studio.root, check=True, capture_output=True, text=True).stdout.strip()
        open_example(studio, server)
        wait_for_step(studio, "country")
        session = studio.driver.execute_script("return sessionStorage.getItem('parley.session')")
        assert session, "the kit keeps the session id to resume"
        headers = {"Authorization": f"Bearer {agent}"}
        fill(studio, {"passportCountry": "FR"})
        status, _, body = studio.http("POST", f"/v1/sessions/{session}/events",
                                      {"say": {"text": "Hello from the visa desk", "from": "Ana"}}, headers,
                                      base=server.base)
        assert status == 200, f"say: {status} {body}"
        studio.wait("#messages li", "Hello from the visa desk")
        typed = studio.driver.find_element(By.ID, "field-passportCountry").get_attribute("value")
        assert typed == "FR", f"a message must not redraw the form under the user: {typed!r}"
        status, _, body = studio.http("POST", f"/v1/sessions/{session}/events", {"goto": "contact"}, headers,
                                      base=server.base)
        assert status == 200, f"goto: {status} {body}"
        state = wait_for_step(studio, "contact")
        assert state["rev"] == 3, state
        studio.check_page("kit-live-message", EXPECTED_CONSOLE)
    finally:
        server.close()


def set_text(studio, text):
    studio.driver.execute_script("""
        const area = document.getElementById('flow-json');
        area.value = arguments[0];
        area.dispatchEvent(new Event('input', { bubbles: true }));
    """, text)


def fetched(studio, suffix):
    """How many requests of this page went to a URL ending in `suffix` (resource timing sees fetches)."""
    return studio.driver.execute_script(
        "return performance.getEntriesByType('resource').filter((e) => e.name.split('?')[0].endsWith(arguments[0])).length",
        suffix)


def nav(studio, label):
    """Follows a view link of the studio's navigation (in the page: no document load)."""
    studio.driver.find_element(By.XPATH, f"//nav[@id='nav']//a[normalize-space()='{label}']").click()


def test_studio_lints_and_previews_with_the_server_stopped(studio):
    server = OwnServer(studio)
    try:
        studio.driver.get_log("browser")
        studio.driver.get(server.base + "/studio")
        studio.wait("#token").send_keys(studio.token)
        studio.driver.find_element(By.CSS_SELECTOR, "form.signin button[type=submit]").click()
        studio.wait("table.data a", "passport-intake")
        studio.driver.get(server.base + "/studio/flows/passport-intake/editor")
        studio.wait("#lint-summary", "No problems")
        assert fetched(studio, "/parley-core.wasm") == 1 and fetched(studio, "/v1/flows/lint") == 0, \
            "the editor lints through the module, not the server"
        text = studio.driver.find_element(By.ID, "flow-json").get_attribute("value")
        server.kill()  # signed in, draft loaded: from here on nothing answers on the server's port

        broken = text.replace('"fieldId": "purpose"', '"fieldId": "passportCountry"', 1)
        assert broken != text
        set_text(studio, broken)
        studio.wait('#problems li[data-code="duplicateFieldId"]')
        renamed = re.sub(r'("(?:label|en)": ")Purpose of [^"]*"', r'\1Reason for the trip"', text, count=1)
        assert renamed != text
        set_text(studio, renamed)
        studio.wait("#lint-summary", "No problems")
        studio.wait("#save:not([disabled])").click()
        studio.wait("#save-result .notice.error", "saving needs the server")
        studio.check_page("studio-offline-editor", EXPECTED_CONSOLE)

        nav(studio, "Preview")
        studio.wait('.core-column[data-core="1.0"] .device label', "Reason for the trip")
        studio.wait('.core-column[data-core="2.0"]')
        nav(studio, "Try it")
        studio.wait("#current-step", "country")
        studio.driver.find_element(By.CSS_SELECTOR, "#stage input[name=passportCountry]").send_keys("de")
        studio.driver.find_element(By.CSS_SELECTOR, "#stage select[name=purpose] option[value=work]").click()
        studio.driver.find_element(By.CSS_SELECTOR, "#stage button[type=submit]").click()
        studio.wait('#stage .field-error[data-field="passportCountry"]', "Use the two-letter country code.")
        field = studio.driver.find_element(By.CSS_SELECTOR, "#stage input[name=passportCountry]")
        field.clear()
        field.send_keys("DE")
        studio.driver.find_element(By.CSS_SELECTOR, "#stage button[type=submit]").click()
        studio.wait("#current-step", "employer")
        assert fetched(studio, "/v1/flows/preview") == 0, "preview and Try it ran in the tab"
        studio.check_page("studio-offline-try", EXPECTED_CONSOLE)
    finally:
        server.close()


def test_studio_asks_the_server_where_webassembly_is_unavailable(studio):
    """No WebAssembly in the page (an old or locked-down browser): lint and preview go to the server."""
    script = studio.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument",
                                           {"source": "delete globalThis.WebAssembly;"})
    try:
        studio.open("/studio/flows/passport-intake/editor")
        studio.wait("#lint-summary", "No problems")
        assert studio.driver.execute_script("return typeof WebAssembly") == "undefined"
        assert fetched(studio, "/v1/flows/lint") >= 1 and fetched(studio, "/parley-core.wasm") == 0
        nav(studio, "Preview")
        studio.wait('.core-column[data-core="1.0"] .device')
        assert fetched(studio, "/v1/flows/preview") >= 1
    finally:
        studio.driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": script["identifier"]})
