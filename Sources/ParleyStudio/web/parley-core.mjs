// parley-core.mjs: ParleyCore compiled to WebAssembly (docs/webassembly.md). Dependency-free;
// runs in browsers and in Node. Every call takes and returns JSON text, exactly the documents
// the server reads and writes.
//
//   import { loadParleyCore } from "./parley-core.mjs";
//   const core = await loadParleyCore(bytesOrUrl);  // a URL (string or URL), a Response, bytes or a WebAssembly.Module
//   core.validate(screenJSON, answersJSON, pathAnswersJSON?, optionsJSON?)  // → ValidationOutcome JSON
//   core.gate(screenOrFlowJSON, coreVersion, optionsJSON?)                  // → served screen + report
//   core.lint(documentJSON, optionsJSON?)                                   // → as `parley lint --json`; {"warnings": true}: as POST /v1/flows/lint
//   core.evaluate(flowJSON, stepId, answersJSON, pathAnswersJSON?, optionsJSON?) // → visible, computed, texts, outcome
//   core.preview(requestJSON)                                               // → as POST /v1/flows/preview
//   core.harness(requestJSON)                                               // → an expression conformance request
//   core.version                                                            // e.g. "2.0.0"

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/// Loads and instantiates the module. `source` is a URL (string or URL), a fetch Response (or a
/// promise of one), the module's bytes (ArrayBuffer, typed array) or a compiled WebAssembly.Module.
export async function loadParleyCore(source) {
    const module = await compile(await source);
    const instance = await WebAssembly.instantiate(module, {});
    return wrap(instance.exports);
}

async function compile(source) {
    if (source instanceof WebAssembly.Module) return source;
    if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) return WebAssembly.compile(source);
    if (typeof Response !== "undefined" && source instanceof Response) {
        return WebAssembly.compile(await source.arrayBuffer());
    }
    if (typeof source === "string" || source instanceof URL) {
        const url = new URL(source, typeof location === "undefined" ? undefined : location.href);
        if (url.protocol === "file:") {
            // Node: fetch has no file: URLs; read the file (imported lazily, so browsers never see it).
            const { readFile } = await import("node:fs/promises");
            return WebAssembly.compile(await readFile(url));
        }
        const response = await fetch(url);
        if (!response.ok) throw new Error(`parley-core: ${url} answered ${response.status}`);
        return WebAssembly.compile(await response.arrayBuffer());
    }
    throw new TypeError("parley-core: pass a URL, a Response, the module's bytes or a WebAssembly.Module");
}

/// The JavaScript face of the exports: one generic `call` (parley_call) behind named functions.
function wrap(exports) {
    const { memory, parley_alloc: alloc, parley_free: free, parley_call: callExport, parley_result: result } =
        exports;

    /// Copies `bytes` into the module's memory; the caller frees the address.
    function place(bytes) {
        const address = alloc(bytes.length);
        if (address === 0) throw new Error("parley-core: out of memory");
        new Uint8Array(memory.buffer, address, bytes.length).set(bytes);
        return address;
    }

    /// Runs `name` with its arguments: JSON text (a non-string is stringified), or undefined/null for one left out.
    function call(name, ...args) {
        const nameBytes = encoder.encode(name);
        const encoded = args.map((arg) =>
            arg === undefined || arg === null ? null : encoder.encode(typeof arg === "string" ? arg : JSON.stringify(arg)),
        );
        const addresses = [];
        try {
            const nameAddress = place(nameBytes);
            addresses.push(nameAddress);
            const table = new Int32Array(Math.max(2 * encoded.length, 1));
            encoded.forEach((bytes, index) => {
                if (bytes === null) {
                    table[2 * index + 1] = -1;
                } else {
                    const address = place(bytes);
                    addresses.push(address);
                    table[2 * index] = address;
                    table[2 * index + 1] = bytes.length;
                }
            });
            const tableAddress = place(new Uint8Array(table.buffer));
            addresses.push(tableAddress);
            const length = callExport(nameAddress, nameBytes.length, tableAddress, encoded.length);
            if (length < 0) throw new Error(`parley-core: this build has no call "${name}"`);
            // memory.buffer may have grown during the call: read it afresh.
            return decoder.decode(new Uint8Array(memory.buffer, result(), length));
        } finally {
            for (const address of addresses) free(address);
        }
    }

    const version = call("version");
    return Object.freeze({
        /// The rule interpreter's outcome, as `parley validate` prints it. `options`: {"mode": "server"|"client", "step"}.
        validate: (screen, answers, pathAnswers, options) => call("validate", screen, answers, pathAnswers, options),
        /// The screen served to `coreVersion`, with its report, as GET /v1/screens. `options`: {"step", "capabilities"}.
        gate: (document, coreVersion, options) => call("gate", document, coreVersion, options),
        /// Every problem of a flow, screen or bundle, as `parley lint --json`; `options`:
        /// {"warnings": true} lists warnings too, exactly as POST /v1/flows/lint answers.
        lint: (document, options) => call("lint", document, options),
        /// Whether a session's path completes the flow, as the server checks before completing.
        replay: (flow, path) => call("replay", flow, path),
        /// What a step shows and decides for these answers (docs/expressions.md): {"visible",
        /// "hidden", "cleared", "computed", "texts", "valid", "errors", "deferred", "next"}.
        /// `options`: {"mode": "server"|"client", "locale"}.
        evaluate: (flow, stepId, answers, pathAnswers, options) =>
            call("evaluate", flow, stepId, answers, pathAnswers, options),
        /// POST /v1/flows/preview's body for the same request, or {"error", "problem"} as the server refuses it.
        preview: (request) => call("preview", request),
        /// One expression request of the conformance harness (Tests/Conformance/README.md).
        harness: (request) => call("harness", request),
        /// The core version this build implements.
        version,
        /// Any call by name (for calls newer than this wrapper).
        call,
    });
}
