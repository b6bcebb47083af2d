"""Issue 26 in a real headless Chromium: the visual editor (keyboard and mouse only, no JSON
typed), undo/redo of every kind of edit, the JSON view driving the visual side, and the
accessibility lint in the studio. Imported by studio_browser_test.py, which runs them."""
import difflib
import json
import os
import re
import time

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")
FIXTURE = "visual-trip"
# A flow id of its own per run: the visual editor starts from a flow that has no version yet.
FLOW = f"visual-trip-{os.getpid()}-{int(time.time())}"
# Chromium logs the leave guard (an unsaved draft) when a test navigates away without a gesture.
LEAVING = ("beforeunload", "status of 404")


def vid(key):
    """The DOM id the studio gives the control of `key` (fields.js idFor)."""
    return "ve-" + re.sub(r"[^A-Za-z0-9_-]+", "-", key)


def control(studio, key):
    return studio.wait(f"#{vid(key)}")


def type_into(studio, key, text):
    """Selects what the control holds and types `text`, then Tab commits it (a change event)."""
    element = control(studio, key)
    element.send_keys(Keys.CONTROL, "a")
    element.send_keys(text, Keys.TAB)


def click(studio, key):
    control(studio, key).click()


def choose(studio, key, value):
    Select(control(studio, key)).select_by_value(value)


def draft(studio):
    return studio.driver.find_element(By.ID, "flow-json").get_attribute("value")


def keys(studio, *chord):
    """Presses a chord (e.g. Ctrl+Z) wherever the focus is."""
    actions = ActionChains(studio.driver)
    for key in chord[:-1]:
        actions.key_down(key)
    actions.send_keys(chord[-1])
    for key in reversed(chord[:-1]):
        actions.key_up(key)
    actions.perform()


def undo(studio):
    keys(studio, Keys.CONTROL, "z")


def redo(studio):
    keys(studio, Keys.CONTROL, Keys.SHIFT, "z")


def canonical(value):
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def build_flow(studio):
    """The fixture's flow from the studio's empty flow, through the visual editor only."""
    type_into(studio, "flow/locales", "en, fr")
    type_into(studio, "flow/title/en", "Trip")
    type_into(studio, "flow/title/fr", "Voyage")
    type_into(studio, "step/rename", "trip")
    studio.wait("#ve-pick-step-trip")
    type_into(studio, "screen/trip/title/en", "Your trip")
    type_into(studio, "screen/trip/title/fr", "Votre voyage")
    studio.wait("#ve-node-0").click()
    type_into(studio, "node/trip/0/text/en", "A few questions.")
    type_into(studio, "node/trip/0/text/fr", "Quelques questions.")
    click(studio, "add-picker")  # after the selected text
    type_into(studio, "node/trip/1/fieldId", "purpose")
    type_into(studio, "node/trip/1/label/en", "Purpose of the trip")
    type_into(studio, "node/trip/1/label/fr", "Motif du voyage")
    options = control(studio, "node/trip/1/options")
    options.send_keys(Keys.CONTROL, "a")
    options.send_keys("tourism", Keys.ENTER, "work", Keys.TAB)
    click(studio, "node/trip/1/rules/add")
    type_into(studio, "node/trip/1/rules/0/message/en", "Choose a purpose.")
    type_into(studio, "node/trip/1/rules/0/message/fr", "Choisissez un motif.")
    studio.wait("#ve-node-2").click()
    type_into(studio, "node/trip/2/title/en", "Continue")
    type_into(studio, "node/trip/2/title/fr", "Continuer")

    click(studio, "step/add")
    type_into(studio, "step/rename", "employer")
    studio.wait("#ve-pick-step-employer")
    type_into(studio, "screen/employer/title/en", "Employer")
    type_into(studio, "screen/employer/title/fr", "Employeur")
    click(studio, "add-textField")  # into the selected root
    type_into(studio, "node/employer/0/fieldId", "employer")
    type_into(studio, "node/employer/0/label/en", "Employer name")
    type_into(studio, "node/employer/0/label/fr", "Nom de l’employeur")
    click(studio, "node/employer/0/rules/add")
    type_into(studio, "node/employer/0/rules/0/message/en", "Enter your employer.")
    type_into(studio, "node/employer/0/rules/0/message/fr", "Indiquez votre employeur.")
    click(studio, "node/employer/0/rules/add")
    choose(studio, "node/employer/0/rules/1/kind", "pattern")
    type_into(studio, "node/employer/0/rules/1/value", "[A-Za-z ]+")
    type_into(studio, "node/employer/0/rules/1/message/en", "Letters and spaces only.")
    type_into(studio, "node/employer/0/rules/1/message/fr", "Lettres et espaces seulement.")
    studio.wait("#ve-node-root").click()
    click(studio, "add-button")
    type_into(studio, "node/employer/1/title/en", "Continue")
    type_into(studio, "node/employer/1/title/fr", "Continuer")

    click(studio, "step/add")
    type_into(studio, "step/rename", "done")
    studio.wait("#ve-pick-step-done")
    type_into(studio, "screen/done/title/en", "Thank you")
    type_into(studio, "screen/done/title/fr", "Merci")
    click(studio, "add-text")
    type_into(studio, "node/done/0/text/en", "We will be in touch.")
    type_into(studio, "node/done/0/text/fr", "Nous vous recontacterons.")

    studio.wait("#ve-pick-step-trip").click()
    click(studio, "next/trip/add")
    click(studio, "next/trip/0/conditional")
    type_into(studio, "next/trip/0/when/value", "work")
    click(studio, "next/trip/add")
    choose(studio, "next/trip/1/goto", "done")
    studio.wait("#ve-pick-step-employer").click()
    click(studio, "next/employer/add")
    choose(studio, "next/employer/0/goto", "done")


