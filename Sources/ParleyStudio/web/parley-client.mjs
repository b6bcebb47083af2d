// parley-client.mjs: the web client kit (docs/webassembly.md "The web client kit"). A dependency-free
// ES module that walks one Parley session as ParleyClient does on Apple platforms: start or resume,
// validate locally through ParleyCore in WebAssembly (parley-core.mjs), answer with `rev` and an
// `Idempotency-Key`, retry with backoff, and follow the live session (Server-Sent Events).
//
//   import { loadParleyCore } from "./parley-core.mjs";
//   import { ParleyClient } from "./parley-client.mjs";
//   const core = await loadParleyCore("./parley-core.wasm").catch(() => null); // optional
//   const client = new ParleyClient({ core });
//   client.onSnapshot((snapshot) => render(snapshot));
//   (await client.resume()) ?? (await client.start("passport-intake"));
//   const local = client.validate(answers);          // {valid, errors, deferred}, no request
//   const result = await client.answer(answers);     // {ok, snapshot, errors?}
//   const stop = client.follow();                    // snapshots and agent messages as they happen
//
// The server stays the authority: local validation only spares a round trip; every answer is
// checked again by the server, and its word (a 422's errors, a 409's snapshot) wins.

/** A request the server refused for good (a 4xx other than those the kit handles), or gave up on. */
export class ParleyError extends Error {
    constructor(status, problem, message) {
        super(message || (problem && (problem.detail || problem.title)) || `the server answered ${status}`);
        this.status = status;
        this.problem = problem || {};
    }
}

const RETRYABLE = new Set([408, 425, 429, 500, 502, 503, 504]);
const sleep = (ms, signal) =>
    new Promise((resolve) => {
        const timer = setTimeout(resolve, ms);
        signal?.addEventListener("abort", () => { clearTimeout(timer); resolve(); }, { once: true });
    });

export class ParleyClient {
    /**
     * @param {object} options
     * @param {string} [options.server] the Parley server's origin ("" = this page's)
     * @param {object} [options.core] a loaded parley-core module; without it every check is the server's
     * @param {string} [options.coreVersion] sent as Parley-Core (default: the module's version, else "2.0.0")
     * @param {string} [options.clientKey] sent as Parley-Client-Key when the server asks for one
     * @param {string} [options.locale] sent as Accept-Language when starting
     * @param {Storage} [options.storage] where the session id is kept to resume (default sessionStorage);
     *   answers are never stored, only held in memory
     * @param {{attempts?: number, baseMs?: number, maxMs?: number}} [options.retry] backoff of retried requests
     */
    constructor(options = {}) {
        this.server = (options.server || "").replace(/\/$/, "");
        this.core = options.core || null;
        this.coreVersion = options.coreVersion || (this.core && this.core.version) || "2.0.0";
        this.clientKey = options.clientKey || null;
        this.locale = options.locale || null;
        this.storage = options.storage === undefined ? globalThis.sessionStorage ?? null : options.storage;
        this.retry = { attempts: 10, baseMs: 200, maxMs: 4000, ...(options.retry || {}) };
        this.fetch = options.fetch || globalThis.fetch.bind(globalThis);
        this.current = null;
        this.listeners = new Set();
        this.answersByStep = new Map(); // answers this page sent, per step of the path (memory only)
        this.pathKnown = true; // false after a resume: earlier steps' answers are not known here
    }

    /** The snapshot shown now (docs/sessions.md), or null before start/resume. */
    get snapshot() { return this.current; }

    /** Calls `listener(snapshot)` on every newer snapshot; returns a function that stops it. */
    onSnapshot(listener) {
        this.listeners.add(listener);
        return () => this.listeners.delete(listener);
    }

    /** POST /v1/sessions: a new session of `flow` (on `channel`, default the server's). */
    async start(flow, { channel } = {}) {
        const body = channel ? { flow, channel } : { flow };
        const headers = this.locale ? { "Accept-Language": this.locale } : {};
        const { data } = await this.request("POST", "/v1/sessions", body, { headers });
        this.answersByStep.clear();
        this.pathKnown = true;
        this.adopt(data);
        return data;
    }

