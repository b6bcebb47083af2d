// Graph: the draft's steps and transitions as SVG, each edge labelled with its `when` in words,
// steps no path from `start` reaches marked. The same edges are listed as a table for readers
// who do not see the drawing.
import { fill, h, status, svg } from './dom.js';
import { keepDraft, loadDraft } from './draft.js';
import { addTransition, fieldsOf } from './flowops.js';
import { draftDocument } from './preview.js';

/** Adds a transition to the draft from the graph (the editor's undo history starts anew there). */
function transitionForm(flow, draft, redraw) {
  const steps = (draft.steps || []).map((step) => step.id);
  const fields = fieldsOf(draft).map((item) => item.field);
  const select = (id, options) => h('select', { id }, options.map(([value, text]) => h('option', { value }, text)));
  const from = select('edge-from', steps.map((id) => [id, id]));
  const to = select('edge-to', steps.map((id) => [id, id]));
  const field = select('edge-field', [['', '(always)'], ...fields.map((name) => [name, name])]);
  const value = h('input', { id: 'edge-value', 'aria-describedby': 'edge-help' });
  const row = (id, label, control) => h('div', { class: 'vfield' }, h('label', { for: id }, label), control);
  return h('form', { class: 'filters', id: 'add-edge', 'aria-labelledby': 'add-edge-title', onsubmit: async (event) => {
    event.preventDefault();
    const kept = await loadDraft(flow);
    addTransition(draft, from.value, to.value, field.value ? { field: field.value, equals: value.value } : null);
    keepDraft(flow, { ...kept, text: JSON.stringify(draft, null, 2) });
    redraw(status(`Added: ${from.value} → ${to.value}${field.value ? ` when ${field.value} = “${value.value}”` : ''}. The editor shows it.`, 'ok'));
  } },
  h('h2', { id: 'add-edge-title', class: 'wide' }, 'Add a transition'),
  row('edge-from', 'From', from), row('edge-to', 'To', to), row('edge-field', 'When field', field), row('edge-value', 'equals', value),
  h('span', { id: 'edge-help', class: 'help' }, 'Leave “(always)” for an unconditional transition; a conditional one goes before the last “always”.'),
  h('button', { type: 'submit', class: 'primary', id: 'add-edge-submit' }, 'Add'));
}

const quote = (value) => JSON.stringify(value);

/** A predicate (DESIGN.md "Flow") in words. */
export function describe(predicate) {
  if (!predicate || typeof predicate !== 'object') return 'always';
  if (Array.isArray(predicate.all)) return predicate.all.map(describe).join(' and ');
  if (Array.isArray(predicate.any)) return `(${predicate.any.map(describe).join(' or ')})`;
  if (predicate.not) return `not (${describe(predicate.not)})`;
  if ('equals' in predicate) return `${predicate.field} = ${quote(predicate.equals)}`;
  if (Array.isArray(predicate.in)) return `${predicate.field} in ${predicate.in.map(quote).join(', ')}`;
  if ('present' in predicate) return `${predicate.field} ${predicate.present ? 'is given' : 'is empty'}`;
  return JSON.stringify(predicate);
}

/** Steps, edges, depth (from start) of each reachable step. */
export function flowGraph(flow) {
  const steps = (flow.steps || []).map((step) => step.id);
  const edges = [];
  for (const step of flow.steps || []) {
    let conditional = false;
    for (const entry of step.next || []) {
      edges.push({ from: step.id, to: entry.goto, label: entry.when ? describe(entry.when) : conditional ? 'otherwise' : 'always' });
      conditional = conditional || Boolean(entry.when);
    }
  }
  const depth = new Map([[flow.start, 0]]);
  const queue = [flow.start];
  while (queue.length) {
    const current = queue.shift();
    for (const edge of edges.filter((item) => item.from === current)) {
      if (!depth.has(edge.to)) { depth.set(edge.to, depth.get(current) + 1); queue.push(edge.to); }
    }
  }
  return { steps, edges, depth };
}

