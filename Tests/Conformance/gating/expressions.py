#!/usr/bin/env python3
"""Writes expressions.json: gating of what expressions add (core 2.1; docs/expressions.md "Gating").

Run from anywhere: python3 Tests/Conformance/gating/expressions.py. Every expected value below is
written by hand from the rules in README.md ("Expressions"), not computed by an implementation.
"""
import copy
import json
import os

SUBMIT = {"type": "button", "id": "next", "properties": {"title": "Continue", "action": {"type": "submit"}}}


def screen(*children, id="s"):
    return {"schema": "parley.screen/1", "id": id,
            "root": {"type": "vstack", "id": "root", "properties": {}, "children": list(children)}}


def text(id, value, **members):
    return {"type": "text", "id": id, "properties": {"text": value}, **members}


def field(id, label="Label", rules=None, **members):
    properties = {"fieldId": id, "label": label}
    if rules is not None:
        properties["validation"] = rules
    return {"type": "textField", "id": id, "properties": properties, **members}


def served(node):
    """A node as served: no `fallback` member."""
    node = copy.deepcopy(node)
    node.pop("fallback", None)
    return node


def entry(node, pointer, action):
    return {"nodeId": node, "pointer": pointer, "action": action}


def case(name, core, screen_, expected_screen, report, deferred=(), needs_upgrade=False, capabilities=None):
    result = {"name": name, "core": core}
    if capabilities:
        result["capabilities"] = capabilities
    result["screen"] = screen_
    expected = {}
    if not needs_upgrade:
        expected["screen"] = expected_screen
    expected.update({"report": report, "deferred": list(deferred), "needsUpgrade": needs_upgrade})
    result["expected"] = expected
    return result


def flow_case(name, core, flow, step, served_, expected_screen, report, deferred=()):
    expected = {"served": served_}
    if expected_screen is not None:
        expected["screen"] = expected_screen
    expected.update({"report": report, "deferred": list(deferred)})
    return {"name": name, "core": core, "flow": flow, "step": step, "expected": expected}


PURPOSE = {"type": "picker", "id": "purpose",
           "properties": {"fieldId": "purpose", "label": "Purpose", "options": ["leisure", "other"]}}
SHOWN_WHEN_OTHER = {"field": "purpose", "equals": "other"}
LIVE_TEMPLATE = {"template": ["You chose ", {"field": "purpose"}], "fallback": "Your choice is saved."}
LIVE_TEMPLATE_BARE = {"template": ["You chose ", {"field": "purpose"}]}

cases = []

# Screens (Gate.gate(screen)): visibleWhen.
other = field("other", "Please specify", visibleWhen=SHOWN_WHEN_OTHER)
note = text("note", "Tell us more below.", visibleWhen=SHOWN_WHEN_OTHER)
s = screen(PURPOSE, note, other, SUBMIT)
cases.append(case("a 2.1 core is served visibleWhen as authored", "2.1.0", s, s, []))
cases.append(case(
    "a 2.0 core drops a decorative node whose visibleWhen it cannot evaluate", "2.0.0",
    screen(PURPOSE, note, SUBMIT), screen(PURPOSE, SUBMIT),
    [entry("note", "/root/children/1", "dropped")]))
cases.append(case(
    "an input with visibleWhen escalates on 1.2 without a fallback", "1.2.0", s, None,
    [entry("note", "/root/children/1", "dropped"), entry("other", "/root/children/2", "escalated")],
    needs_upgrade=True))
always = field("other", "If other, please specify")
with_fallback = field("other", "Please specify", visibleWhen=SHOWN_WHEN_OTHER, fallback=always)
cases.append(case(
    "an input with visibleWhen is served its fallback on 1.0", "1.0.0",
    screen(PURPOSE, with_fallback, SUBMIT), screen(PURPOSE, always, SUBMIT),
    [entry("other", "/root/children/1", "substituted")]))
cases.append(case(
    "a pre-release of 2.1 lacks what 2.1 introduced", "2.1.0-rc.1",
    screen(PURPOSE, with_fallback, SUBMIT), screen(PURPOSE, always, SUBMIT),
    [entry("other", "/root/children/1", "substituted")]))
compare = text("big", "Big trip", visibleWhen={"field": "cost", "greaterThan": "1000"})
cost = field("cost", "Cost")
cases.append(case(
    "a 2.1 build without greaterThan drops a decorative node that compares", "2.1.0",
    screen(cost, compare, SUBMIT), screen(cost, SUBMIT), [entry("big", "/root/children/1", "dropped")],
    capabilities={"remove": ["expression:greaterThan"]}))
cases.append(case(
    "a 2.0 build with visibleWhen and greaterThan keeps the node", "2.0.0",
    screen(cost, compare, SUBMIT), screen(cost, compare, SUBMIT), [],
    capabilities={"add": ["expression:visibleWhen", "expression:greaterThan"]}))

# Screens: templates.
live = text("echo", LIVE_TEMPLATE)
cases.append(case("a 2.1 core is served a template unresolved, fallback included", "2.1.0",
                  screen(PURPOSE, live, SUBMIT), screen(PURPOSE, live, SUBMIT), []))
