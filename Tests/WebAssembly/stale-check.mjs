// node Tests/WebAssembly/stale-check.mjs BUILT.wasm CHANGED.wasm
// No stale copy (issue 31): CHANGED.wasm was built by deploy/wasm-core from a copy of the Swift
// sources in which minLength demands one scalar more (deploy/wasm-test makes the change). The
// module must follow the Swift source: "ab" passes minLength 2 in BUILT and fails it in CHANGED.
import { readFileSync } from "node:fs";
import { loadParleyCore } from "../../Sources/ParleyStudio/web/parley-core.mjs";

const [builtPath, changedPath] = process.argv.slice(2);
const screen = JSON.stringify({
    schema: "parley.screen/1",
    id: "s",
    root: {
        type: "textField",
        id: "code",
        properties: { fieldId: "code", validation: [{ rule: "minLength", value: 2, message: "Two at least." }] },
    },
});
const answers = JSON.stringify({ code: "ab" });
const built = (await loadParleyCore(readFileSync(builtPath))).validate(screen, answers);
const changed = (await loadParleyCore(readFileSync(changedPath))).validate(screen, answers);
const expectedBuilt = '{"deferred":[],"errors":[],"valid":true}';
const expectedChanged =
    '{"deferred":[],"errors":[{"field":"code","message":"Two at least.","rule":"minLength"}],"valid":false}';
let failed = 0;
for (const [name, got, want] of [
    ["built from the checkout", built, expectedBuilt],
    ["built from the changed sources", changed, expectedChanged],
]) {
    const ok = got === want;
    if (!ok) failed += 1;
    console.log(`stale check: module ${name}: ${ok ? "ok" : `FAIL\n   got  ${got}\n   want ${want}`}`);
}
process.exit(failed === 0 ? 0 : 1);
