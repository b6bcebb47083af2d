// Runs `parley core-cases` output against a loaded parley-core module (Node and Chromium alike):
// each call's output must equal the native build's byte for byte, and, for a conformance
// vector, agree with the vector's own expectation (Tests/Conformance/README.md).

/// JSON with members sorted, for comparing parsed values whatever their member order.
function canonical(value) {
    if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
    if (value && typeof value === "object") {
        const keys = Object.keys(value).sort();
        return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`).join(",")}}`;
    }
    return JSON.stringify(value);
}

/// Why `output` disagrees with the vector's expectation for `call`, or null.
function vectorMismatch(call, output, vector) {
    const got = JSON.parse(output);
    if (call === "validate") {
        if (vector.error) return got.error ? null : "the screen must be refused";
        const want = { valid: vector.valid, errors: vector.errors, deferred: vector.deferred };
        const have = { valid: got.valid, errors: got.errors, deferred: got.deferred };
        return canonical(have) === canonical(want) ? null : `outcome ${canonical(have)}, vector ${canonical(want)}`;
    }
    if (call === "gate") {
        const report = (entries) => (entries ?? []).map((e) => `${e.nodeId} ${e.pointer} ${e.action ?? e.decision}`);
        if (canonical(report(got.report)) !== canonical(report(vector.report))) {
            return `report ${canonical(report(got.report))}, vector ${canonical(report(vector.report))}`;
        }
        const deferred = (entries) => (entries ?? []).map((e) => `${e.field} ${e.rule}`);
        if (canonical(deferred(got.deferred)) !== canonical(deferred(vector.deferred))) return "deferred rules differ";
        if (vector.served !== undefined && got.served !== vector.served) return `served ${got.served}`;
        if (vector.needsUpgrade !== undefined && got.needsUpgrade !== vector.needsUpgrade) return "needsUpgrade differs";
        return null;
    }
    if (call === "replay") {
        if (got.completed !== vector.completed) return `completed ${got.completed}`;
        if (vector.answers && canonical(got.answers) !== canonical(vector.answers)) return "final answers differ";
        if (vector.refused) {
            const pick = (r) => canonical({ index: r.index, step: r.step ?? null, reason: r.reason, errors: r.errors ?? [] });
            if (pick(got.refused ?? {}) !== pick(vector.refused)) return `refused ${canonical(got.refused)}`;
        }
        return null;
    }
    if (call === "harness") {
        // One of {"value"}, {"holds"}, {"text"}: exactly the vector's expectation.
        for (const [key, want] of Object.entries(vector)) {
            if (canonical(got[key] ?? null) !== canonical(want)) return `${key} ${canonical(got[key])}, vector ${canonical(want)}`;
        }
        return null;
    }
    if (call === "evaluate") {
        // A step vector pins StepEvaluation's own members; `visible` is the call's addition.
        for (const [key, want] of Object.entries(vector)) {
            if (canonical(got[key] ?? null) !== canonical(want)) return `${key} ${canonical(got[key])}, vector ${canonical(want)}`;
        }
        if (!got.visible || typeof got.visible !== "object") return "no visible map";
        return null;
    }
    return `no vector check for ${call}`;
}

/// Runs every line of the NDJSON text `ndjson`; returns counts per kind and the first failures.
export function runCases(core, ndjson) {
    const counts = {};
    const failures = [];
    for (const line of ndjson.split("\n")) {
        if (!line.trim()) continue;
        const test = JSON.parse(line);
        const kind = test.group.split("/")[0].split(":")[0];
        counts[kind] ??= { passed: 0, failed: 0 };
        let problem = null;
        try {
            const output = core.call(test.call, ...test.args);
            if (output !== test.expected) {
                problem = `not byte-identical to native:\n   wasm   ${output}\n   native ${test.expected}`;
            } else if (test.vector !== undefined) {
                problem = vectorMismatch(test.call, output, test.vector);
            }
        } catch (error) {
            problem = `threw ${error}`;
        }
        if (problem) {
            counts[kind].failed += 1;
            if (failures.length < 20) failures.push(`${test.group} — ${test.name}: ${problem}`);
        } else {
            counts[kind].passed += 1;
        }
    }
    const failed = Object.values(counts).reduce((sum, c) => sum + c.failed, 0);
    return { counts, failures, failed };
}
