// The flow being edited, shared by the editor, preview, try-it and graph views of one tab.
// It starts as the latest stored version and lives in sessionStorage until saved.
import { api } from './api.js';

const key = (flow) => `parley.draft.${flow}`;

/** {text, base}: the draft text and the version it was started from (for If-Match). */
export async function loadDraft(flow) {
  const kept = sessionStorage.getItem(key(flow));
  if (kept) return JSON.parse(kept);
  const summary = (await api('GET', `/v1/flows/${encodeURIComponent(flow)}`)).data;
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
