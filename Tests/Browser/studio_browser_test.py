#!/usr/bin/env python3
"""Issue 13 acceptance in a real headless Chromium: the studio against a real `parley serve`
(client key on) on the test Postgres. Run by deploy/browser-test; exits non-zero on any failure
and ends on one summary line. Screenshots (1280×800) of every page go to $STUDIO_SCREENSHOTS.
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.error
import urllib.request

import studio_data_tests
import studio_editor_tests
import studio_expression_tests
import studio_wasm_tests
from axe_selenium_python import Axe
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BIN = os.environ["PARLEY_BIN"]
SHOTS = os.environ.get("STUDIO_SCREENSHOTS") or tempfile.mkdtemp(prefix="studio-screenshots-")
CLIENT_KEY = "studio-client-key-" + str(os.getpid())
HANG_GUARD = 20  # seconds: only a ceiling against hangs, never a speed assertion


class Studio:
    """The server process, an HTTP helper and the browser."""

    def __init__(self):
        self.root = ROOT
        self.client_key = CLIENT_KEY
        if not os.environ.get("PARLEY_DATA_KEY_FILE"):
            # Sessions of flows with sensitive fields need a data key (every replica the same one).
            key = tempfile.NamedTemporaryFile(prefix="studio-data-key-", delete=False)
            key.write(os.urandom(32))
            key.close()
            os.environ["PARLEY_DATA_KEY_FILE"] = key.name
        env = dict(os.environ)
        subprocess.run([BIN, "migrate", "--migrations", "Migrations"], cwd=ROOT, env=env, check=True,
                       stdout=subprocess.DEVNULL)
        self.token = subprocess.run(
            [BIN, "token", "create", "--name", f"studio-browser-{os.getpid()}", "--scope", "author", "--scope",
             "publish"], cwd=ROOT, env=env, check=True, capture_output=True, text=True).stdout.strip()
        self.log = tempfile.NamedTemporaryFile(prefix="studio-serve-", suffix=".log", delete=False)
        # With ParleyCore in WebAssembly (deploy/wasm-core), as deploy/run serves it: the studio lints,
        # previews and walks "Try it" through the module.
        module = ["--core-module", os.environ["PARLEY_CORE_MODULE"]] if os.environ.get("PARLEY_CORE_MODULE") else []
        self.server = subprocess.Popen(
            [BIN, "serve", "--host", "127.0.0.1", "--port", "0", "--migrations", "Migrations", "--client-key",
             CLIENT_KEY, *module], cwd=ROOT, env=env, stdout=self.log, stderr=self.log)
        deadline = time.monotonic() + HANG_GUARD
        self.port = None
        while self.port is None:
            match = re.search(r"listening on 127\.0\.0\.1:(\d+)", open(self.log.name).read())
            if match:
                self.port = int(match.group(1))
            elif self.server.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("parley serve did not start:\n" + open(self.log.name).read()[-3000:])
            else:
                time.sleep(0.05)
        self.base = f"http://127.0.0.1:{self.port}"
        self.publish_shipped_flows()
        options = webdriver.ChromeOptions()
        options.binary_location = "/usr/bin/chromium"
        for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,800",
                         "--disable-gpu"):
            options.add_argument(argument)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        self.driver = webdriver.Chrome(options=options, service=webdriver.ChromeService("/usr/bin/chromedriver"))
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                    {"width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": False})
        self.driver.set_script_timeout(HANG_GUARD)

    def close(self):
        try:
            self.driver.quit()
        finally:
            self.server.terminate()
            self.server.wait(timeout=HANG_GUARD)

    def http(self, method, path, body=None, headers=None, base=None):
        """(status, headers, parsed JSON or text) of one request (to `base`, another replica, if given)."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request((base or self.base) + path, data=data, method=method, headers=headers or {})
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=HANG_GUARD) as response:
                status, answer_headers, text = response.status, response.headers, response.read().decode()
        except urllib.error.HTTPError as error:
            status, answer_headers, text = error.code, error.headers, error.read().decode()
        try:
            return status, answer_headers, json.loads(text)
        except ValueError:
            return status, answer_headers, text

    def author(self):
        return {"Authorization": f"Bearer {self.token}"}

    def publish_shipped_flows(self):
        """The shipped flows (Flows/), stored and released on production through the API."""
        with tempfile.TemporaryDirectory() as folder:
            bundle = os.path.join(folder, "bundle.json")
            subprocess.run([BIN, "bundle", "build", "--flows", "Flows", "--channel", "production", "--out", bundle],
                           cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
            flows = json.load(open(bundle))["flows"]
        for flow in flows:
            status, _, stored = self.http("POST", "/v1/flows", flow, self.author())
            assert status in (200, 201), f"storing {flow['id']}: {status} {stored}"
            status, _, summary = self.http("GET", f"/v1/flows/{flow['id']}", headers=self.author())
            if summary["releases"].get("production") is None:
                status, _, answer = self.http("POST", f"/v1/flows/{flow['id']}/releases",
                                              {"version": stored["version"], "channel": "production"}, self.author())
                assert status == 201, f"releasing {flow['id']}: {status} {answer}"

    def screen_version(self, flow):
        status, headers, body = self.http("GET", f"/v1/screens/{flow}", headers={"Parley-Client-Key": CLIENT_KEY})
        assert status == 200, f"GET /v1/screens/{flow}: {status} {body}"
        return int(headers["Parley-Flow-Version"]), body

    # Browser helpers.

    def open(self, path):
        self.driver.get(self.base + path)

    def wait(self, css, text=None, gone=False):
        def found(driver):
            try:
                elements = driver.find_elements(By.CSS_SELECTOR, css)
                if gone:
                    return not elements
                matching = [e for e in elements if text is None or text in e.text]
                return matching[0] if matching else False
            except StaleElementReferenceException:  # the page re-rendered under us: look again
                return False
        return WebDriverWait(self.driver, HANG_GUARD).until(found, f"waiting for {css} {text or ''}")

    def console_errors(self, allowed=()):
        entries = [e for e in self.driver.get_log("browser") if e["level"] == "SEVERE"]
        return [e["message"] for e in entries if not any(pattern in e["message"] for pattern in allowed)]

    def check_page(self, name, allowed_console=(), strict=True):
        """A 1280×800 screenshot, axe (no violation at all; `strict=False`: none serious or critical)
        and no console error."""
        path = os.path.join(SHOTS, f"{name}.png")
        self.driver.save_screenshot(path)
        axe = Axe(self.driver)
        axe.inject()
        found = axe.run()["violations"]
        for v in found:
            if v.get("impact") not in ("serious", "critical"):
                print(f"  axe {name}: {v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:3]}")
        violations = [v for v in found if strict or v.get("impact") in ("serious", "critical")]
        assert not violations, f"{name}: axe found " + "; ".join(
            f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:3]}" for v in violations)
        errors = self.console_errors(allowed_console)
        assert not errors, f"{name}: console errors {errors}"