def test_build_a_flow_visually_and_save_it(studio):
    studio.driver.execute_script(f"sessionStorage.removeItem('parley.draft.{FLOW}')")
    studio.open(f"/studio/flows/{FLOW}/editor")
    studio.wait("#visual #ve-pick-step-start")
    start = draft(studio)
    studio.check_page("visual-editor-empty", allowed_console=LEAVING)  # a new flow: no version yet
    build_flow(studio)
    built = draft(studio)
    expected = json.load(open(os.path.join(FIXTURES, f"{FIXTURE}.json")))
    expected["id"] = FLOW
    if canonical(json.loads(built)) != canonical(expected):
        with open(os.path.join(os.environ.get("STUDIO_SCREENSHOTS", "/tmp"), f"{FIXTURE}-built.json"), "w") as out:
            out.write(built)  # beside the screenshots, to compare with the fixture
        raise AssertionError(f"the built flow differs from fixtures/{FIXTURE}.json:\n{built}")
    studio.wait("#lint-summary", "No problems")
    studio.check_page("visual-editor-built", allowed_console=LEAVING)

    # Undo every edit back to the empty flow, then redo them all: exactly the same JSON.
    steps = 0
    while studio.driver.find_element(By.ID, "undo").is_enabled():
        undo(studio)
        steps += 1
        assert steps < 500, "undo never reached the start"
    assert draft(studio) == start, "undoing everything gives the empty flow back"
    for _ in range(steps):
        redo(studio)
    assert draft(studio) == built, "redoing everything gives the built flow back"
    assert not studio.driver.find_element(By.ID, "redo").is_enabled()
    print(f"  {steps} edits undone and redone")

    studio.wait("#lint-summary", "No problems")
    studio.wait("#save:not([disabled])").click()
    studio.wait("#save-result .notice.ok", "Saved as version")
    status, _, stored = studio.http("GET", f"/v1/flows/{FLOW}/versions/1", headers=studio.author())
    assert status == 200, (status, stored)
    assert canonical(stored["content"]) == canonical(expected), [
        line for line in difflib.unified_diff(json.dumps(expected, sort_keys=True, indent=1).split("\n"),
                                              json.dumps(stored["content"], sort_keys=True, indent=1).split("\n"))]


def roundtrip(studio, name, act):
    """`act` changes the draft; undo gives the text before, redo the text after, exactly."""
    before = draft(studio)
    act()
    after = draft(studio)
    assert after != before, f"{name} changed nothing"
    undo(studio)
    assert draft(studio) == before, f"undo of {name}"
    redo(studio)
    assert draft(studio) == after, f"redo of {name}"


