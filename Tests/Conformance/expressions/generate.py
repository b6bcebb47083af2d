#!/usr/bin/env python3
"""Writes the expression conformance vectors (Tests/Conformance/README.md "Expression vectors").

Expected values come from this independent reference model of DESIGN.md "Expressions" (Python's
exact Fraction/Decimal arithmetic), not from ParleyCore, so the Swift suite checks one
implementation against another. Deterministic: `python3 generate.py` rewrites the same files.
"""
import json, random, re
from fractions import Fraction
from decimal import Decimal

GRAMMAR = re.compile(r'-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?\Z')
WS = set('\t\n\r ')
MAX_SIG, MAX_FRAC, MAX_SCALE = 40, 40, 20

def empty(v): return v is None or all(c in WS for c in v)

def number(text):
    if text is None or not GRAMMAR.match(text): return None
    m = re.match(r'-?[0-9.]+(?:[eE]([+-]?)([0-9]+))?', text)
    if m.group(2) is not None and int(m.group(2)) > 10**12: return None
    if m.group(2) is not None and int(m.group(2)) > 10_000: raise HugeOperand(text)
    return Fraction(Decimal(text))

class HugeOperand(Exception):
    """An exponent this reference model would have to expand; random cases avoid them."""

def canonical(q):
    """Canonical text of an exact decimal Fraction, or None beyond the limits."""
    if q == 0: return "0"
    neg = q < 0; q = abs(q)
    den = q.denominator; e = 0
    while den != 1:
        q *= 10; e += 1; den = q.denominator
        if e > 400: return None
    n = q.numerator  # value = n * 10^-e
    while e > 0 and n % 10 == 0: n //= 10; e -= 1
    digits = str(n)
    if e == 0:
        if len(digits) > MAX_SIG: return None
        text = digits
    else:
        stripped = digits.rstrip('0') if False else digits
        if len(stripped.lstrip('0')) > MAX_SIG or e > MAX_FRAC: return None
        if len(digits) > e: text = digits[:-e] + "." + digits[-e:]
        else: text = "0." + "0" * (e - len(digits)) + digits
    return ("-" if neg else "") + text

def half_even(q, scale):
    scaled = q * 10**scale
    floor = scaled.numerator // scaled.denominator
    rest = scaled - floor
    if rest > Fraction(1, 2) or (rest == Fraction(1, 2) and floor % 2 == 1): floor += 1
    return Fraction(floor, 10**scale)

class Env:
    def __init__(self, answers, computed=None):
        self.answers = {k: v for k, v in answers.items() if v is not None}
        self.computed = computed or {}
        self.memo = {}; self.active = set()
    def field(self, name): return self.answers.get(name)
    def comp(self, name):
        """A computed value; empty when it is part of a cycle (it can reach itself)."""
        if name not in self.computed: return None
        if name not in self.memo:
            self.memo[name] = None if reaches_itself(name, self.computed) else self.ev(self.computed[name])
        return self.memo[name]
    def read(self, subject):
        if "field" in subject: return self.field(subject["field"])
        v = self.comp(subject["computed"]); return None if v == "CYCLE" else v
    def holds(self, p):
        if "all" in p: return all(self.holds(x) for x in p["all"])
        if "any" in p: return any(self.holds(x) for x in p["any"])
        if "not" in p: return not self.holds(p["not"])
        v = self.read(p)
        if "equals" in p: return v is not None and v == p["equals"]
        if "in" in p: return v is not None and v in p["in"]
        if "present" in p: return (not empty(v)) == p["present"]
        if "empty" in p: return empty(v) == p["empty"]
        if "matches" in p:
            return not empty(v) and re.fullmatch(p["matches"], v) is not None
        for op in ("greaterThan", "atLeast", "lessThan", "atMost"):
            if op in p:
                if empty(v): return False
                a, b = number(v), number(p[op])
                if a is None or b is None: return False
                return {"greaterThan": a > b, "atLeast": a >= b, "lessThan": a < b, "atMost": a <= b}[op]
        raise ValueError(p)
    def nums(self, parts):
        out = []
        for part in parts:
            v = self.ev(part)
            if v == "CYCLE": return "CYCLE"
            n = number(None if empty(v) else v)
            if n is None: return None
            out.append(n)
        return out
    def ev(self, e):
        """Value text, None for empty; a cycle propagates as empty for the values in it."""
        if "field" in e: v = self.field(e["field"]); return None if empty(v) else v
        if "computed" in e:
            v = self.comp(e["computed"])
            return v
        if "literal" in e: return None if empty(e["literal"]) else e["literal"]
        for op in ("add", "mul", "min", "max"):
            if op in e:
                if not e[op]: return None
                ns = self.nums(e[op])
                if ns in (None, "CYCLE"): return ns
                if op == "add": return canonical(sum(ns, Fraction(0)))
                if op == "mul":
                    r = Fraction(1)
                    for n in ns: r *= n
                    return canonical(r)
                return canonical(min(ns) if op == "min" else max(ns))
        if "sub" in e:
            ns = self.nums(e["sub"])
            if ns in (None, "CYCLE"): return ns
            return canonical(ns[0] - ns[1])
        if "div" in e:
            ns = self.nums(e["div"])
            if ns in (None, "CYCLE"): return ns
            s = e["scale"]
            if not 0 <= s <= MAX_SCALE or ns[1] == 0: return None
            return canonical(half_even(ns[0] / ns[1], s))
        if "round" in e:
            ns = self.nums([e["round"]])
            if ns in (None, "CYCLE"): return ns
            s = e["scale"]
            if not 0 <= s <= MAX_SCALE: return None
            return canonical(half_even(ns[0], s))
        if "concat" in e:
            out = ""
            for part in e["concat"]:
                v = self.ev(part)
                if v == "CYCLE": return "CYCLE"
                out += v or ""
            return None if empty(out) else out
        if "count" in e:
            return str(len([f for f in dict.fromkeys(e["count"]) if not empty(self.field(f))]))
        if "if" in e:
            return self.ev(e["then"] if self.holds(e["if"]) else e["else"])
        return None