    /** The session kept in storage (or `id`), as the server has it now; null when there is none
     *  or it is gone (404, 410: the id is forgotten). */
    async resume(id = this.storage?.getItem(STORAGE_KEY)) {
        if (!id) return null;
        try {
            const { data } = await this.request("GET", `/v1/sessions/${encodeURIComponent(id)}`);
            this.pathKnown = false;
            this.adopt(data);
            return data;
        } catch (error) {
            if (error instanceof ParleyError && (error.status === 404 || error.status === 410)) {
                this.forget();
                return null;
            }
            throw error;
        }
    }

    /** Forgets the session (storage and memory); the server keeps it until it expires. */
    forget() {
        this.storage?.removeItem(STORAGE_KEY);
        this.current = null;
        this.answersByStep.clear();
    }

    /** The answers of the path's earlier steps, as this page sent them. */
    pathAnswers() {
        const merged = {};
        for (const step of this.current?.path ?? []) Object.assign(merged, this.answersByStep.get(step) || {});
        return merged;
    }

    /** The current step's rules over `answers`, locally through the module in client mode (rules the
     *  core does not know are deferred to the server): `{valid, errors, deferred}`, or null without a
     *  module. The screen is the snapshot's, gated for this core, so it is what the user sees. */
    validate(answers) {
        const screen = this.current?.screen?.screen; // the snapshot holds the gated response; its screen
        if (!this.core || !screen) return null;
        const outcome = JSON.parse(this.core.validate(screen, answers, this.pathAnswers(), { mode: "client" }));
        return outcome.error ? null : outcome;
    }

    /** POST /v1/sessions/{id}/answers for the current step. Resolves to `{ok: true, snapshot}` when
     *  the session moved on, `{ok: false, errors, snapshot, local}` when the answers are refused (by
     *  the module, before any request, or by the server's 422). A 409 (another device, an agent)
     *  adopts the server's snapshot and resolves `{ok: false, conflict, snapshot}`. */
    async answer(answers) {
        const snapshot = this.requireActive();
        const local = this.pathKnown ? this.validate(answers) : null;
        if (local && !local.valid) return { ok: false, errors: local.errors, snapshot, local: true };
        const body = { rev: snapshot.rev, step: snapshot.step, answers };
        const result = await this.stepRequest(`/v1/sessions/${encodeURIComponent(snapshot.session)}/answers`, body);
        if (result.ok) this.answersByStep.set(snapshot.step, { ...answers });
        return result;
    }

    /** POST /v1/sessions/{id}/back: the previous step, its answers as the snapshot's `values`. */
    async back() {
        const snapshot = this.requireActive();
        return this.stepRequest(`/v1/sessions/${encodeURIComponent(snapshot.session)}/back`, { rev: snapshot.rev });
    }

    /** Follows GET /v1/sessions/{id}/events (Server-Sent Events, read with fetch so the kit's headers
     *  go along): every newer snapshot reaches the listeners, whoever made it (an agent's message or
     *  move, another device). Reconnects with backoff and `Last-Event-ID`; ends when the session
     *  does. Returns a function that stops following. */
    follow() {
        const controller = new AbortController();
        const run = async () => {
            let failures = 0;
            while (!controller.signal.aborted && this.current && this.current.status === "active") {
                const id = this.current.session;
                try {
                    const response = await this.fetch(`${this.server}/v1/sessions/${encodeURIComponent(id)}/events`, {
                        headers: { ...this.headers(), Accept: "text/event-stream", "Last-Event-ID": String(this.current.rev) },
                        signal: controller.signal, cache: "no-store",
                    });
                    if (response.status === 404 || response.status === 410) return;
                    if (!response.ok || !response.body) throw new Error(`events answered ${response.status}`);
                    failures = 0;
                    await readEvents(response.body, (event) => {
                        if (event.type === "snapshot") this.adopt(JSON.parse(event.data));
                    });
                } catch (error) {
                    if (controller.signal.aborted) return;
                }
                failures += 1;
                await sleep(this.backoff(failures), controller.signal);
            }
        };
        run();
        return () => controller.abort();
    }

    // Internals.

    requireActive() {
        if (!this.current) throw new ParleyError(0, null, "no session: call start() or resume() first");
        if (this.current.status !== "active") throw new ParleyError(409, null, `the session is ${this.current.status}`);
        return this.current;
    }

