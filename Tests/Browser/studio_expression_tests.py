"""Issue 25 in a real headless Chromium: "Try it" on the shipped travel-insurance flow shows
fields appearing and texts changing as answers change, evaluated by the server's interpreter
(POST /v1/flows/preview's `evaluation`), and recalls an earlier answer on a later step.
Imported by studio_browser_test.py."""
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

HANG_GUARD = 20  # seconds: only a ceiling against hangs, never a speed assertion


def _until(studio, condition, what):
    return WebDriverWait(studio.driver, HANG_GUARD).until(lambda driver: condition(), f"waiting until {what}")


def _stage(studio, css):
    return studio.driver.find_element(By.CSS_SELECTOR, f"#stage {css}")


def _shown(studio, field):
    found = studio.driver.find_elements(By.CSS_SELECTOR, f"#stage [name={field}]")
    return bool(found) and found[0].is_displayed()


def _type(studio, field, value):
    control = _stage(studio, f"input[name={field}]")
    control.clear()
    control.send_keys(value)


def test_try_it_shows_fields_and_recalled_texts_as_answers_change(studio):
    studio.open("/studio/flows/travel-insurance/try")
    studio.wait("#current-step", "trip")
    Select(studio.driver.find_element(By.ID, "core")).select_by_value("2.1.0")
    # The step as core 2.1 is served it: the "please specify" field with its visibleWhen.
    studio.wait('#stage form[data-core="2.1.0"] select[name=purpose]')
    purpose = lambda: Select(_stage(studio, "select[name=purpose]"))  # noqa: E731 - re-found after re-renders
    assert not _shown(studio, "otherPurpose"), "\"please specify\" is hidden until the purpose is other"
    purpose().select_by_value("other")
    _until(studio, lambda: _shown(studio, "otherPurpose"), "choosing other shows \"please specify\"")
    studio.check_page("try-expressions")
    purpose().select_by_value("leisure")
    _until(studio, lambda: not _shown(studio, "otherPurpose"), "choosing another purpose hides it again")
    # The live premium (a template over a computed value of this screen) follows the answers.
    _type(studio, "tripCost", "1000")
    _type(studio, "travellers", "2")
    _type(studio, "days", "10")
    _until(studio, lambda: "50" in _stage(studio, '[data-text="estimate/text"]').text, "the premium is 50")
    _stage(studio, "button[type=submit]").click()
    studio.wait("#current-step", "traveller")
    _type(studio, "firstName", "Ana")
    _type(studio, "email", "ana@example.com")
    Select(_stage(studio, "select[name=country]")).select_by_value("FR")
    _stage(studio, "button[type=submit]").click()
    studio.wait("#current-step", "address")
    # The recalled name, from the traveller step, on the address step.
    studio.wait("#stage", "Where should we send your policy, Ana?")
    assert _shown(studio, "postcode") and not _shown(studio, "postalCode"), "French addresses get the postcode"
    _type(studio, "street", "1 rue de la Paix")
    _type(studio, "postcode", "75002")
    _type(studio, "city", "Paris")
    _stage(studio, "button[type=submit]").click()
    studio.wait("#current-step", "confirm")
    studio.wait("#stage", "Thanks, Ana — your premium is 50.")
    studio.check_page("try-recall")


def test_editor_shows_an_expression_lint_problem_at_its_line(studio):
    studio.open("/studio/flows/travel-insurance/editor")
    studio.wait("#lint-summary", "No problems")
    text = studio.driver.find_element(By.ID, "flow-json").get_attribute("value")
    # The confirm step's template recalls the e-mail; make it recall the sensitive medical notes.
    broken = text.replace('"field": "email"', '"field": "medicalNotes"')
    assert broken.count('"field": "medicalNotes"') == 1, "the policy template reads the e-mail once"
    line = [i + 1 for i, row in enumerate(broken.split("\n")) if '"field": "medicalNotes"' in row][0]
    studio.driver.execute_script("""
        const area = document.getElementById('flow-json');
        area.value = arguments[0];
        area.dispatchEvent(new Event('input', { bubbles: true }));
    """, broken)
    problem = studio.wait('#problems li[data-code="templateReadsSensitiveField"]')
    # The pointer names the template part: the object's line or its "field" line.
    assert problem.get_attribute("data-line") in (str(line - 1), str(line)), (problem.get_attribute("data-line"), line)
    assert "medicalNotes" in problem.text, problem.text
    assert not studio.driver.find_element(By.ID, "save").is_enabled(), "save is refused while lint fails"
    studio.check_page("editor-expression-problem")
    # Back to the stored text, so leaving the page asks nothing (no unsaved change) and no draft stays.
    studio.driver.execute_script("""
        const area = document.getElementById('flow-json');
        area.value = arguments[0];
        area.dispatchEvent(new Event('input', { bubbles: true }));
    """, text)
    studio.wait("#lint-summary", "No problems")
    studio.driver.execute_script("sessionStorage.removeItem('parley.draft.travel-insurance')")
