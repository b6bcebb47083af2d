// Funnel: for a live flow, sessions started, each step's valid answers and rejections, and
// where sessions stop — read from the session series on /metrics (Prometheus text format).
import { api, ApiError } from './api.js';
import { fill, h, status, svg } from './dom.js';
import { flowGraph } from './graph.js';

/** Prometheus text → [{name, labels, value}] (comments and malformed lines skipped). */
export function parseMetrics(text) {
  const samples = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})?\s+(\S+)/.exec(line);
    if (!match) continue;
    const labels = {};
    const pattern = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;
    let label;
    while ((label = pattern.exec(match[3] || '')) !== null) {
      labels[label[1]] = label[2].replace(/\\n/g, '\n').replace(/\\"/g, '"').replace(/\\\\/g, '\\');
    }
    samples.push({ name: match[1], labels, value: Number(match[4]) });
  }
  return samples;
}

/** `/studio/flows/{id}/funnel`. */
export async function funnelPage(main, flow) {
  document.title = `Funnel ${flow} · Parley Studio`;
  const metrics = await api('GET', '/metrics');
  const samples = parseMetrics(String(metrics.data)).filter((sample) => sample.labels.flow === flow);
  const sum = (name, match = () => true) => samples.filter((sample) => sample.name === name && match(sample.labels)).reduce((total, sample) => total + sample.value, 0);
  const started = sum('parley_sessions_started_total');
  fill(main, h('h1', {}, `Funnel of ${flow}`));
  if (started === 0) {
    main.append(status('No sessions yet: once clients start sessions on a live version, each step’s progress shows here.'));
    return;
  }
  let order = [];
  try {
    const summary = (await api('GET', `/v1/flows/${encodeURIComponent(flow)}`)).data;
    const version = (await api('GET', `/v1/flows/${encodeURIComponent(flow)}/versions/${summary.latestVersion}`)).data;
    const { steps, depth } = flowGraph(version.content);
    order = steps.filter((id) => depth.has(id)).sort((a, b) => depth.get(a) - depth.get(b));
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
  }
  const seen = samples.filter((sample) => sample.name === 'parley_session_steps_total').map((sample) => sample.labels.step);
  for (const step of seen) if (!order.includes(step)) order.push(step);
  const completed = sum('parley_session_completions_total');
  const expired = sum('parley_session_expirations_total');
  const rows = order.map((step) => ({
    step,
    valid: sum('parley_session_steps_total', (labels) => labels.step === step && labels.outcome === 'valid'),
    invalid: sum('parley_session_steps_total', (labels) => labels.step === step && labels.outcome === 'invalid'),
  }));
  const BAR = 420;
  const chart = svg('svg', { viewBox: `0 0 ${BAR + 260} ${rows.length * 36 + 50}`, width: BAR + 260, height: rows.length * 36 + 50, role: 'img', 'aria-labelledby': 'funnel-title', class: 'funnel' },
    svg('title', { id: 'funnel-title' }, `Sessions passing each step of ${flow}`),
    svg('text', { x: 0, y: 18, class: 'bar-label' }, 'started'),
    svg('rect', { x: 130, y: 4, width: BAR, height: 22, class: 'bar started' }),
    svg('text', { x: BAR + 140, y: 20 }, String(started)),
    rows.map((row, index) => [
      svg('text', { x: 0, y: 54 + index * 36, class: 'bar-label' }, row.step),
      svg('rect', { x: 130, y: 40 + index * 36, width: Math.max(1, (BAR * row.valid) / started), height: 22, class: 'bar' }),
      svg('text', { x: BAR + 140, y: 56 + index * 36 }, `${row.valid} (${Math.round((100 * row.valid) / started)}%)`),
    ]));
  main.append(
    h('p', {}, `${started} session${started === 1 ? '' : 's'} started, ${completed} completed, ${expired} expired (since this server process started).`),
    chart,
    h('table', { class: 'data', id: 'funnel' }, h('caption', {}, 'Per step: sessions that passed it, rejected answers, and the share of started sessions lost by then'),
      h('thead', {}, h('tr', {}, ['Step', 'Passed', 'Rejected answers', 'Drop-off'].map((name) => h('th', { scope: 'col' }, name)))),
      h('tbody', {}, rows.map((row) => h('tr', {}, h('th', { scope: 'row' }, row.step), h('td', { class: 'num' }, row.valid),
        h('td', { class: 'num' }, row.invalid), h('td', { class: 'num' }, `${Math.max(0, Math.round(100 - (100 * row.valid) / started))}%`))))));
}
