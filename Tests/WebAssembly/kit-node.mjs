// node Tests/WebAssembly/kit-node.mjs MODULE.wasm
// The web client kit (parley-client.mjs) against a scripted fetch: what the Chromium walk against a
// real server cannot force on demand. One Idempotency-Key for every retry of an answer; retries
// on network failures, 503 and 409 idempotency-in-flight, none on a 422; locally invalid answers
// never sent; older snapshots dropped; the event stream parsed across chunk boundaries (CRLF,
// comments, multi-line data) and followed after a dropped connection with Last-Event-ID.
// Prints "kit: N passed, 0 failed"; exits 1 on any failure. Every wait is bounded.
import { readFileSync } from "node:fs";
import { loadParleyCore } from "../../Sources/ParleyStudio/web/parley-core.mjs";
import { ParleyClient } from "../../Sources/ParleyStudio/web/parley-client.mjs";

const core = await loadParleyCore(readFileSync(process.argv[2]));
const screen = {
    schema: "parley.screen/1", id: "s",
    root: { type: "vstack", id: "root", children: [
        { type: "textField", id: "code", properties: { fieldId: "code", label: "Code",
            validation: [{ rule: "required" }, { rule: "pattern", value: "[A-Z]{2}" }] } }] },
};
const snapshot = (rev, step = "a", extra = {}) => ({
    session: "S1", flow: "f", version: 1, rev, status: "active", step, path: rev > 1 ? ["a"] : [],
    screen: { screen, served: "step", report: [], deferred: [] }, values: {}, messages: [], ...extra,
});
const json = (status, body, headers = {}) => new Response(JSON.stringify(body), { status, headers });

/** A fetch that answers from `script` in order, recording every request. */
function scripted(script) {
    const requests = [];
    const fetch = async (url, init = {}) => {
        requests.push({ url, method: init.method || "GET", headers: { ...(init.headers || {}) }, body: init.body });
        const next = script.shift();
        if (!next) throw new Error(`unexpected request ${init.method} ${url}`);
        return next(url, init);
    };
    return { fetch, requests };
}

const client = (fetch) => new ParleyClient({ core, fetch, storage: null, retry: { baseMs: 1, maxMs: 5 } });
const tests = [];
const test = (name, body) => tests.push({ name, body });
const assert = (condition, message) => { if (!condition) throw new Error(message); };

test("an answer is retried with the same Idempotency-Key until the server answers", async () => {
    const { fetch, requests } = scripted([
        () => json(201, snapshot(1)),
        () => { throw new TypeError("connection refused"); },
        () => json(503, { type: "urn:parley:problem:unavailable" }, { "Retry-After": "0" }),
        () => json(409, { type: "urn:parley:problem:idempotency-in-flight" }),
        () => json(200, snapshot(2, "b")),
    ]);
    const kit = client(fetch);
    await kit.start("f");
    const result = await kit.answer({ code: "AB" });
    assert(result.ok && kit.snapshot.step === "b", `not moved on: ${JSON.stringify(result)}`);
    const keys = requests.slice(1).map((r) => r.headers["Idempotency-Key"]);
    assert(keys.length === 4 && keys.every((key) => key && key === keys[0]), `keys ${keys}`);
    assert(JSON.parse(requests[1].body).rev === 1, "the answer carries the shown rev");
    assert(requests[0].headers["Parley-Core"] === core.version, "Parley-Core is the module's version");
});

test("a 422 is not retried; its errors come back with the snapshot", async () => {
    const errors = [{ field: "code", rule: "custom", message: "taken" }];
    const { fetch, requests } = scripted([
        () => json(201, snapshot(1)),
        () => json(422, { type: "urn:parley:problem:invalid-answers", errors, snapshot: snapshot(1) }),
    ]);
    const kit = client(fetch);
    await kit.start("f");
    const result = await kit.answer({ code: "AB" });
    assert(!result.ok && !result.local && result.errors[0].message === "taken", JSON.stringify(result));
    assert(requests.length === 2, `${requests.length} requests`);
});

test("locally invalid answers are refused by the module without a request", async () => {
    const { fetch, requests } = scripted([() => json(201, snapshot(1))]);
    const kit = client(fetch);
    await kit.start("f");
    const result = await kit.answer({ code: "ab" });
    assert(!result.ok && result.local && result.errors[0].rule === "pattern", JSON.stringify(result));
    assert(requests.length === 1, "nothing was sent");
});

test("a 409 stale-rev adopts the server's snapshot; older snapshots are dropped", async () => {
    const { fetch } = scripted([
        () => json(201, snapshot(1)),
        () => json(409, { type: "urn:parley:problem:stale-rev", snapshot: snapshot(3, "c") }),
    ]);
    const kit = client(fetch);
    const seen = [];
    kit.onSnapshot((s) => seen.push(s.rev));
    await kit.start("f");
    const result = await kit.answer({ code: "AB" });
    assert(!result.ok && result.conflict === "urn:parley:problem:stale-rev" && kit.snapshot.rev === 3, JSON.stringify(result));
    kit.adopt(snapshot(2, "b"));
    assert(kit.snapshot.rev === 3 && seen.join() === "1,3", `shown ${seen}`);
});

test("the event stream is parsed across chunks and followed again with Last-Event-ID", async () => {
    const encoder = new TextEncoder();
    const stream = (chunks) => new Response(new ReadableStream({
        start(controller) {
            for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
            controller.close();
        },
    }), { status: 200, headers: { "Content-Type": "text/event-stream" } });
    const two = JSON.stringify(snapshot(2, "a", { messages: [{ rev: 2, from: "agent", text: "hi" }] }));
    const three = JSON.stringify(snapshot(3, "b"));
    const cut = three.indexOf(',"flow"') + 1; // two data lines, joined by a newline: still one JSON text
    const { fetch, requests } = scripted([
        () => json(201, snapshot(1)),
        () => stream([": keep-alive\r\n", `event: snapshot\r\nid: 2\r\ndata: ${two.slice(0, 20)}`, `${two.slice(20)}\r\n\r\n`]),
        () => { throw new TypeError("dropped"); },
        () => stream([`event: snapshot\nid: 3\ndata: ${three.slice(0, cut)}\ndata: ${three.slice(cut)}`, "\n\n"]),
        () => json(410, { type: "urn:parley:problem:expired" }),
    ]);
    const kit = client(fetch);
    await kit.start("f");
    const done = new Promise((resolve) => kit.onSnapshot((s) => { if (s.rev === 3) resolve(); }));
    const stop = kit.follow();
    await Promise.race([done, new Promise((_, reject) => setTimeout(() => reject(new Error("no rev 3 within 5 s")), 5000))]);
    stop();
    assert(kit.snapshot.step === "b", `step ${kit.snapshot.step}`);
    const events = requests.filter((r) => r.url.endsWith("/events"));
    assert(events[0].headers["Last-Event-ID"] === "1" && events[2].headers["Last-Event-ID"] === "2",
        `Last-Event-ID ${events.map((r) => r.headers["Last-Event-ID"])}`);
});

let failed = 0;
for (const { name, body } of tests) {
    try {
        await body();
        console.log(`✔ kit: ${name}`);
    } catch (error) {
        failed += 1;
        console.log(`✘ kit: ${name}: ${error.message}`);
    }
}
console.log(`kit: ${tests.length - failed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