    /** An answers/back request: one Idempotency-Key for all its retries, so a retry after a lost
     *  response (a restart, a dropped connection) replays the stored outcome instead of acting twice. */
    async stepRequest(path, body) {
        try {
            const { data } = await this.request("POST", path, body, { key: newKey() });
            this.adopt(data);
            return { ok: true, snapshot: this.current };
        } catch (error) {
            const snapshot = error.problem?.snapshot;
            if (snapshot) this.adopt(snapshot);
            if (error.status === 422 && Array.isArray(error.problem?.errors)) {
                return { ok: false, errors: error.problem.errors, snapshot: this.current, local: false };
            }
            if (error.status === 409 && snapshot) {
                return { ok: false, conflict: error.problem.type, errors: [], snapshot: this.current };
            }
            throw error;
        }
    }

    headers() {
        const headers = { "Parley-Core": this.coreVersion };
        if (this.clientKey) headers["Parley-Client-Key"] = this.clientKey;
        return headers;
    }

    /** Full jitter over an exponential ceiling (AWS architecture blog, "Exponential Backoff And Jitter"). */
    backoff(attempt) {
        const ceiling = Math.min(this.retry.maxMs, this.retry.baseMs * 2 ** Math.min(attempt, 16));
        return ceiling / 2 + Math.random() * (ceiling / 2);
    }

    /** One request, retried on network failures, 408/425/429/5xx and 409 idempotency-in-flight
     *  (honouring Retry-After); resolves to {data, status} or throws ParleyError. */
    async request(method, path, body, { headers = {}, key } = {}) {
        const sent = { ...this.headers(), ...headers };
        if (body !== undefined) sent["Content-Type"] = "application/json";
        if (key) sent["Idempotency-Key"] = key;
        let lastError = null;
        for (let attempt = 0; attempt < this.retry.attempts; attempt += 1) {
            if (attempt > 0) await sleep(lastError?.retryAfterMs ?? this.backoff(attempt));
            let response;
            try {
                response = await this.fetch(this.server + path, {
                    method, headers: sent, body: body === undefined ? undefined : JSON.stringify(body), cache: "no-store",
                });
            } catch (error) {
                lastError = new ParleyError(0, null, `the server cannot be reached (${error.message})`);
                continue;
            }
            const text = await response.text().catch(() => "");
            let data = null;
            try { data = text ? JSON.parse(text) : null; } catch { data = null; }
            if (response.ok) return { data, status: response.status };
            const error = new ParleyError(response.status, data);
            const inFlight = response.status === 409 && data?.type === "urn:parley:problem:idempotency-in-flight";
            if (!RETRYABLE.has(response.status) && !inFlight) throw error;
            const retryAfter = Number(response.headers.get("Retry-After"));
            error.retryAfterMs = Number.isFinite(retryAfter) && retryAfter > 0 ? Math.min(retryAfter * 1000, this.retry.maxMs) : undefined;
            lastError = error;
        }
        throw lastError;
    }

    /** Shows `snapshot` if it is newer than the one shown (docs/sessions.md: drop any whose rev is not above). */
    adopt(snapshot) {
        if (!snapshot || typeof snapshot.rev !== "number") return;
        const shown = this.current;
        if (shown && shown.session === snapshot.session && snapshot.rev <= shown.rev) return;
        this.current = snapshot;
        this.storage?.setItem(STORAGE_KEY, snapshot.session);
        for (const step of [...this.answersByStep.keys()]) {
            if (!snapshot.path?.includes(step)) this.answersByStep.delete(step);
        }
        for (const listener of this.listeners) listener(snapshot);
    }
}

const STORAGE_KEY = "parley.session";

/** A fresh Idempotency-Key (1–255 visible ASCII characters). */
function newKey() {
    return globalThis.crypto?.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

/** Reads a text/event-stream body (WHATWG HTML "Server-sent events": fields, blank-line dispatch). */
async function readEvents(body, dispatch) {
    const reader = body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    let event = { type: "message", data: [] };
    for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += value;
        let newline;
        while ((newline = buffer.search(/\r\n|\r|\n/)) >= 0) {
            const line = buffer.slice(0, newline);
            buffer = buffer.slice(newline + (buffer.startsWith("\r\n", newline) ? 2 : 1));
            if (line === "") {
                if (event.data.length) dispatch({ type: event.type, data: event.data.join("\n") });
                event = { type: "message", data: [] };
            } else if (!line.startsWith(":")) {
                const colon = line.indexOf(":");
                const field = colon < 0 ? line : line.slice(0, colon);
                const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
                if (field === "event") event.type = value;
                else if (field === "data") event.data.push(value);
            }
        }
    }
}