def test_wrong_token_shows_a_sign_in_error(studio):
    studio.open("/")
    studio.wait("form.signin")
    assert studio.driver.current_url.endswith("/studio"), studio.driver.current_url
    studio.check_page("signin")
    studio.driver.find_element(By.ID, "token").send_keys("not-a-real-token")
    studio.driver.find_element(By.CSS_SELECTOR, "form.signin button[type=submit]").click()
    error = studio.wait("#signin-error", "Sign-in failed")
    assert "unknown or revoked" in error.text, error.text
    # The refused request itself is the only console line allowed here (Chromium logs every 401).
    studio.check_page("signin-error", allowed_console=("status of 401",))


def sign_in(studio):
    studio.open("/studio")
    studio.wait("#token").send_keys(studio.token)
    studio.driver.find_element(By.CSS_SELECTOR, "form.signin button[type=submit]").click()
    studio.wait("table.data a", "passport-intake")


def test_flows_list_and_flow_page(studio):
    sign_in(studio)
    studio.check_page("flows")
    studio.wait("table.data a", "passport-intake").click()
    studio.wait("#versions")
    assert "production" in studio.wait("#live").text
    studio.check_page("flow")


def test_editor_lint_at_line_then_save_new_version(studio):
    before = studio.http("GET", "/v1/flows/passport-intake", headers=studio.author())[2]["latestVersion"]
    studio.open("/studio/flows/passport-intake/editor")
    studio.wait("#lint-summary", "No problems")
    studio.wait("#matrix")
    studio.check_page("editor")
    text = studio.driver.find_element(By.ID, "flow-json").get_attribute("value")
    broken = text.replace('"fieldId": "purpose"', '"fieldId": "passportCountry"', 1)
    assert broken != text
    lines = broken.split("\n")
    expected = [i + 1 for i, line in enumerate(lines) if '"fieldId": "passportCountry"' in line][1]
    # The page measures the time from the edit to the problem being shown (an event, not a poll).
    elapsed = studio.driver.execute_async_script("""
        const [value, done] = arguments;
        const area = document.getElementById('flow-json');
        const list = document.getElementById('problems');
        const start = performance.now();
        new MutationObserver((_, observer) => {
          if (list.querySelector('li[data-code="duplicateFieldId"]')) { observer.disconnect(); done(performance.now() - start); }
        }).observe(list, { childList: true, subtree: true });
        area.value = value;
        area.dispatchEvent(new Event('input', { bubbles: true }));
    """, broken)
    problem = studio.wait('#problems li[data-code="duplicateFieldId"]')
    assert problem.get_attribute("data-line") == str(expected), (problem.get_attribute("data-line"), expected)
    assert f"Line {expected}" in problem.text and "duplicateFieldId" in problem.text, problem.text
    studio.wait(f'.gutter .line.error[data-line="{expected}"]')
    assert not studio.driver.find_element(By.ID, "save").is_enabled(), "save is refused while lint fails"
    print(f"  lint problem shown {elapsed:.0f} ms after the edit")
    assert elapsed < 1000, f"the problem took {elapsed:.0f} ms to appear (issue 13: within 1 s)"
    studio.check_page("editor-problem")

    # The label is a plain string, or a localized object whose "en" member is changed.
    fixed = re.sub(r'("(?:label|en)": ")Purpose of [^"]*"', rf'\1Purpose of your trip ({os.getpid()}-{time.time_ns()})"',
                   text, count=1)
    assert fixed != text
    studio.driver.execute_script("""
        const area = document.getElementById('flow-json');
        area.value = arguments[0];
        area.dispatchEvent(new Event('input', { bubbles: true }));
    """, fixed)
    studio.wait("#lint-summary", "No problems")
    studio.wait("#save:not([disabled])").click()
    saved = studio.wait("#save-result .notice.ok", "Saved as version")
    version = int(re.search(r"version (\d+)", saved.text).group(1))
    assert version > before, (version, before)
    studio.wait("#save-result a", "See the versions").click()
    studio.wait("#versions th", f"v{version}")