def test_undo_redo_of_every_other_kind_of_edit(studio):
    studio.open(f"/studio/flows/{FLOW}/editor")
    studio.wait("#ve-pick-step-trip").click()
    studio.wait("#ve-node-1").click()
    roundtrip(studio, "duplicate node", lambda: click(studio, "node/duplicate"))
    roundtrip(studio, "move node by keyboard", lambda: studio.wait("#ve-node-2").send_keys(Keys.ALT, Keys.ARROW_UP))
    studio.wait("#ve-node-1").click()
    roundtrip(studio, "move node by button", lambda: click(studio, "node/down"))
    studio.wait("#ve-node-2").click()
    roundtrip(studio, "delete node", lambda: click(studio, "node/delete"))
    studio.wait("#ve-node-1").click()
    roundtrip(studio, "add rule", lambda: click(studio, "node/trip/1/rules/add"))
    roundtrip(studio, "reorder rules", lambda: click(studio, "node/trip/1/rules/1/up"))
    roundtrip(studio, "delete rule", lambda: click(studio, "node/trip/1/rules/0/delete"))
    roundtrip(studio, "sensitive", lambda: click(studio, "node/trip/1/sensitive"))
    roundtrip(studio, "fallback", lambda: click(studio, "node/trip/1/fallback/add"))
    roundtrip(studio, "reorder transitions", lambda: click(studio, "next/trip/1/up"))
    roundtrip(studio, "condition any", lambda: choose(studio, "next/trip/1/when/kind", "any"))
    roundtrip(studio, "move step", lambda: click(studio, "step/down"))
    studio.wait("#ve-pick-step-employer").click()
    roundtrip(studio, "set start", lambda: click(studio, "step/start"))

    def delete_step():
        click(studio, "step/delete")
        lines = studio.wait("dialog[open] #confirm-lines")
        assert "of “trip” goes to it" in lines.text, lines.text
        studio.check_page("visual-editor-delete-step", allowed_console=LEAVING)
        studio.driver.find_element(By.ID, "confirm-ok").click()
    roundtrip(studio, "delete step", delete_step)
    studio.driver.execute_script(f"sessionStorage.removeItem('parley.draft.{FLOW}')")


def test_json_view_drives_the_visual_side(studio):
    studio.open(f"/studio/flows/{FLOW}/editor")
    studio.wait("#ve-pick-step-employer")
    text = draft(studio)
    edited = text.replace('"employer"', '"work"')
    set_text = """
        const area = document.getElementById('flow-json');
        area.value = arguments[0];
        area.dispatchEvent(new Event('input', { bubbles: true }));
    """
    studio.driver.execute_script(set_text, edited)
    studio.wait("#ve-pick-step-work")
    assert not studio.driver.find_elements(By.ID, "ve-pick-step-employer")
    studio.driver.execute_script(set_text, edited[:-3])
    reason = studio.wait("#visual-reason", "does not parse")
    assert "line" in reason.text, reason.text
    assert not control(studio, "step/add").is_enabled(), "the visual side is read-only"
    studio.check_page("visual-editor-read-only", allowed_console=LEAVING)
    studio.driver.execute_script(set_text, text)
    studio.wait("#visual-reason", gone=True)
    assert control(studio, "step/add").is_enabled()
    studio.driver.execute_script(f"sessionStorage.removeItem('parley.draft.{FLOW}')")


def test_first_load_is_small(studio):
    """Issue 26: the studio's first load under 150 KB transferred (printed; a size, not a time)."""
    studio.driver.execute_cdp_cmd("Network.enable", {})
    studio.driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
    try:
        studio.open(f"/studio/flows/{FLOW}/editor")
        studio.wait("#visual")
        # parley-core.wasm and its wrapper (issue 31) are not part of the first load: the page shows
        # and works without them, and they are fetched once the editor first lints; printed apart.
        total, module = studio.driver.execute_script("""
            const entries = [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')];
            const sum = (list) => list.reduce((total, entry) => total + entry.transferSize, 0);
            const studio = entries.filter((entry) => entry.name.includes('/studio'));
            const core = (entry) => /\/parley-core\.(wasm|mjs)$/.test(entry.name);
            return [sum(studio.filter((entry) => !core(entry))), sum(studio.filter(core))];
        """)
    finally:
        studio.driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": False})
    print(f"  studio first load: {total / 1024:.1f} KB transferred (page, styles and every module); "
          f"then parley-core.wasm and .mjs: {module / 1024:.1f} KB")
    assert 0 < total < 150 * 1024, total
