"""Issue 26 against the real server: the accessibility lint in `parley lint`, POST /v1/flows/lint,
publishing (strict) and the studio; the funnel from the database, the same from two replicas and
after a restart, branch-aware on passport-intake. Imported by studio_browser_test.py."""
import json
import os
import re
import subprocess
import tempfile
import time

from selenium.webdriver.common.by import By

A11Y_FLOW = "a11y-cases"
# Each accessibility finding of a11y_flow() with where it is (node 5, a decorative image, is clean).
EXPECTED = {
    ("screenWithoutTitle", "/steps/0/screen/title"),
    ("inputWithoutLabel", "/steps/0/screen/root/children/0/properties/label"),
    ("ruleWithoutMessage", "/steps/0/screen/root/children/1/properties/validation/0"),
    ("duplicateInputLabel", "/steps/0/screen/root/children/2/properties/label"),
    ("duplicateOptionLabel", "/steps/0/screen/root/children/3/properties/options/1"),
    ("imageWithoutAlt", "/steps/0/screen/root/children/4/properties/alt"),
    ("buttonWithoutTitle", "/steps/0/screen/root/children/6/properties/title"),
    ("buttonTitleTooLong", "/steps/0/screen/root/children/7/properties/title"),
    ("duplicateButtonTitle", "/steps/0/screen/root/children/8/properties/title"),
}


def a11y_flow(strict=False):
    nodes = [
        {"type": "textField", "id": "a", "properties": {"fieldId": "a", "placeholder": "Name"}},
        {"type": "textField", "id": "b", "properties": {"fieldId": "b", "label": "City", "validation": [{"rule": "required"}]}},
        {"type": "textField", "id": "c", "properties": {"fieldId": "c", "label": " city"}},
        {"type": "picker", "id": "d", "properties": {"fieldId": "d", "label": "Kind", "options": ["Work", "work "]}},
        {"type": "image", "id": "e", "properties": {"url": "https://example.com/a.png"}},
        {"type": "image", "id": "e2", "properties": {"url": "https://example.com/b.png", "decorative": True}},
        {"type": "button", "id": "f", "properties": {"title": "→", "action": {"type": "submit"}}},
        {"type": "button", "id": "g", "properties": {"title": "Continue to the very next part of this form", "action": {"type": "submit"}}},
        {"type": "button", "id": "h", "properties": {"title": "→", "action": {"type": "openUrl", "url": "https://example.com"}}},
    ]
    flow = {"schema": "parley.flow/1", "id": A11Y_FLOW, "start": "s",
            "steps": [{"id": "s", "screen": {"id": "s", "root": {"type": "vstack", "id": "root", "children": nodes}}, "next": []}]}
    if strict:
        flow["accessibility"] = "strict"
    return flow


def findings(problems):
    return {(problem["code"], problem["pointer"]) for problem in problems}


def test_accessibility_lint_everywhere(studio):
    want = EXPECTED
    # POST /v1/flows/lint: warnings, and the flow stays valid.
    status, _, report = studio.http("POST", "/v1/flows/lint", a11y_flow(), studio.author())
    assert status == 200, (status, report)
    got = findings(report["problems"])
    assert want <= got, f"missing {want - got}"
    assert all(p["severity"] == "warning" for p in report["problems"]), report["problems"]
    assert report["valid"] is True
    # It publishes with warnings; strict refuses with the same codes as errors.
    status, _, stored = studio.http("POST", "/v1/flows", a11y_flow(), studio.author())
    assert status in (200, 201), (status, stored)
    status, _, refused = studio.http("POST", "/v1/flows", a11y_flow(strict=True), studio.author())
    assert status == 422, (status, refused)
    assert want <= findings(refused["problems"]), refused
    assert all(p["severity"] == "error" for p in refused["problems"])
    # parley lint: counted, exit 0 for warnings and 1 under strict.
    with tempfile.TemporaryDirectory() as folder:
        for strict in (False, True):
            path = os.path.join(folder, f"flow-{strict}.json")
            json.dump(a11y_flow(strict), open(path, "w"))
            run = subprocess.run([os.environ["PARLEY_BIN"], "lint", "--json", path], capture_output=True, text=True)
            assert run.returncode == (1 if strict else 0), (run.returncode, run.stdout, run.stderr)
            assert want <= findings(json.loads(run.stdout)["problems"]), run.stdout
            human = subprocess.run([os.environ["PARLEY_BIN"], "lint", path], capture_output=True, text=True).stdout
            if not strict:
                assert f"0 problems, {len(json.loads(run.stdout)['problems'])} warnings" in human, human
    # The studio: beside the other problems, with code, pointer and severity.
    studio.driver.execute_script("sessionStorage.setItem(arguments[0], arguments[1])", f"parley.draft.{A11Y_FLOW}",
                                 json.dumps({"text": json.dumps(a11y_flow(), indent=2), "base": None}))
    studio.open(f"/studio/flows/{A11Y_FLOW}/editor")
    studio.wait("#lint-summary", "warning")
    for code, pointer in want:
        item = studio.wait(f'#problems li[data-code="{code}"][data-pointer="{pointer}"]')
        assert item.get_attribute("data-severity") == "warning", (code, item.get_attribute("data-severity"))
    assert studio.driver.find_element(By.ID, "save").is_enabled(), "warnings do not block saving"
    studio.check_page("editor-accessibility-warnings", allowed_console=("beforeunload", "status of 404"))
    studio.driver.execute_script("sessionStorage.setItem(arguments[0], arguments[1])", f"parley.draft.{A11Y_FLOW}",
                                 json.dumps({"text": json.dumps(a11y_flow(True), indent=2), "base": None}))
    studio.open(f"/studio/flows/{A11Y_FLOW}/editor")
    studio.wait('#problems li[data-code="inputWithoutLabel"][data-severity="error"]')
    assert not studio.driver.find_element(By.ID, "save").is_enabled(), "strict findings block saving"
    studio.driver.execute_script(f"sessionStorage.removeItem('parley.draft.{A11Y_FLOW}')")