def computed_refs(node, out):
    if isinstance(node, dict):
        if "computed" in node and isinstance(node["computed"], str): out.append(node["computed"])
        for k, v in node.items():
            if k != "computed": computed_refs(v, out)
    elif isinstance(node, list):
        for v in node: computed_refs(v, out)
    return out

def reaches_itself(name, computed):
    seen, stack = set(), list(computed_refs(computed[name], []))
    while stack:
        n = stack.pop()
        if n == name: return True
        if n in seen or n not in computed: continue
        seen.add(n); stack.extend(computed_refs(computed[n], []))
    return False

def value(expression, answers, computed=None):
    v = Env(answers, computed).ev(expression)
    return None if v == "CYCLE" else v

def L(text): return {"literal": text}
def F(name): return {"field": name}
def C(name): return {"computed": name}

def huge(expression):
    """Whether an operand has an exponent the reference model cannot expand (its value is given by hand)."""
    return re.search(r'[eE]-?[0-9]{4,}', json.dumps(expression)) is not None

def case(description, expression, answers=None, computed=None, expected="compute"):
    answers = answers or {}
    got = expected if huge(expression) and expected != "compute" else value(expression, answers, computed)
    if expected != "compute" and expected != got:
        raise SystemExit(f"reference model disagrees with the hand-written value: {description}: {got!r} != {expected!r}")
    test = {"description": description, "expression": expression, "answers": answers, "value": got}
    return test

def write(name, groups):
    with open(name, "w") as f:
        json.dump(groups, f, indent=1, ensure_ascii=False)
        f.write("\n")

