#!/usr/bin/env python3
"""Adds to a bundle (parley bundle build) a copy of one of its flows with its expressions taken
out, as `<flow>-plain`, for deploy/profile-screen's with/without comparison (issue 25: the answer
path with expressions may cost at most 10% more instructions than the same flow without them).

Taken out: the flow's computed values; a node's visibleWhen (the node becomes its fallback when it
has one — what a core before 2.1 is served — else it is always shown); templates (their fallback
text, else their text parts with the expressions left out); requiredIf rules that read a computed
value; and a `next` condition that reads one becomes an equals on the step's first field, so its
branch stays reachable. Usage: plain-flow.py BUNDLE FLOW (rewrites BUNDLE).
"""
import copy
import json
import sys


def reads_computed(value):
    if isinstance(value, dict):
        return "computed" in value or any(reads_computed(item) for item in value.values())
    if isinstance(value, list):
        return any(reads_computed(item) for item in value)
    return False


def plain_text(template):
    """A template as plain text: its fallback, else its string parts (localized parts per locale)."""
    if "fallback" in template:
        return template["fallback"]
    texts = {}
    plain = ""
    for part in template["template"]:
        if isinstance(part, str):
            plain += part
        elif isinstance(part, dict) and all(isinstance(v, str) for v in part.values()) and not (
                {"field", "computed", "literal"} & part.keys()):
            for locale, text in part.items():
                texts[locale] = texts.get(locale, plain) + text
    return texts or plain


def plain_node(node):
    if "visibleWhen" in node:
        node = copy.deepcopy(node.get("fallback", node))
        node.pop("visibleWhen", None)
    properties = node.get("properties", {})
    for name, value in list(properties.items()):
        if isinstance(value, dict) and "template" in value:
            properties[name] = plain_text(value)
    if "validation" in properties:
        properties["validation"] = [rule for rule in properties["validation"]
                                    if not (rule.get("rule") == "requiredIf" and reads_computed(rule.get("when")))]
    node["children"] = [plain_node(child) for child in node.get("children", [])]
    if not node["children"]:
        del node["children"]
    if "fallback" in node:
        node["fallback"] = plain_node(node["fallback"])
    return node


def first_field(node):
    if "fieldId" in node.get("properties", {}):
        return node["properties"]["fieldId"]
    for child in node.get("children", []):
        found = first_field(child)
        if found:
            return found
    return None


def main():
    path, flow_id = sys.argv[1], sys.argv[2]
    bundle = json.load(open(path, encoding="utf-8"))
    found = [flow for flow in bundle["flows"] if flow["id"] == flow_id]
    if not found:
        return 1
    flow = copy.deepcopy(found[0])
    flow["id"] = f"{flow_id}-plain"
    flow.pop("computed", None)
    for step in flow["steps"]:
        step["screen"]["root"] = plain_node(step["screen"]["root"])
        field = first_field(step["screen"]["root"])
        for entry in step.get("next", []):
            if reads_computed(entry.get("when")):
                # A 1.0 condition in its place keeps the branch (and its step) reachable.
                entry["when"] = {"field": field, "equals": "-"}
    bundle["flows"].append(flow)
    json.dump(bundle, open(path, "w", encoding="utf-8"), ensure_ascii=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