def start_replica(studio):
    """Another `parley serve` on the same database: (process, base URL, log path)."""
    log = tempfile.NamedTemporaryFile(prefix="studio-replica-", suffix=".log", delete=False)
    process = subprocess.Popen([os.environ["PARLEY_BIN"], "serve", "--host", "127.0.0.1", "--port", "0",
                                "--migrations", "Migrations", "--client-key", studio.client_key],
                               cwd=studio.root, stdout=log, stderr=log)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        match = re.search(r"listening on 127\.0\.0\.1:(\d+)", open(log.name).read())
        if match:
            return process, f"http://127.0.0.1:{match.group(1)}", log.name
        if process.poll() is not None:
            break
        time.sleep(0.05)
    process.kill()
    raise RuntimeError("replica did not start:\n" + open(log.name).read()[-2000:])


def stop_replica(process, log):
    process.terminate()
    process.wait(timeout=20)
    os.unlink(log)


def test_funnel_from_the_database_is_the_same_everywhere(studio):
    flow = "passport-intake"
    replica, base, log = start_replica(studio)
    try:
        key = {"Parley-Client-Key": studio.client_key, "Parley-Core": "1.2.0"}
        bases = [studio.base, base]

        def session(index, purpose, employer):
            origin = bases[index % 2]
            status, _, snapshot = studio.http("POST", "/v1/sessions", {"flow": flow}, key, base=origin)
            assert status == 201, (status, snapshot)
            status, _, bad = studio.http("POST", f"/v1/sessions/{snapshot['session']}/answers",
                                         {"rev": 1, "step": "country", "answers": {"passportCountry": "de", "purpose": purpose}},
                                         key, base=bases[(index + 1) % 2])
            assert status == 422, (status, bad)
            status, _, answer = studio.http("POST", f"/v1/sessions/{snapshot['session']}/answers",
                                            {"rev": 1, "step": "country", "answers": {"passportCountry": "DE", "purpose": purpose}},
                                            key, base=bases[(index + 1) % 2])
            assert status == 200, (status, answer)
            if employer:
                status, _, answer = studio.http("POST", f"/v1/sessions/{snapshot['session']}/answers",
                                                {"rev": answer["rev"], "step": "employer",
                                                 "answers": {"employerName": "Acme", "employerCity": "Lyon"}}, key, base=origin)
                assert status == 200, (status, answer)

        # Three tourists stop at `document`; four work travellers, one of whom stops at `employer`.
        before = studio.http("GET", f"/v1/flows/{flow}/funnel", headers=studio.author())[2]
        for index, (purpose, employer) in enumerate([("tourism", False)] * 3 + [("work", True)] * 3 + [("work", False)]):
            session(index, purpose, employer)
        here = studio.http("GET", f"/v1/flows/{flow}/funnel", headers=studio.author())[2]
        there = studio.http("GET", f"/v1/flows/{flow}/funnel", headers=studio.author(), base=base)[2]
        assert here == there, (here, there)
        steps = {step["step"]: step for step in here["steps"]}
        old = {step["step"]: step for step in before["steps"]}
        assert here["started"] - before["started"] == 7
        employer = steps["employer"]
        grown = {name: employer[name] - old["employer"][name] for name in ("reachable", "reached", "passed")}
        # Only work travellers could reach `employer`: the tourists at `document` are no drop-off there.
        assert grown == {"reachable": 4, "reached": 4, "passed": 3}, grown
        assert employer["dropOff"] is not None
        rejected = [r for r in steps["country"]["rejections"] if r["field"] == "passportCountry" and r["rule"] == "pattern"]
        assert rejected and rejected[0]["core"] == "1.2.0", steps["country"]["rejections"]
        # A restart loses nothing.
        stop_replica(replica, log)
        replica, base, log = start_replica(studio)
        again = studio.http("GET", f"/v1/flows/{flow}/funnel", headers=studio.author(), base=base)[2]
        assert again == here, (again, here)
        bounded = studio.http("GET", f"/v1/flows/{flow}/funnel?from=2000-01-01&to=2999-01-01T00:00:00Z",
                              headers=studio.author())[2]
        assert bounded["started"] == here["started"] and bounded["filters"]["from"] == "2000-01-01", bounded
        empty = studio.http("GET", f"/v1/flows/{flow}/funnel?to=2000-01-01&core=1.2.0", headers=studio.author())[2]
        assert empty["started"] == 0 and all(step["dropOff"] is None for step in empty["steps"]), empty
        status, _, problem = studio.http("GET", f"/v1/flows/{flow}/funnel?from=yesterday", headers=studio.author())
        assert status == 400 and "from" in problem["detail"], (status, problem)
        # The page reads the endpoint and shows the filters.
        studio.open(f"/studio/flows/{flow}/funnel")
        row = studio.wait('#funnel tbody tr[data-step="employer"]')
        cells = [cell.text for cell in row.find_elements(By.CSS_SELECTOR, "td")]
        assert cells[:3] == [str(employer["passed"]), str(employer["reachable"]), str(employer["reached"])], cells
        studio.wait("#funnel-filters #filter-core")
        studio.check_page("funnel-database", allowed_console=("beforeunload",))
    finally:
        stop_replica(replica, log)