def arithmetic():
    groups = []
    t = []
    t.append(case("0.1 + 0.2 is exactly 0.3", {"add": [L("0.1"), L("0.2")]}, expected="0.3"))
    t.append(case("2.50 x 2 drops the trailing zeros", {"mul": [L("2.50"), L("2")]}, expected="5"))
    t.append(case("-0 is written 0", {"mul": [L("-1"), L("0")]}, expected="0"))
    t.append(case("a negative zero sum is 0", {"add": [L("-0.0"), L("0")]}, expected="0"))
    t.append(case("sub to a negative zero-free result", {"sub": [L("1"), L("1.000")]}, expected="0"))
    t.append(case("exponents are written out", {"add": [L("1e3"), L("0")]}, expected="1000"))
    t.append(case("small exponents are written out", {"add": [L("1E-3"), L("0")]}, expected="0.001"))
    t.append(case("a field passes through as written", F("x"), {"x": "2.50"}, expected="2.50"))
    t.append(case("a literal passes through as written", L("1e3"), expected="1e3"))
    t.append(case("one operand is canonicalised", {"add": [F("x")]}, {"x": "002"} , expected=None))
    t.append(case("one operand is canonicalised (grammar)", {"add": [F("x")]}, {"x": "2.500"}, expected="2.5"))
    t.append(case("an empty operand empties the sum", {"add": [F("x"), L("1")]}, {}, expected=None))
    t.append(case("a whitespace operand is empty", {"add": [F("x"), L("1")]}, {"x": " \t"}, expected=None))
    t.append(case("a non-number operand is empty", {"add": [F("x"), L("1")]}, {"x": "1,5"}, expected=None))
    t.append(case("a leading plus is not a number", {"add": [F("x")]}, {"x": "+1"}, expected=None))
    t.append(case("surrounding space is not a number", {"add": [F("x")]}, {"x": " 1"}, expected=None))
    t.append(case("a lone point is not a number", {"add": [F("x")]}, {"x": "1."}, expected=None))
    t.append(case("a leading point is not a number", {"add": [F("x")]}, {"x": ".5"}, expected=None))
    t.append(case("Arabic-Indic digits are not a number", {"add": [F("x")]}, {"x": "\u0661"}, expected=None))
    t.append(case("an exponent above 10^12 is not a number", {"add": [F("x")]}, {"x": "1e1000000000001"}, expected=None))
    t.append(case("sub", {"sub": [L("10"), L("0.01")]}, expected="9.99"))
    t.append(case("sub below zero", {"sub": [L("0.01"), L("10")]}, expected="-9.99"))
    t.append(case("mul of three", {"mul": [L("1.5"), L("-2"), L("-0.25")]}, expected="0.75"))
    t.append(case("min picks the least", {"min": [L("3"), L("-1.50"), L("2")]}, expected="-1.5"))
    t.append(case("max picks the greatest", {"max": [L("3"), L("-1.50"), L("3.0")]}, expected="3"))
    t.append(case("max of one", {"max": [L("1e2")]}, expected="100"))
    t.append(case("min with an empty operand is empty", {"min": [L("1"), F("none")]}, expected=None))
    t.append(case("add of no operands is empty", {"add": []}, expected=None))
    t.append(case("mul of no operands is empty", {"mul": []}, expected=None))
    t.append(case("min of no operands is empty", {"min": []}, expected=None))
    t.append(case("max of no operands is empty", {"max": []}, expected=None))
    t.append(case("many operands", {"add": [L(str(i)) for i in range(1, 101)]}, expected="5050"))
    t.append(case("premium from three answers", {"round": {"mul": [F("base"), {"add": [L("1"), F("rate")]}, F("days")]}, "scale": 2},
                  {"base": "12.40", "rate": "0.085", "days": "7"}, expected="94.18"))
    groups.append({"description": "add, sub, mul, min, max: exact and canonical", "tests": t})

    t = []
    for a, b, s, want in [("1", "3", 4, "0.3333"), ("2", "3", 4, "0.6667"), ("1", "8", 2, "0.12"), ("3", "8", 2, "0.38"),
                          ("5", "2", 0, "2"), ("7", "2", 0, "4"), ("-5", "2", 0, "-2"), ("-7", "2", 0, "-4"),
                          ("1", "0", 2, None), ("0", "0", 2, None), ("0", "5", 3, "0"), ("10", "4", 1, "2.5"),
                          ("1", "3", 0, "0"), ("2", "3", 0, "1"), ("1", "3", 20, "0.33333333333333333333"),
                          ("1", "7", 20, "0.14285714285714285714"), ("1", "3", 21, None), ("1", "-3", 2, "-0.33"),
                          ("-1", "-3", 2, "0.33"), ("1e40", "1", 0, None), ("1e39", "1", 0, "1000000000000000000000000000000000000000"),
                          ("1", "1e30", 20, "0"), ("5", "1e21", 20, "0"), ("6", "1e21", 20, "0.00000000000000000001"),
                          ("1", "2e20", 20, "0"), ("3", "2e20", 20, "0.00000000000000000002"),
                          ("0.5", "1", 0, "0"), ("1.5", "1", 0, "2"), ("2.5", "1", 0, "2"), ("-2.5", "1", 0, "-2"),
                          ("1", "0.000", 2, None), ("100", "7", 5, "14.28571"), ("22", "7", 10, "3.1428571429")]:
        t.append(case(f"{a} / {b} to scale {s}", {"div": [L(a), L(b)], "scale": s}, expected=want))
    groups.append({"description": "div rounds half to even at its scale; division by zero is empty", "tests": t})

    t = []
    for x, s, want in [("2.5", 0, "2"), ("3.5", 0, "4"), ("-2.5", 0, "-2"), ("-3.5", 0, "-4"), ("2.51", 0, "3"),
                       ("2.49", 0, "2"), ("0.125", 2, "0.12"), ("0.135", 2, "0.14"), ("0.1251", 2, "0.13"),
                       ("1.005", 2, "1"), ("1.015", 2, "1.02"), ("-0.4", 0, "0"), ("-0.5", 0, "0"), ("-0.51", 0, "-1"),
                       ("0.05", 1, "0"), ("0.15", 1, "0.2"), ("9.995", 2, "10"), ("99.5", 0, "100"), ("123", 2, "123"),
                       ("1.2300", 20, "1.23"), ("1e-30", 20, "0"), ("5e-21", 20, "0"), ("6e-21", 20, "0.00000000000000000001"),
                       ("1.5", 21, None), ("0.5", 0, "0"), ("1.5", 0, "2"), ("0.0000000000000000000000000000000000000001", 20, "0"),
                       ("12345678901234567890.123456789", 5, "12345678901234567890.12346")]:
        t.append(case(f"round {x} to scale {s}", {"round": L(x), "scale": s}, expected=want))
    groups.append({"description": "round is half to even, scale 0 to 20", "tests": t})

    t = []
    t.append(case("40 significant digits are kept", {"add": [L("9" * 40), L("0")]}, expected="9" * 40))
    t.append(case("41 significant digits are empty", {"add": [L("9" * 40), L("1")]}, expected=None))
    t.append(case("1e39 has 40 digits", {"add": [L("1e39")]}, expected="1" + "0" * 39))
    t.append(case("1e40 has 41 digits", {"add": [L("1e40")]}, expected=None))
    t.append(case("0.001 has one significant digit", {"add": [L("0.001")]}, expected="0.001"))
    t.append(case("40 digits after the point are kept", {"add": [L("1e-40")]}, expected="0." + "0" * 39 + "1"))
    t.append(case("41 digits after the point are empty", {"add": [L("1e-41")]}, expected=None))
    t.append(case("a 41-digit operand sums back to 40", {"sub": [L("1" + "0" * 40), L("1" + "0" * 39 + "1")]}, expected="-1"))
    t.append(case("a long operand is read exactly", {"sub": [L("0." + "3" * 60), L("0." + "3" * 59)]}, expected=None))
    t.append(case("a long operand cancels exactly", {"sub": [L("0." + "3" * 60 + "1"), L("0." + "3" * 60)]}, expected=None))
    t.append(case("trailing zeros of a long operand do not count", {"add": [L("1." + "0" * 100)]}, expected="1"))
    t.append(case("huge exponents cancel exactly", {"add": [L("1e999999999"), L("1"), L("-1e999999999")]}, expected="1"))
    t.append(case("a huge exponent alone is empty", {"add": [L("1e999999999"), L("1")]}, expected=None))
    t.append(case("a tiny exponent alone is empty", {"add": [L("1e-999999999"), L("1")]}, expected=None))
    t.append(case("a huge exponent compares in min", {"min": [L("1e999999999"), L("2")]}, expected="2"))
    t.append(case("a huge exponent wins max and is empty", {"max": [L("1e999999999"), L("2")]}, expected=None))
    t.append(case("huge exponents multiply back", {"mul": [L("1e999999999"), L("1e-999999999")]}, expected="1"))
    t.append(case("a huge product is empty", {"mul": [L("1e999999999"), L("2")]}, expected=None))
    t.append(case("huge division by itself", {"div": [L("3e999999999"), L("1e999999999")], "scale": 0}, expected="3"))
    t.append(case("huge over small is empty", {"div": [L("1e999999999"), L("3")], "scale": 2}, expected=None))
    t.append(case("small over huge is zero", {"div": [L("1"), L("1e999999999")], "scale": 20}, expected="0"))
    t.append(case("round of a huge number is empty", {"round": L("1e999999999"), "scale": 0}, expected=None))
    t.append(case("round of a tiny number is zero", {"round": L("1e-999999999"), "scale": 20}, expected="0"))
    t.append(case("products of 5s and 2s lose their zeros", {"mul": [L("5" * 1), L("2e-1")]}, expected="1"))
    t.append(case("2^20 x 5^20 x 1e-20 is 1", {"mul": [L(str(2**20)), L(str(5**20)), L("1e-20")]}, expected="1"))
    t.append(case("2^100 x 0.5^100 is 1", {"mul": [L(str(2**100)), L("0." + str(5**100).zfill(100))]}, expected="1"))
    t.append(case("a 41-digit product is empty", {"mul": [L("3" * 21), L("3" * 20)]}, expected=None))
    t.append(case("a long odd product is empty without trailing zeros", {"mul": [L("3" * 300), L("7" * 300)]}, expected=None))
    t.append(case("the 40-digit limit applies to the mul result", {"mul": [L("1" + "0" * 19), L("1" + "0" * 19)]}, expected="1" + "0" * 38))
    groups.append({"description": "limits: 40 significant digits, 40 decimals, enormous exponents never expanded", "tests": t})
    return groups

