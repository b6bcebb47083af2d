// node Tests/WebAssembly/bench.mjs MODULE.wasm INPUTS.json
// The WebAssembly side of issue 31's benchmark: validate the 20-field screen and gate it for every
// supported core through parley-core.mjs, on the inputs `parley-bench calls --inputs` wrote. Prints µs per
// call (best of five rounds); never fails on a figure.
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { loadParleyCore } from "../../Sources/ParleyStudio/web/parley-core.mjs";

const [wasmPath, inputsPath, iterationsText] = process.argv.slice(2);
const core = await loadParleyCore(readFileSync(wasmPath));
const { screen, answers, cores } = JSON.parse(readFileSync(inputsPath, "utf8"));
const iterations = Number(iterationsText ?? 2000);

function best(count, body) {
    let fastest = Infinity;
    for (let round = 0; round < 5; round += 1) {
        const start = performance.now();
        for (let index = 0; index < count; index += 1) body();
        fastest = Math.min(fastest, ((performance.now() - start) * 1000) / count);
    }
    return fastest;
}

let sink = 0;
const validate = best(iterations, () => {
    sink += core.validate(screen, answers).length;
});
const gate = best(Math.max(1, iterations / 4), () => {
    for (const version of cores) sink += core.gate(screen, version).length;
});
console.log(
    `wasm (node ${process.version}): validate 20-field screen (JSON text in and out): ${validate.toFixed(2)} µs per call; ` +
        `gate for ${cores.length} cores: ${(gate / cores.length).toFixed(2)} µs per core (${sink > 0 ? "ok" : "?"})`,
);
