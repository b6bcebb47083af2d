// Talks to the Parley API. The token lives in sessionStorage and leaves the page only as an
// Authorization header (never in a URL, a cookie or the logs).

const KEY = 'parley.token';

export const token = {
  get: () => sessionStorage.getItem(KEY),
  set: (value) => sessionStorage.setItem(KEY, value),
  clear: () => sessionStorage.removeItem(KEY),
};

/** A non-2xx answer: the status and the problem document (RFC 9457) when there is one. */
export class ApiError extends Error {
  constructor(status, problem) {
    super((problem && (problem.detail || problem.title)) || `the server answered ${status}`);
    this.status = status;
    this.problem = problem || {};
  }
}

/** What a request that got no answer says: saving and everything stored need the server. */
export const SERVER_AWAY = 'the server cannot be reached, and saving needs the server. '
  + 'Your draft is kept in this tab; lint and preview keep working here.';

/** Sends one request; resolves to {data, status, headers} or throws ApiError. */
export async function api(method, path, body, headers = {}) {
  const sent = { ...headers };
  const value = token.get();
  if (value) sent.Authorization = `Bearer ${value}`;
  let payload;
  if (body !== undefined) {
    sent['Content-Type'] = 'application/json';
    payload = typeof body === 'string' ? body : JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, {
      method, headers: sent, body: payload, cache: 'no-store', credentials: 'omit', referrerPolicy: 'no-referrer',
    });
  } catch {
    // No answer at all (the server is stopped or the network is down): status 0, in words a
    // designer can act on. Lint and preview keep working in the tab (studio-core.js).
    throw new ApiError(0, { title: 'The server cannot be reached', detail: SERVER_AWAY });
  }
  const text = await response.text();
  let data = text;
  try { data = text ? JSON.parse(text) : null; } catch { /* not JSON: keep the text */ }
  if (!response.ok) throw new ApiError(response.status, typeof data === 'object' ? data : null);
  return { data, status: response.status, headers: response.headers };
}

/** The supported client cores, oldest first (DESIGN.md "Capabilities"). */
export const CORES = ['1.0.0', '1.1.0', '1.2.0', '2.0.0', '2.1.0'];

/** "1.2.0" → "1.2". */
export const shortCore = (core) => core.split('.').slice(0, 2).join('.');