def text():
    t = []
    t.append(case("concat joins texts", {"concat": [F("first"), L("-"), F("last")]}, {"first": "Ana", "last": "Lima"}, expected="Ana-Lima"))
    t.append(case("concat: a lone space literal is empty, so it adds nothing (use a template)", {"concat": [F("first"), L(" "), F("last")]}, {"first": "Ana", "last": "Lima"}, expected="AnaLima"))
    t.append(case("concat: empty parts add nothing", {"concat": [F("first"), F("missing"), L("!")]}, {"first": "Ana"}, expected="Ana!"))
    t.append(case("concat: a whitespace literal is empty", {"concat": [F("a"), L(" "), F("b")]}, {"a": "x", "b": "y"}, expected="xy"))
    t.append(case("concat of nothing is empty", {"concat": []}, expected=None))
    t.append(case("concat of empties is empty", {"concat": [F("a"), F("b")]}, {}, expected=None))
    t.append(case("concat keeps numbers as written", {"concat": [F("a"), L("+"), F("b")]}, {"a": "2.50", "b": "1e3"}, expected="2.50+1e3"))
    t.append(case("concat keeps decomposed scalars", {"concat": [L("a\u0308"), L("\u00e4")]}, expected="a\u0308\u00e4"))
    t.append(case("a field with surrounding space passes through", F("a"), {"a": " x "}, expected=" x "))
    t.append(case("a null answer is empty", F("a"), {"a": None}, expected=None))
    t.append(case("an empty literal is empty", L(""), expected=None))
    t.append(case("NBSP is a value", L("\u00a0"), expected="\u00a0"))
    t.append(case("count of none answered", {"count": ["a", "b", "c"]}, {}, expected="0"))
    t.append(case("count ignores whitespace answers", {"count": ["a", "b", "c"]}, {"a": "x", "b": " ", "c": "0"}, expected="2"))
    t.append(case("count of no fields", {"count": []}, expected="0"))
    t.append(case("count counts a field once", {"count": ["a", "a"]}, {"a": "x"}, expected="1"))
    t.append(case("if then", {"if": {"field": "p", "equals": "other"}, "then": L("yes"), "else": L("no")}, {"p": "other"}, expected="yes"))
    t.append(case("if else", {"if": {"field": "p", "equals": "other"}, "then": L("yes"), "else": L("no")}, {"p": "Other"}, expected="no"))
    t.append(case("if on an absent field", {"if": {"field": "p", "present": True}, "then": L("yes"), "else": F("p")}, {}, expected=None))
    t.append(case("if nests", {"if": {"field": "a", "atLeast": "10"}, "then": {"if": {"field": "a", "atLeast": "100"}, "then": L("big"), "else": L("mid")}, "else": L("small")}, {"a": "50"}, expected="mid"))
    t.append(case("an unknown form is empty", {"sum": {"group": "travellers"}}, expected=None))
    t.append(case("an unknown form inside concat adds nothing", {"concat": [L("a"), {"upper": F("x")}]}, {"x": "b"}, expected="a"))
    t.append(case("an unknown form makes arithmetic empty", {"add": [L("1"), {"upper": F("x")}]}, {"x": "1"}, expected=None))
    t.append(case("a number field reads as text in concat", {"concat": [{"add": [F("a"), F("b")]}, L(" EUR")]}, {"a": "0.1", "b": "0.2"}, expected="0.3 EUR"))
    t.append(case("count feeds arithmetic", {"mul": [{"count": ["a", "b"]}, L("2.5")]}, {"a": "x", "b": "y"}, expected="5"))
    return [{"description": "field, literal, concat, count, if and unknown forms", "tests": t}]