def test_save_conflict_is_said_plainly(studio):
    flow = "delivery-address"
    studio.open(f"/studio/flows/{flow}/editor")
    studio.wait("#lint-summary", "No problems")
    text = studio.driver.find_element(By.ID, "flow-json").get_attribute("value")
    mine = json.loads(text)
    mine["title"] = f"Delivery address (studio {time.time_ns()})"
    studio.driver.execute_script("""
        const area = document.getElementById('flow-json');
        area.value = arguments[0];
        area.dispatchEvent(new Event('input', { bubbles: true }));
    """, json.dumps(mine, indent=2))
    studio.wait("#lint-summary", "No problems")
    # Someone else saves a version first.
    theirs = json.loads(text)
    theirs["title"] = f"Delivery address (elsewhere {time.time_ns()})"
    status, _, stored = studio.http("POST", "/v1/flows", theirs, studio.author())
    assert status == 201, (status, stored)
    studio.wait("#save:not([disabled])").click()
    refused = studio.wait("#save-result .notice.error", "Not saved")
    assert f"someone saved version {stored['version']}" in refused.text, refused.text
    assert "Your text is kept" in refused.text
    assert json.loads(studio.driver.find_element(By.ID, "flow-json").get_attribute("value"))["title"] == mine["title"]
    studio.check_page("editor-conflict", allowed_console=("status of 412",))
    studio.driver.execute_script(f"sessionStorage.removeItem('parley.draft.{flow}')")


def test_preview_shows_picker_fallback_on_1_0_and_quick_replies_on_1_2(studio):
    studio.open("/studio/flows/chat-support/preview?step=topic")
    old = studio.wait('.core-column[data-core="1.0"]')
    new = studio.wait('.core-column[data-core="1.2"]')
    assert old.find_elements(By.CSS_SELECTOR, ".device select"), "1.0 gets the picker"
    assert not old.find_elements(By.CSS_SELECTOR, ".device fieldset.quick-replies")
    report = old.find_element(By.CSS_SELECTOR, '.report li[data-action="substituted"][data-node="topic"]')
    assert "replaced by its fallback" in report.text and "quickReplies" in report.text, report.text
    assert new.find_elements(By.CSS_SELECTOR, ".device fieldset.quick-replies input[type=radio]"), "1.2 gets replies"
    assert not new.find_elements(By.CSS_SELECTOR, ".device select")
    assert "Served as authored" in new.text
    studio.check_page("preview")
    # A localized flow previews in each of its languages.
    studio.open("/studio/flows/passport-intake/preview?step=country&locale=fr")
    assert studio.wait("#locale").get_attribute("value") == "fr"
    studio.wait('.core-column[data-core="1.0"] .device label', "Motif du voyage")


