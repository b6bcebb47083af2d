// node Tests/WebAssembly/run-node.mjs MODULE.wasm CASES.ndjson
// Runs the cases (parley core-cases) against parley-core.wasm in Node; exits 1 on any failure.
import { readFileSync } from "node:fs";
import { loadParleyCore } from "../../Sources/ParleyStudio/web/parley-core.mjs";
import { runCases } from "./cases.mjs";

const [wasmPath, casesPath] = process.argv.slice(2);
if (!wasmPath || !casesPath) {
    console.error("usage: node Tests/WebAssembly/run-node.mjs MODULE.wasm CASES.ndjson");
    process.exit(2);
}
const core = await loadParleyCore(readFileSync(wasmPath));
const { counts, failures, failed } = runCases(core, readFileSync(casesPath, "utf8"));
for (const [kind, count] of Object.entries(counts)) {
    console.log(`node ${process.version}, core ${core.version}: ${kind}: ${count.passed} passed, ${count.failed} failed`);
}
for (const failure of failures) console.log(`  FAIL ${failure}`);
process.exit(failed === 0 ? 0 : 1);