def pcase(description, predicate, answers=None, computed=None, expected=None):
    got = expected if huge(predicate) or huge(answers or {}) else Env(answers or {}, computed).holds(predicate)
    if expected is not None and got != expected:
        raise SystemExit(f"reference model disagrees: {description}")
    return {"description": description, "predicate": predicate, "answers": answers or {}, "holds": got}

def predicates():
    t = []
    for op, v, bound, want in [("greaterThan", "10001", "10000", True), ("greaterThan", "10000", "10000", False),
                               ("greaterThan", "10000.0001", "10000", True), ("atLeast", "10000", "10000", True),
                               ("atLeast", "1e4", "10000", True), ("atLeast", "9999.9999", "10000", False),
                               ("lessThan", "-1", "0", True), ("lessThan", "0", "-0", False), ("atMost", "-0", "0", True),
                               ("atMost", "0.0075", "0.0075000", True), ("greaterThan", "1e999999999", "1e999999998", True),
                               ("lessThan", "1e-999999999", "0", False), ("greaterThan", "abc", "0", False),
                               ("lessThan", "", "1", False), ("lessThan", " ", "1", False), ("atLeast", "1,5", "1", False),
                               ("greaterThan", "2", "not a number", False), ("atMost", "+1", "5", False),
                               ("greaterThan", "0.30000000000000000000000000000000000000000000000001", "0.3", True)]:
        t.append(pcase(f"{v!r} {op} {bound!r}", {"field": "x", op: bound}, {"x": v}, expected=want))
    t.append(pcase("absent is not greater", {"field": "x", "greaterThan": "-1"}, {}, expected=False))
    t.append(pcase("matches is whole-value", {"field": "x", "matches": "[A-Z]{2}"}, {"x": "FR"}, expected=True))
    t.append(pcase("matches is not a substring search", {"field": "x", "matches": "[A-Z]{2}"}, {"x": "FRA"}, expected=False))
    t.append(pcase("matches on empty is false", {"field": "x", "matches": ".*"}, {"x": ""}, expected=False))
    t.append(pcase("matches on absent is false", {"field": "x", "matches": ".*"}, {}, expected=False))
    t.append(pcase("empty true on absent", {"field": "x", "empty": True}, {}, expected=True))
    t.append(pcase("empty true on whitespace", {"field": "x", "empty": True}, {"x": "\r\n"}, expected=True))
    t.append(pcase("empty false on NBSP", {"field": "x", "empty": False}, {"x": "\u00a0"}, expected=True))
    t.append(pcase("equals is textual, not numeric", {"field": "x", "equals": "2.5"}, {"x": "2.50"}, expected=False))
    t.append(pcase("in is textual", {"field": "x", "in": ["1", "2"]}, {"x": "1.0"}, expected=False))
    t.append(pcase("equals is scalar-exact", {"field": "x", "equals": "\u00e4"}, {"x": "a\u0308"}, expected=False))
    t.append(pcase("all of nothing holds", {"all": []}, expected=True))
    t.append(pcase("any of nothing fails", {"any": []}, expected=False))
    t.append(pcase("not", {"not": {"field": "x", "present": True}}, {}, expected=True))
    groups = [{"description": "exact comparisons, matches, empty; equals stays textual", "tests": t}]
    computed = {"total": {"add": [F("a"), F("b")]}, "name": {"concat": [F("first"), L(" and "), F("last")]},
                "nothing": {"add": [F("missing")]}}
    t = []
    t.append(pcase("computed greaterThan", {"computed": "total", "greaterThan": "10000"}, {"a": "9999.5", "b": "0.6"}, computed, True))
    t.append(pcase("computed atMost", {"computed": "total", "atMost": "10000"}, {"a": "9999.5", "b": "0.5"}, computed, True))
    t.append(pcase("computed equals reads the canonical text", {"computed": "total", "equals": "0.3"}, {"a": "0.1", "b": "0.2"}, computed, True))
    t.append(pcase("computed equals is textual", {"computed": "total", "equals": "0.30"}, {"a": "0.1", "b": "0.2"}, computed, False))
    t.append(pcase("computed in", {"computed": "name", "in": ["Ana and Lima", "Bo"]}, {"first": "Ana", "last": "Lima"}, computed, True))
    t.append(pcase("computed present", {"computed": "nothing", "present": True}, {}, computed, False))
    t.append(pcase("computed empty", {"computed": "nothing", "empty": True}, {}, computed, True))
    t.append(pcase("computed matches", {"computed": "name", "matches": "A.* and L.*"}, {"first": "Ana", "last": "Lima"}, computed, True))
    t.append(pcase("an undeclared computed value is empty", {"computed": "ghost", "empty": True}, {}, computed, True))
    groups.append({"description": "predicates over computed values", "computed": computed, "tests": t})
    return groups

