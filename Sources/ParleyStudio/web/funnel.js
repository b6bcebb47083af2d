// Funnel: GET /v1/flows/{id}/funnel — computed by the server from stored sessions, so every
// replica shows the same. Filters (version, core, locale, from, to) live in the URL; a step's
// drop-off counts only sessions that could still reach it (branch-aware).
import { api, CORES, shortCore } from './api.js';
import { fill, h, status, svg } from './dom.js';

const percent = (value) => (value === null || value === undefined ? '—' : `${Math.round(value * 1000) / 10}%`);

function filterForm(flow, filters, reload) {
  const field = (name, label, control) => h('div', { class: 'vfield' }, h('label', { for: `filter-${name}` }, label), control);
  const input = (name, attributes = {}) => h('input', { id: `filter-${name}`, name, value: filters.get(name) || '', ...attributes });
  const core = h('select', { id: 'filter-core', name: 'core' }, h('option', { value: '' }, 'Every core'),
    CORES.map((value) => h('option', { value }, `Core ${shortCore(value)}`)));
  core.value = filters.get('core') || '';
  const form = h('form', { class: 'filters', id: 'funnel-filters', 'aria-label': 'Funnel filters', onsubmit: (event) => {
    event.preventDefault();
    const query = new URLSearchParams();
    for (const element of form.querySelectorAll('input, select')) if (element.value.trim()) query.set(element.name, element.value.trim());
    history.replaceState(null, '', `/studio/flows/${encodeURIComponent(flow)}/funnel${query.size ? `?${query}` : ''}`);
    reload();
  } },
  field('version', 'Version', input('version', { inputmode: 'numeric', pattern: '[1-9][0-9]*', size: 5 })),
  field('core', 'Client core', core),
  field('locale', 'Locale', input('locale', { size: 8 })),
  field('from', 'From (date)', input('from', { type: 'date' })),
  field('to', 'To (date, exclusive)', input('to', { type: 'date' })),
  h('button', { type: 'submit', class: 'primary' }, 'Apply'));
  return form;
}

/** `/studio/flows/{id}/funnel?version=&core=&locale=&from=&to=`. */
export async function funnelPage(main, flow) {
  document.title = `Funnel ${flow} · Parley Studio`;
  const filters = new URLSearchParams(window.location.search);
  const query = new URLSearchParams([...filters].filter(([name, value]) => ['version', 'core', 'locale', 'from', 'to'].includes(name) && value));
  const reload = () => funnelPage(main, flow);
  let funnel;
  try {
    funnel = (await api('GET', `/v1/flows/${encodeURIComponent(flow)}/funnel${query.size ? `?${query}` : ''}`)).data;
  } catch (error) {
    if (!error.status || error.status === 401) throw error;
    fill(main, h('h1', {}, `Funnel of ${flow}`), filterForm(flow, filters, reload), status(`The funnel was refused: ${error.message}`, 'error'));
    return;
  }
  fill(main, h('h1', {}, `Funnel of ${flow}`), filterForm(flow, filters, reload));
  if (funnel.started === 0) {
    main.append(status('No sessions yet: once clients start sessions, each step’s progress shows here.'));
    return;
  }
  const BAR = 420;
  const rows = funnel.steps;
  const chart = svg('svg', { viewBox: `0 0 ${BAR + 260} ${rows.length * 36 + 50}`, width: BAR + 260, height: rows.length * 36 + 50, role: 'img', 'aria-labelledby': 'funnel-title', class: 'funnel' },
    svg('title', { id: 'funnel-title' }, `Sessions passing each step of ${flow}`),
    svg('text', { x: 0, y: 18, class: 'bar-label' }, 'started'),
    svg('rect', { x: 130, y: 4, width: BAR, height: 22, class: 'bar started' }),
    svg('text', { x: BAR + 140, y: 20 }, String(funnel.started)),
    rows.map((row, index) => [
      svg('text', { x: 0, y: 54 + index * 36, class: 'bar-label' }, row.step),
      svg('rect', { x: 130, y: 40 + index * 36, width: Math.max(1, (BAR * row.passed) / funnel.started), height: 22, class: 'bar' }),
      svg('text', { x: BAR + 140, y: 56 + index * 36 }, `${row.passed} of ${row.reachable}`),
    ]));
  const rejections = rows.flatMap((row) => row.rejections.map((item) => ({ step: row.step, ...item })));
  main.append(
    h('p', { id: 'funnel-totals' }, `${funnel.started} session${funnel.started === 1 ? '' : 's'} started, ${funnel.completed} completed, ${funnel.expired} expired (from the database: every server shows the same).`),
    chart,
    h('table', { class: 'data', id: 'funnel' }, h('caption', {}, 'Per step: sessions that could reach it, reached it and passed it; drop-off among those that could reach it'),
      h('thead', {}, h('tr', {}, ['Step', 'Passed', 'Could reach', 'Reached', 'Drop-off', 'Rejected answers', 'Median time'].map((name) => h('th', { scope: 'col' }, name)))),
      h('tbody', {}, rows.map((row) => h('tr', { 'data-step': row.step }, h('th', { scope: 'row' }, row.step),
        h('td', { class: 'num' }, row.passed), h('td', { class: 'num' }, row.reachable), h('td', { class: 'num' }, row.reached),
        h('td', { class: 'num' }, percent(row.dropOff)), h('td', { class: 'num' }, row.rejected),
        h('td', { class: 'num' }, row.medianSeconds === null ? '—' : `${row.medianSeconds} s`))))),
    h('h2', {}, 'Rejected answers by rule and core'),
    rejections.length === 0 ? h('p', {}, 'No rejected answers.')
      : h('table', { class: 'data', id: 'rejections' }, h('caption', {}, 'A rule rejected more often on one core than on others is the drift signal'),
        h('thead', {}, h('tr', {}, ['Step', 'Field', 'Rule', 'Core', 'Rejected'].map((name) => h('th', { scope: 'col' }, name)))),
        h('tbody', {}, rejections.map((item) => h('tr', {}, h('td', {}, item.step), h('td', {}, item.field), h('td', {}, h('code', {}, item.rule)),
          h('td', {}, item.core), h('td', { class: 'num' }, item.count))))));
}
