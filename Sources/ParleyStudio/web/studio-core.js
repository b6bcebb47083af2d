// The one seam through which the studio asks Parley's interpreter about a draft: lint, gating
// preview and expression evaluation. Each function resolves to exactly the JSON body the server
// answers, and rejects with an ApiError (status and problem document) exactly when the server would.
//
// They run locally, in this tab, through ParleyCore compiled to WebAssembly (docs/webassembly.md;
// /studio/assets/parley-core.wasm): the very functions the server runs (FlowLinter,
// FlowPreview), so no keystroke costs a request and the studio keeps linting and previewing while
// the server is away. Where WebAssembly is unavailable, or the server has no module (started
// without --core-module), they ask the server as before. Saving always goes to the server.
import { api, ApiError } from './api.js';

let loading = null;

/** The module, loaded once per tab (after the page's first paint: the studio never waits for it
 *  to show); null where WebAssembly is unavailable or the server serves no module. */
export function localCore() {
  // Imported here, not at the top: the wrapper and the module are not part of the first load.
  loading ??= (typeof WebAssembly === 'object' && typeof WebAssembly.instantiate === 'function'
    ? import('./parley-core.mjs').then(({ loadParleyCore }) => loadParleyCore('/studio/assets/parley-core.wasm'))
    : Promise.reject(new Error('no WebAssembly')))
    .catch(() => null);
  return loading;
}

/**
 * Lints a flow document: `text` is the flow's JSON text, sent as typed (so the problems' JSON
 * Pointers match what the editor shows). Resolves to the body of `POST /v1/flows/lint`:
 * `{"valid", "problems": [{"code", "pointer", "message", "severity"}], "servability"?}`.
 */
export async function lintFlow(text) {
  const local = await localCore();
  if (local) {
    const report = JSON.parse(local.lint(text, { warnings: true }));
    if (!report.error) return report;
    // Not JSON: the server's 400 names the line and column in its own words; say it ourselves
    // only when the server cannot be asked.
    return serverOr(() => api('POST', '/v1/flows/lint', text), () => refused(400, 'malformed-body',
      'The request body is not valid', report.error));
  }
  return (await api('POST', '/v1/flows/lint', text)).data;
}

/**
 * One step of an unsaved draft, as `POST /v1/flows/preview` answers it: `{"flow", "step",
 * "cores": [{core, served, screen, report, deferred}]}` (every supported core when `core` is
 * absent), plus, when `answers` is given, `"outcome"` (the interpreter's verdict, `cleared` and
 * `next`) and `"evaluation"` (`visible` {nodeId: bool}, `texts` {"nodeId/property": text},
 * `computed` {name: value|null}, `hidden`, `cleared`). `context` holds the answers of earlier
 * steps; `locale` one of the flow's locales. Rejects with ApiError 422 when the draft has lint
 * errors (the problem document lists them).
 */
export async function previewStep(flow, step, { core, locale, answers, context } = {}) {
  const body = { flow, step };
  if (core !== undefined) body.core = core;
  if (locale !== undefined) body.locale = locale;
  if (answers !== undefined) body.answers = answers;
  if (context !== undefined) body.context = context;
  const local = await localCore();
  if (local) {
    const preview = JSON.parse(local.preview(body));
    if (!preview.error) return preview;
    if (preview.problem) throw new ApiError(preview.problem.status, preview.problem);
  }
  return (await api('POST', '/v1/flows/preview', body)).data;
}

/** The server's answer; when the server cannot be reached, `offline()` instead. */
async function serverOr(ask, offline) {
  try {
    return (await ask()).data;
  } catch (error) {
    if (error instanceof ApiError && error.status === 0) return offline();
    throw error;
  }
}

/** Rejects as the server would, with a problem document of the same type and title. */
function refused(status, name, title, detail) {
  throw new ApiError(status, { type: `urn:parley:problem:${name}`, title, status, detail });
}