def computed_groups():
    computed = {"premium": {"round": {"mul": [F("base"), C("factor")]}, "scale": 2},
                "factor": {"if": {"computed": "age", "atLeast": "65"}, "then": L("1.5"), "else": L("1")},
                "age": {"sub": [L("2026"), F("birthYear")]}, "label": {"concat": [L("Premium: "), C("premium")]},
                "loopA": {"concat": [C("loopB"), L("a")]}, "loopB": {"concat": [C("loopA"), L("b")]},
                "self": {"add": [C("self"), L("1")]}, "afterLoop": {"concat": [L("x"), C("loopA")]},
                "ghostUser": {"concat": [L("g"), C("ghost")]}}
    tests = []
    for answers in [{"base": "100", "birthYear": "1950"}, {"base": "100", "birthYear": "1990"}, {"base": "33.335", "birthYear": "1961"},
                    {"base": "33.345", "birthYear": "1961"}, {"base": "", "birthYear": "1961"}, {"base": "10", "birthYear": "x"}, {}]:
        for name in ["premium", "factor", "age", "label", "loopA", "loopB", "self", "afterLoop", "ghostUser"]:
            tests.append(case(f"{name} with {answers}", C(name), answers, computed))
    return [{"description": "computed values: chains, a cycle is empty, a value reading a cycle sees it empty", "computed": computed, "tests": tests}]

def tcase(description, template, answers=None, computed=None, expected=None):
    env = Env(answers or {}, computed)
    got = ""
    for part in template["template"]:
        got += part if isinstance(part, str) else (env.ev(part) or "")
    if expected is not None and got != expected: raise SystemExit(f"reference model disagrees: {description}: {got!r}")
    return {"description": description, "template": template, "answers": answers or {}, "text": got}

def templates():
    computed = {"premium": {"round": {"mul": [F("base"), L("1.25")]}, "scale": 2}}
    t = []
    t.append(tcase("a recalled name", {"template": ["Thanks, ", F("firstName"), " \u2014 your premium is ", C("premium")]},
                   {"firstName": "Ana", "base": "34"}, computed, "Thanks, Ana \u2014 your premium is 42.5"))
    t.append(tcase("an empty part adds nothing", {"template": ["Thanks, ", F("firstName"), "!"]}, {}, computed, "Thanks, !"))
    t.append(tcase("a fallback is not part of the text", {"template": [F("a")], "fallback": "Hello"}, {"a": "x"}, computed, "x"))
    t.append(tcase("only text", {"template": ["a", "b"]}, {}, computed, "ab"))
    t.append(tcase("no parts", {"template": []}, {}, computed, ""))
    t.append(tcase("an unknown form adds nothing", {"template": ["a", {"upper": F("x")}, "c"]}, {"x": "b"}, computed, "ac"))
    t.append(tcase("whitespace text parts are kept", {"template": [F("a"), " ", F("b")]}, {"a": "x", "b": "y"}, computed, "x y"))
    t.append(tcase("a sensitive-looking field is just text here", {"template": [{"if": {"field": "a", "present": True}, "then": F("a"), "else": L("friend")}]}, {}, computed, "friend"))
    return [{"description": "template text: parts concatenated", "computed": computed, "tests": t}]