cases.append(case(
    "a 1.2 core is served a template's fallback text", "1.2.0",
    screen(PURPOSE, live, SUBMIT), screen(PURPOSE, text("echo", "Your choice is saved."), SUBMIT),
    [entry("echo", "/root/children/1/properties/text", "templateFallback")]))
cases.append(case(
    "a template without fallback escalates on 2.0, even on a decorative node", "2.0.0",
    screen(PURPOSE, text("echo", LIVE_TEMPLATE_BARE), SUBMIT), None,
    [entry("echo", "/root/children/1", "escalated")], needs_upgrade=True))
echo_with_node_fallback = text("echo", LIVE_TEMPLATE_BARE, fallback=text("echo-plain", "Thanks."))
cases.append(case(
    "a template without fallback on a node with a fallback node is substituted", "1.0.0",
    screen(PURPOSE, echo_with_node_fallback, SUBMIT), screen(PURPOSE, text("echo-plain", "Thanks."), SUBMIT),
    [entry("echo", "/root/children/1", "substituted")]))
label_template = field("name", {"template": ["Name of ", {"computed": "lead"}], "fallback": "Name"})
cases.append(case(
    "a template in an input's label falls back on 1.0 and stays on 2.1", "1.0.0",
    screen(label_template, SUBMIT), screen(field("name", "Name"), SUBMIT),
    [entry("name", "/root/children/0/properties/label", "templateFallback")]))
cases.append(case(
    "a template that reads a computed value needs the computed capability", "2.1.0",
    screen(label_template, SUBMIT), screen(field("name", "Name"), SUBMIT),
    [entry("name", "/root/children/0/properties/label", "templateFallback")],
    capabilities={"remove": ["expression:computed"]}))

# Screens: requiredIf with the new predicate forms.
plain_rule = {"rule": "requiredIf", "when": {"field": "purpose", "equals": "other"}}
new_rule = {"rule": "requiredIf", "when": {"computed": "total", "atLeast": "10000"}}
booking = field("booking", "Booking", rules=[plain_rule, new_rule])
cases.append(case(
    "a 1.2 core runs a requiredIf on equals and defers one on a computed comparison", "1.2.0",
    screen(PURPOSE, booking, SUBMIT), screen(PURPOSE, field("booking", "Booking", rules=[plain_rule]), SUBMIT),
    [], deferred=[{"field": "booking", "rule": "requiredIf"}]))
cases.append(case(
    "a 2.1 core runs both", "2.1.0", screen(PURPOSE, booking, SUBMIT), screen(PURPOSE, booking, SUBMIT), []))


# Flows (Gate.gate(flow, step:)): a step served without a session.
def flow(upgrade=False):
    document = {
        "schema": "parley.flow/1", "id": "trip", "start": "trip",
        "computed": {"double": {"mul": [{"field": "days"}, {"literal": "2"}]}},
        "steps": [
            {"id": "trip", "screen": screen(PURPOSE, field("days", "Days"), field("country", "Country"), SUBMIT,
                                            id="trip"),
             "next": [{"goto": "confirm"}]},
            {"id": "confirm", "screen": screen(
                text("thanks", {"template": ["Thanks for ", {"computed": "double"}, " days"]}),
                text("live", {"template": ["Code: ", {"field": "code"}], "fallback": "Enter the code you got."}),
                field("code", "Code"),
                text("fr", "French postcodes have five digits.", visibleWhen={"field": "country", "equals": "FR"}),
                text("notfr", "Use your local postal code.",
                     visibleWhen={"not": {"field": "country", "equals": "FR"}}),
                SUBMIT, id="confirm"), "next": []},
        ],
    }
    if upgrade:
        document["steps"][1]["screen"]["root"]["children"].append(
            text("echo", {"template": ["You typed ", {"field": "code"}]}))
        document["upgrade"] = screen(text("up", "Please update the app."), id="upgrade")
    return document


confirm = flow()["steps"][1]["screen"]
cases.append(flow_case(
    "without a session a 2.1 core gets every template and visibleWhen unresolved", "2.1.0", flow(), "confirm",
    "step", confirm, []))
cases.append(flow_case(
    "without a session 1.2 gets earlier-step templates with their expressions empty, live ones as fallback, "
    "and every node whose visibleWhen reads earlier steps shown",
    "1.2.0", flow(), "confirm", "step",
    screen(text("thanks", "Thanks for  days"), text("live", "Enter the code you got."), field("code", "Code"),
           text("fr", "French postcodes have five digits."), text("notfr", "Use your local postal code."), SUBMIT,
           id="confirm"),
    [entry("live", "/steps/1/screen/root/children/1/properties/text", "templateFallback")]))
cases.append(flow_case(
    "without a session 1.0 gets the upgrade screen for a live template without fallback", "1.0.0", flow(True),
    "confirm", "upgrade", screen(text("up", "Please update the app."), id="upgrade"),
    [entry("live", "/steps/1/screen/root/children/1/properties/text", "templateFallback"),
     entry("echo", "/steps/1/screen/root/children/6", "escalated")]))

document = {"description": "What expressions add (core 2.1): visibleWhen, templates, computed values and the new "
                           "predicate forms; screens without a session.", "cases": cases}
path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "expressions.json")
with open(path, "w", encoding="utf-8") as handle:
    json.dump(document, handle, indent=2, ensure_ascii=False)
    handle.write("\n")
print(f"{len(cases)} cases → {path}")