def test_try_it_shows_the_interpreter_message_and_follows_the_branch(studio):
    studio.open("/studio/flows/passport-intake/try")
    studio.wait("#current-step", "country")
    studio.driver.find_element(By.CSS_SELECTOR, "#stage input[name=passportCountry]").send_keys("de")
    studio.driver.find_element(By.CSS_SELECTOR, "#stage select[name=purpose] option[value=work]").click()
    studio.driver.find_element(By.CSS_SELECTOR, "#stage button[type=submit]").click()
    error = studio.wait('#stage .field-error[data-field="passportCountry"]', "Use the two-letter country code.")
    assert error.get_attribute("id") == studio.driver.find_element(
        By.CSS_SELECTOR, "#stage input[name=passportCountry]").get_attribute("aria-describedby")
    studio.check_page("try-error")
    field = studio.driver.find_element(By.CSS_SELECTOR, "#stage input[name=passportCountry]")
    field.clear()
    field.send_keys("DE")
    studio.driver.find_element(By.CSS_SELECTOR, "#stage button[type=submit]").click()
    studio.wait("#current-step", "employer")  # purpose = work → employer
    assert "country" in studio.driver.find_element(By.ID, "path").text
    studio.check_page("try")


def test_graph_draws_edges_with_conditions_and_marks_unreachable(studio):
    studio.open("/studio/flows/passport-intake/graph")
    studio.wait("svg.graph")
    assert 'purpose = "work"' in studio.wait("#edges").text
    studio.check_page("graph")
    latest = studio.http("GET", "/v1/flows/chat-support", headers=studio.author())[2]["latestVersion"]
    draft = studio.http("GET", f"/v1/flows/chat-support/versions/{latest}", headers=studio.author())[2]["content"]
    lonely = json.loads(json.dumps(draft["steps"][-1]))
    lonely["id"] = "lonely"
    lonely["screen"]["id"] = "lonely"
    draft["steps"].append(lonely)
    studio.driver.execute_script("sessionStorage.setItem('parley.draft.chat-support', arguments[0])",
                                 json.dumps({"text": json.dumps(draft), "base": latest}))
    studio.open("/studio/flows/chat-support/graph")
    studio.wait("svg.graph .node.unreachable", "lonely")
    # Issue 26: a transition added from the graph reaches the draft (and the editor).
    Select(studio.wait("#edge-from")).select_by_value("done")
    Select(studio.wait("#edge-to")).select_by_value("lonely")
    studio.driver.find_element(By.ID, "add-edge-submit").click()
    studio.wait("main .notice.ok", "Added: done → lonely")
    assert not studio.driver.find_elements(By.CSS_SELECTOR, "svg.graph .node.unreachable"), "lonely is reachable now"
    kept = json.loads(json.loads(studio.driver.execute_script("return sessionStorage.getItem('parley.draft.chat-support')"))["text"])
    assert {"goto": "lonely"} in next(step for step in kept["steps"] if step["id"] == "done")["next"], kept
    studio.check_page("graph-added-edge")
    studio.driver.execute_script("sessionStorage.removeItem('parley.draft.chat-support')")


def test_funnel_reads_stored_sessions(studio):
    # The funnel comes from the database, which the Swift suites share: another suite may have
    # walked delivery-address already. Empty, the page says so; otherwise it shows the table.
    empty = studio.http("GET", "/v1/flows/delivery-address/funnel", headers=studio.author())[2]
    studio.open("/studio/flows/delivery-address/funnel")
    if empty["started"] == 0:
        studio.wait("main .notice", "No sessions yet")
        studio.check_page("funnel-empty")
    else:
        studio.wait("#funnel tbody tr")
    key = {"Parley-Client-Key": CLIENT_KEY, "Parley-Core": "1.2.0"}
    # The funnel comes from the database (issue 26), which may hold earlier runs' sessions.
    before = studio.http("GET", "/v1/flows/chat-support/funnel", headers=studio.author())[2]
    passed = next((step["passed"] for step in before["steps"] if step["step"] == "topic"), 0)
    status, _, snapshot = studio.http("POST", "/v1/sessions", {"flow": "chat-support"}, key)
    assert status == 201, (status, snapshot)
    status, _, answer = studio.http("POST", f"/v1/sessions/{snapshot['session']}/answers",
                                    {"rev": snapshot["rev"], "step": "topic", "answers": {"topic": "Returns"}}, key)
    assert status == 200, (status, answer)
    studio.open("/studio/flows/chat-support/funnel")
    row = studio.wait("#funnel tbody tr", "topic")
    assert row.find_elements(By.CSS_SELECTOR, "td")[0].text == str(passed + 1), row.text
    studio.check_page("funnel")


