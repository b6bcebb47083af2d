// The flow being edited, shared by the editor, preview, try-it and graph views of one tab.
// It starts as the latest stored version and lives in sessionStorage until saved.
import { api, ApiError } from './api.js';

const key = (flow) => `parley.draft.${flow}`;

/** {text, base}: the draft text and the version it was started from (for If-Match). */
export async function loadDraft(flow) {
  const kept = sessionStorage.getItem(key(flow));
  if (kept) return JSON.parse(kept);
  let summary;
  try {
    summary = (await api('GET', `/v1/flows/${encodeURIComponent(flow)}`)).data;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return { text: newFlow(flow), base: null };
    throw error;
  }
  const latest = summary.latestVersion;
  const version = (await api('GET', `/v1/flows/${encodeURIComponent(flow)}/versions/${latest}`)).data;
  return { text: JSON.stringify(version.content, null, 2), base: latest };
}

/** Keeps the draft for the other views. */
export function keepDraft(flow, draft) {
  sessionStorage.setItem(key(flow), JSON.stringify(draft));
}

/** Forgets the draft (after a save, the stored version is the truth again). */
export function dropDraft(flow) {
  sessionStorage.removeItem(key(flow));
}

/** The draft as a document, or null with the parse error. */
export function parseDraft(draft) {
  try {
    return { document: JSON.parse(draft.text), error: null };
  } catch (error) {
    return { document: null, error };
  }
}

/** A one-step flow to start from when the id names no stored flow yet. */
function newFlow(id) {
  const screen = {
    schema: 'parley.screen/1', id: 'start', title: 'Welcome',
    root: { type: 'vstack', id: 'root', properties: { spacing: 'm' }, children: [
      { type: 'text', id: 'intro', properties: { text: 'Hello!' } },
      { type: 'button', id: 'next', properties: { title: 'Continue', action: { type: 'submit' } } },
    ] },
  };
  return JSON.stringify({ schema: 'parley.flow/1', id, title: id, start: 'start', steps: [{ id: 'start', screen, next: [] }] }, null, 2);
}
