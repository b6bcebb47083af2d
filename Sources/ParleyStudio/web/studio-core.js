// The one seam through which the studio asks Parley's interpreter about a draft: lint, gating
// preview and expression evaluation. Today every call goes to the server; a local implementation
// (ParleyCore compiled to WebAssembly, DESIGN.md "ParleyCore in WebAssembly") can replace the
// bodies of these functions without touching any page, as long as it keeps the contract below:
// each function resolves to exactly the JSON body the server answers, and rejects with an
// ApiError (status and problem document) exactly when the server would.
import { api } from './api.js';

/**
 * Lints a flow document: `text` is the flow's JSON text, sent as typed (so the problems' JSON
 * Pointers match what the editor shows). Resolves to the body of `POST /v1/flows/lint`:
 * `{"valid", "problems": [{"code", "pointer", "message", "severity"}], "servability"?}`.
 */
export async function lintFlow(text) {
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
  return (await api('POST', '/v1/flows/preview', body)).data;
}