def test_release_and_roll_back_from_the_page(studio):
    live, _ = studio.screen_version("passport-intake")
    latest = studio.http("GET", "/v1/flows/passport-intake", headers=studio.author())[2]["latestVersion"]
    assert latest > live, "the editor test saved a version newer than the live one"
    studio.open("/studio/flows/passport-intake")
    studio.wait(f'#versions button[data-version="{latest}"]').click()
    dialog = studio.wait("dialog.confirm[open]")
    assert f"version {latest}" in dialog.text and "production" in dialog.text, dialog.text
    studio.check_page("release-confirm")
    studio.driver.find_element(By.ID, "confirm-release").click()
    studio.wait("main .notice.ok", f"Released version {latest}")
    assert wait_for_screen_version(studio, latest)
    studio.wait(f'#versions button[data-version="{live}"]', "Roll back").click()
    studio.wait("dialog.confirm[open]")
    studio.driver.find_element(By.ID, "confirm-release").click()
    studio.wait("main .notice.ok", f"Rolled back to version {live}")
    assert wait_for_screen_version(studio, live)
    assert "Roll back" in studio.wait("#history").text or "released" in studio.wait("#history").text
    studio.check_page("released")


def wait_for_screen_version(studio, version):
    """GET /v1/screens follows a release (polled until it does, with a hang guard)."""
    deadline = time.monotonic() + HANG_GUARD
    while time.monotonic() < deadline:
        if studio.screen_version("passport-intake")[0] == version:
            return True
        time.sleep(0.1)
    raise AssertionError(f"GET /v1/screens/passport-intake never served version {version}")


def test_client_key_is_on(studio):
    status, _, _ = studio.http("GET", "/v1/screens/passport-intake")
    assert status == 401, "the server runs with --client-key, and the studio worked regardless"


TESTS = [
    test_wrong_token_shows_a_sign_in_error, test_flows_list_and_flow_page,
    test_editor_lint_at_line_then_save_new_version, test_save_conflict_is_said_plainly,
    test_preview_shows_picker_fallback_on_1_0_and_quick_replies_on_1_2,
    test_try_it_shows_the_interpreter_message_and_follows_the_branch,
    studio_expression_tests.test_try_it_shows_fields_and_recalled_texts_as_answers_change,
    studio_expression_tests.test_editor_shows_an_expression_lint_problem_at_its_line,
    test_graph_draws_edges_with_conditions_and_marks_unreachable, test_funnel_reads_stored_sessions,
    test_release_and_roll_back_from_the_page, test_client_key_is_on,
    studio_editor_tests.test_build_a_flow_visually_and_save_it,
    studio_editor_tests.test_undo_redo_of_every_other_kind_of_edit,
    studio_editor_tests.test_json_view_drives_the_visual_side,
    studio_editor_tests.test_first_load_is_small,
    studio_data_tests.test_accessibility_lint_everywhere,
    studio_data_tests.test_funnel_from_the_database_is_the_same_everywhere,
    studio_wasm_tests.test_kit_walks_passport_intake_across_a_server_restart,
    studio_wasm_tests.test_kit_follows_a_live_session,
    studio_wasm_tests.test_studio_lints_and_previews_with_the_server_stopped,
    studio_wasm_tests.test_studio_asks_the_server_where_webassembly_is_unavailable,
]


def main():
    os.makedirs(SHOTS, exist_ok=True)
    for stale in os.listdir(SHOTS):
        if stale.endswith(".png"):
            os.unlink(os.path.join(SHOTS, stale))
    studio = Studio()
    failed = []
    # STUDIO_TESTS=part,part runs only the tests whose names contain a part (signed in first).
    only = [part for part in os.environ.get("STUDIO_TESTS", "").split(",") if part]
    tests = [test for test in TESTS if not only or any(part in test.__name__ for part in only)]
    try:
        if only:
            sign_in(studio)
        for test in tests:
            try:
                test(studio)
                print(f"✔ {test.__name__}")
            except Exception:  # noqa: BLE001 - every failure is reported, then the run fails
                failed.append(test.__name__)
                print(f"✘ {test.__name__}\n{traceback.format_exc()}")
                studio.driver.save_screenshot(os.path.join(SHOTS, f"failed-{test.__name__}.png"))
    finally:
        studio.close()
        if failed:
            print("server log (tail):\n" + open(studio.log.name).read()[-3000:])
        os.unlink(studio.log.name)
    print(f"screenshots: {SHOTS}")
    print(f"browser tests: {len(tests) - len(failed)} passed, {len(failed)} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