def random_cases(seed=20261125, count=10_000, per_group=100):
    rng = random.Random(seed)
    fields = ["a", "b", "c", "d", "e"]
    def rnum():
        k = rng.random()
        if k < 0.05: return rng.choice(["", " ", "x", "1,5", "+1", ".5", "1.", "--1", "0x10", "\u00a0"])
        sign = "-" if rng.random() < 0.3 else ""
        digits = str(rng.randint(0, 10 ** rng.randint(1, 12)))
        if rng.random() < 0.5:
            digits += "." + str(rng.randint(0, 10 ** rng.randint(1, 8))).zfill(rng.randint(1, 8))
        if rng.random() < 0.15:
            digits += rng.choice(["e", "E"]) + rng.choice(["", "+", "-"]) + str(rng.randint(0, 25))
        if rng.random() < 0.05: digits = rng.choice(["0", "0.0", "-0", "5", "2", "0.5", "25", "125", "8"])
        return sign + digits if not digits.startswith("-") else digits
    def rexpr(depth):
        if depth >= 4 or rng.random() < 0.3:
            return F(rng.choice(fields)) if rng.random() < 0.6 else L(rnum())
        op = rng.choice(["add", "sub", "mul", "div", "round", "min", "max", "concat", "count", "if", "add", "mul", "div"])
        if op in ("add", "mul", "min", "max", "concat"):
            return {op: [rexpr(depth + 1) for _ in range(rng.randint(1, 4))]}
        if op == "sub": return {"sub": [rexpr(depth + 1), rexpr(depth + 1)]}
        if op == "div": return {"div": [rexpr(depth + 1), rexpr(depth + 1)], "scale": rng.randint(0, 21)}
        if op == "round": return {"round": rexpr(depth + 1), "scale": rng.randint(0, 21)}
        if op == "count": return {"count": rng.sample(fields, rng.randint(0, 3))}
        cmp = rng.choice(["greaterThan", "atLeast", "lessThan", "atMost", "equals", "present", "empty"])
        subject = {"field": rng.choice(fields)}
        pred = dict(subject)
        pred[cmp] = rng.choice([True, False]) if cmp in ("present", "empty") else rnum()
        return {"if": pred, "then": rexpr(depth + 1), "else": rexpr(depth + 1)}
    groups = []
    for g in range(count // per_group):
        answers = {f: rnum() for f in fields if rng.random() < 0.9}
        tests = []
        for i in range(per_group):
            while True:
                e = rexpr(0)
                try:
                    expected = value(e, answers)
                    break
                except HugeOperand:
                    continue
            tests.append({"description": f"random {g * per_group + i}", "expression": e, "value": expected})
        groups.append({"description": f"random group {g} (seed {seed})", "answers": answers, "tests": tests})
    return groups

def tf(field, rules=None, visible=None, node_id=None):
    node = {"type": "textField", "id": node_id or field, "properties": {"fieldId": field, "label": field}}
    if rules: node["properties"]["validation"] = rules
    if visible: node["visibleWhen"] = visible
    return node

REQUIRED = [{"rule": "required"}]

def travel_flow():
    about = [
        {"type": "picker", "id": "purpose", "properties": {"fieldId": "purpose", "label": {"en": "Purpose", "fr": "Motif"},
                                                           "options": ["leisure", "work", "other"], "validation": REQUIRED}},
        tf("other", REQUIRED, {"field": "purpose", "equals": "other"}),
        tf("otherAgain", [{"rule": "equalsField", "field": "other"}]),
        {"type": "vstack", "id": "workBox", "visibleWhen": {"field": "purpose", "equals": "work"},
         "children": [tf("employer", REQUIRED), tf("employerCity", None, {"field": "employer", "present": True})]},
        tf("chainA"),
        tf("chainB", REQUIRED, {"field": "chainA", "present": True}),
        tf("chainC", REQUIRED, {"field": "chainB", "present": True}),
        tf("base", REQUIRED + [{"rule": "minimum", "value": 0}]),
        {"type": "text", "id": "hello", "properties": {"text": {"template": [{"en": "Thanks, ", "fr": "Merci, "}, {"field": "firstName"}, "!"],
                                                                 "fallback": {"en": "Thanks!", "fr": "Merci !"}}}},
        {"type": "text", "id": "price", "properties": {"text": {"template": [{"en": "Premium: ", "fr": "Prime : "}, {"computed": "premium"}]}}},
        tf("bigNote", [{"rule": "requiredIf", "when": {"computed": "premium", "greaterThan": "10000"}}],
           {"computed": "premium", "greaterThan": "10000"}),
        {"type": "button", "id": "go", "properties": {"title": {"en": "Next", "fr": "Suivant"}, "action": {"type": "submit"}}},
    ]
    def step(sid, nodes, nxt):
        return {"id": sid, "screen": {"id": sid, "root": {"type": "vstack", "id": "root", "children": nodes}}, "next": nxt}
    return {"schema": "parley.flow/1", "id": "travel", "start": "name", "locales": ["en", "fr"],
            "computed": {"premium": {"round": {"mul": [F("base"), {"if": {"field": "purpose", "equals": "work"}, "then": L("1.2"), "else": L("1")}]}, "scale": 2},
                         "greeting": {"concat": [L("Hi "), F("firstName")]}},
            "steps": [
                step("name", [tf("firstName", REQUIRED)], [{"goto": "about"}]),
                step("about", about, [{"when": {"computed": "premium", "atLeast": "1000"}, "goto": "review"}, {"goto": "done"}]),
                step("review", [{"type": "text", "id": "recap", "properties": {"text": {"template": [F("firstName"), {"en": ", you pay ", "fr": ", vous payez "}, C("premium")]}}}],
                     [{"goto": "done"}]),
                step("done", [{"type": "text", "id": "bye", "properties": {"text": {"template": [{"en": "Bye ", "fr": "Au revoir "}, F("firstName")]}}}], [])]}

def err(field, rule, message): return {"field": field, "rule": rule, "message": message}
REQ = "This field is required."

def steps():
    flow = travel_flow()
    all_hidden_leisure = ["other", "workBox", "employer", "employerCity", "chainB", "chainC", "bigNote"]
    ctx = {"firstName": "Ana"}
    def t(description, answers, cleared, hidden, errors, nxt, premium, texts, step="about", context=ctx, mode="server", locale=None, deferred=None):
        test = {"description": description, "step": step, "answers": answers, "context": context, "mode": mode,
                "cleared": cleared, "hidden": hidden, "valid": not errors, "errors": errors, "deferred": deferred or [],
                "next": nxt, "computed": {"greeting": "Hi " + context.get("firstName", ""), "premium": premium},
                "texts": texts}
        if locale: test["locale"] = locale
        return test
    texts = lambda p: {"hello/text": "Thanks, Ana!", "price/text": "Premium: " + (p or "")}
    tests = [
        t("hidden inputs are skipped: leisure hides other, the work box, the chain and the note",
          {"purpose": "leisure", "base": "100", "chainA": ""}, [], all_hidden_leisure, [], "done", "100", texts("100")),
        t("a shown required input is checked", {"purpose": "other", "other": "", "base": "100"}, [],
          ["workBox", "employer", "employerCity", "chainB", "chainC", "bigNote"], [err("other", "required", REQ)], None, "100", texts("100")),
        t("a hidden input's value is cleared, never validated, and a computed value crosses a transition",
          {"purpose": "work", "base": "10000", "employer": "ACME", "employerCity": "Lyon", "other": "typed before", "bigNote": "yes"},
          ["other"], ["other", "chainB", "chainC"], [], "review", "12000", texts("12000")),
        t("a computed value makes a hidden note required when shown",
          {"purpose": "work", "base": "10000", "employer": "ACME"}, [], ["other", "chainB", "chainC"],
          [err("bigNote", "requiredIf", REQ)], None, "12000", texts("12000")),
        t("a clearing chain: an empty A hides B, the cleared B hides C",
          {"purpose": "leisure", "base": "1", "chainA": "", "chainB": "b", "chainC": "c"}, ["chainB", "chainC"],
          all_hidden_leisure, [], "done", "1", texts("1")),
        t("a shown but empty B hides C", {"purpose": "leisure", "base": "1", "chainA": "a", "chainB": " ", "chainC": "c"}, ["chainC"],
          ["other", "workBox", "employer", "employerCity", "chainC", "bigNote"], [err("chainB", "required", REQ)], None, "1", texts("1")),
        t("the whole chain shown", {"purpose": "leisure", "base": "1", "chainA": "a", "chainB": "b", "chainC": "c"}, [],
          ["other", "workBox", "employer", "employerCity", "bigNote"], [], "done", "1", texts("1")),
        t("client mode clears too", {"purpose": "leisure", "base": "1", "chainB": "b", "chainC": "c"}, ["chainB", "chainC"],
          all_hidden_leisure, [], "done", "1", texts("1"), mode="client"),
        t("a hidden subtree clears every field in it", {"purpose": "leisure", "base": "5", "employer": "x", "employerCity": "y"},
          ["employer", "employerCity"], all_hidden_leisure, [], "done", "5", texts("5")),
        t("a shown container with an empty field hides the field under it",
          {"purpose": "work", "base": "5", "employer": "", "employerCity": "Lyon"}, ["employerCity"],
          ["other", "employerCity", "chainB", "chainC", "bigNote"], [err("employer", "required", REQ)], None, "6", texts("6")),
        t("a rule reading a cleared field reads it as empty", {"purpose": "leisure", "base": "5", "other": "x", "otherAgain": "x"}, ["other"],
          all_hidden_leisure, [err("otherAgain", "equalsField", "Must match other.")], None, "5", texts("5")),
        t("an unexpected field is still an error on the server", {"purpose": "leisure", "base": "5", "zzz": "1"}, [],
          all_hidden_leisure, [err("zzz", "unexpectedField", "This field is not on the screen.")], None, "5", texts("5")),
        t("a template in French", {"purpose": "leisure", "base": "2.50"}, [], all_hidden_leisure, [], "done", "2.5",
          {"hello/text": "Merci, Ana!", "price/text": "Prime : 2.5"}, locale="fr"),
        t("an empty computed value adds nothing to a template", {"purpose": "leisure", "base": "abc"}, [], all_hidden_leisure,
          [err("base", "number", "Must be a number.")], None, None, texts(None)),
        t("a template reading an earlier step with no answer", {"purpose": "leisure", "base": "1"}, [], all_hidden_leisure, [], "done", "1",
          {"hello/text": "Thanks, !", "price/text": "Premium: 1"}, context={}),
        t("a recalled answer on a later step", {}, [], [], [], "done", "1200", {"recap/text": "Ana, you pay 1200"}, step="review",
          context={"firstName": "Ana", "purpose": "work", "base": "1000"}),
        t("a recalled answer on a later step, in French", {}, [], [], [], "done", "1200", {"recap/text": "Ana, vous payez 1200"}, step="review",
          context={"firstName": "Ana", "purpose": "work", "base": "1000"}, locale="fr"),
        t("a terminal step has no next", {}, [], [], [], None, None, {"bye/text": "Bye Ana"}, step="done"),
    ]
    return [{"description": "travel insurance: visibility, clearing, rules, transitions and localized templates", "flow": flow, "tests": tests}]

if __name__ == "__main__":
    write("steps.json", steps())
    write("arithmetic.json", arithmetic())
    write("text.json", text())
    write("predicates.json", predicates())
    write("computed.json", computed_groups())
    write("templates.json", templates())
    with open("random.json", "w") as f:
        json.dump(random_cases(), f, ensure_ascii=False, separators=(",", ":"))
        f.write("\n")