/** `/studio/flows/{id}/graph`. */
export async function graphPage(main, flow, notice = null) {
  document.title = `Graph ${flow} · Parley Studio`;
  const draft = await draftDocument(main, flow);
  if (!draft) return;
  const { steps, edges, depth } = flowGraph(draft);
  const unreachable = steps.filter((id) => !depth.has(id));
  const columns = [];
  for (const id of steps) {
    const column = depth.has(id) ? depth.get(id) : Math.max(0, ...depth.values()) + 1;
    (columns[column] = columns[column] || []).push(id);
  }
  const BOX_W = 150; const BOX_H = 44; const GAP_X = 130; const GAP_Y = 70; const PAD = 30;
  const place = new Map();
  columns.forEach((ids, column) => (ids || []).forEach((id, row) => place.set(id, { x: PAD + column * (BOX_W + GAP_X), y: PAD + row * (BOX_H + GAP_Y) })));
  const width = PAD * 2 + columns.length * (BOX_W + GAP_X);
  const height = PAD * 2 + Math.max(...columns.map((ids) => (ids || []).length), 1) * (BOX_H + GAP_Y) + 60;

  const drawing = svg('svg', { viewBox: `0 0 ${width} ${height}`, width, height, role: 'img', 'aria-labelledby': 'graph-title graph-desc', class: 'graph' },
    svg('title', { id: 'graph-title' }, `Steps of ${flow}`),
    svg('desc', { id: 'graph-desc' }, `${steps.length} steps, ${edges.length} transitions, ${unreachable.length} unreachable.`),
    svg('defs', {}, svg('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: 10, refY: 5, markerWidth: 8, markerHeight: 8, orient: 'auto-start-reverse' },
      svg('path', { d: 'M 0 0 L 10 5 L 0 10 z', class: 'arrowhead' }))));
  edges.forEach((edge, index) => {
    const from = place.get(edge.from); const to = place.get(edge.to);
    if (!from || !to) return;
    let d; let lx; let ly;
    if (to.x > from.x) { // forward: right side to left side
      const [x1, y1, x2, y2] = [from.x + BOX_W, from.y + BOX_H / 2, to.x, to.y + BOX_H / 2];
      d = `M ${x1} ${y1} C ${x1 + GAP_X / 2} ${y1}, ${x2 - GAP_X / 2} ${y2}, ${x2} ${y2}`;
      [lx, ly] = [(x1 + x2) / 2, (y1 + y2) / 2 - 6];
    } else if (to.x === from.x && to.y !== from.y) { // same column: bottom to top (or top to bottom)
      const down = to.y > from.y;
      const [x, y1, y2] = [from.x + BOX_W / 2, down ? from.y + BOX_H : from.y, down ? to.y : to.y + BOX_H];
      d = `M ${x} ${y1} L ${x} ${y2}`;
      [lx, ly] = [x + 8, (y1 + y2) / 2 + 4];
    } else { // backward or to itself: a loop under both boxes
      const [x1, y1, x2, y2] = [from.x + BOX_W / 2, from.y + BOX_H, to.x + BOX_W / 2, to.y + BOX_H];
      const below = Math.max(y1, y2) + 40 + (index % 3) * 12;
      d = `M ${x1} ${y1} C ${x1} ${below}, ${x2} ${below}, ${x2} ${y2}`;
      [lx, ly] = [(x1 + x2) / 2, below - 4];
    }
    drawing.append(svg('path', { d, class: 'edge', 'marker-end': 'url(#arrow)' }));
    drawing.append(svg('text', { x: lx, y: ly, class: 'edge-label', 'text-anchor': to.x === from.x && to.y !== from.y ? 'start' : 'middle' }, edge.label));
  });
  for (const id of steps) {
    const { x, y } = place.get(id);
    const lost = !depth.has(id);
    drawing.append(svg('g', { class: `node${lost ? ' unreachable' : ''}${id === draft.start ? ' start' : ''}` },
      svg('rect', { x, y, width: BOX_W, height: BOX_H, rx: 8 }),
      svg('text', { x: x + BOX_W / 2, y: y + BOX_H / 2 + 5, 'text-anchor': 'middle' }, id),
      lost ? svg('text', { x: x + BOX_W / 2, y: y + BOX_H + 16, 'text-anchor': 'middle', class: 'lost-label' }, 'unreachable') : null));
  }

  fill(main,
    h('h1', {}, `Graph of ${flow}`),
    notice,
    unreachable.length ? h('p', { class: 'notice warn', role: 'status' }, `Unreachable: ${unreachable.join(', ')}`) : null,
    h('div', { class: 'graph-scroll' }, drawing),
    h('table', { class: 'data', id: 'edges' }, h('caption', {}, 'Transitions, in the order the server tries them'),
      h('thead', {}, h('tr', {}, ['From', 'To', 'When'].map((name) => h('th', { scope: 'col' }, name)))),
      h('tbody', {}, edges.map((edge) => h('tr', {}, h('td', {}, edge.from), h('td', {}, edge.to), h('td', {}, edge.label))))),
    transitionForm(flow, draft, (message) => graphPage(main, flow, message)));
}
