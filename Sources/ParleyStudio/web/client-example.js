// The web client kit's example page (docs/webassembly.md): one Parley session rendered as accessible
// HTML with parley-client.mjs and ParleyCore in WebAssembly. `?flow=passport-intake` (default) picks
// the flow; the session survives a reload (its id is kept in sessionStorage) and a server restart
// (the kit retries). Every field has a label; an error is tied to its field by aria-describedby and
// aria-invalid; after a refused submit focus moves to the first field in error, after a new step
// to the step's heading.
import { loadParleyCore } from './parley-core.mjs';
import { ParleyClient } from './parley-client.mjs';

const params = new URLSearchParams(window.location.search);
const FLOW = params.get('flow') || 'passport-intake';
const title = document.getElementById('title');
const form = document.getElementById('screen');
const connection = document.getElementById('connection');

/** Builds an element: h('p', {class: 'x'}, 'text', child…). */
function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === false || value === null || value === undefined) continue;
    element.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children.flat()) if (child !== null && child !== undefined) element.append(child);
  return element;
}

const text = (value) => (typeof value === 'string' ? value : '');
const requiredBy = (p) => (p.validation || []).some((rule) => rule.rule === 'required');

/** The inputs of the rendered screen: field id → {kind, control, error}. */
let fields = new Map();
/** The fields the user has changed on this screen (their local errors show as they type). */
const touched = new Set();

/** One node of a gated screen (docs/wire-format.md) as HTML. */
function node(component) {
  const p = component.properties || {};
  const children = () => (component.children || []).map(node);
  switch (component.type) {
    case 'vstack': case 'carousel': case 'grid': return h('div', { class: 'stack' }, children());
    case 'hstack': return h('div', { class: 'stack-h' }, children());
    case 'text': return h('p', { id: `n-${component.id}` }, text(p.text));
    case 'image': return p.url ? h('img', { src: p.url, alt: text(p.alt) }) : null;
    case 'card': return h('section', { class: 'card', 'aria-label': text(p.title) || null },
      p.title ? h('h2', {}, text(p.title)) : null, p.subtitle ? h('p', {}, text(p.subtitle)) : null, children());
    case 'divider': return h('hr');
    case 'button': return p.action && p.action.type === 'submit' ? h('div', { class: 'actions' },
      h('button', { type: 'submit', id: `n-${component.id}` }, text(p.title) || 'Continue')) : null;
    case 'textField': case 'datePicker': return input(component, p, component.type === 'datePicker' ? 'date' : 'text');
    case 'toggle': return toggle(component, p);
    case 'picker': return picker(component, p);
    case 'quickReplies': return choices(component, p);
    default: return null; // spacer, or a type this page does not draw (gating already served a fallback)
  }
}

/** The error paragraph of `field`, which its control names in aria-describedby. */
function errorFor(field) {
  return h('p', { class: 'error', id: `error-${field}` });
}

function register(field, kind, control, error) {
  fields.set(field, { kind, control, error });
}

function input(component, p, type) {
  const id = `field-${p.fieldId}`;
  const error = errorFor(p.fieldId);
  const control = h('input', {
    id, name: p.fieldId, type, placeholder: text(p.placeholder) || null, 'aria-describedby': error.id,
    'aria-required': requiredBy(p) ? 'true' : null, autocomplete: p.sensitive ? 'off' : null,
  });
  register(p.fieldId, 'text', control, error);
  return h('div', { class: 'field' }, h('label', { for: id }, text(p.label) || p.fieldId), control, error);
}

function toggle(component, p) {
  const id = `field-${p.fieldId}`;
  const error = errorFor(p.fieldId);
  const control = h('input', { id, name: p.fieldId, type: 'checkbox', 'aria-describedby': error.id });
  register(p.fieldId, 'toggle', control, error);
  return h('div', { class: 'field' }, h('label', { for: id }, control, ' ', text(p.label) || p.fieldId), error);
}

function picker(component, p) {
  const id = `field-${p.fieldId}`;
  const error = errorFor(p.fieldId);
  const control = h('select', { id, name: p.fieldId, 'aria-describedby': error.id,
    'aria-required': requiredBy(p) ? 'true' : null },
  h('option', { value: '' }, 'Choose…'), (p.options || []).map((option) => h('option', { value: option }, option)));
  register(p.fieldId, 'text', control, error);
  return h('div', { class: 'field' }, h('label', { for: id }, text(p.label) || p.fieldId), control, error);
}

function choices(component, p) {
  const error = errorFor(p.fieldId);
  const group = h('fieldset', { class: 'field', 'aria-describedby': error.id },
    h('legend', {}, text(p.label) || p.fieldId),
    (p.options || []).map((option, index) => {
      const id = `field-${p.fieldId}-${index}`;
      return h('label', { for: id }, h('input', { id, type: 'radio', name: p.fieldId, value: option }), ' ', option);
    }), error);
  register(p.fieldId, 'radio', group, error);
  return group;
}

/** The answers the form holds now: field id → string (a toggle "true"/"false"; untouched: absent). */
function answers() {
  const result = {};
  for (const [field, { kind, control }] of fields) {
    if (kind === 'toggle') result[field] = control.checked ? 'true' : 'false';
    else if (kind === 'radio') {
      const checked = control.querySelector('input:checked');
      if (checked) result[field] = checked.value;
    } else if (control.value !== '') result[field] = control.value;
  }
  return result;
}

/** Shows `errors` ([{field, message}]) at their fields; only those of `touched` fields unless `all`. */
function showErrors(errors, { all = true, touched = new Set() } = {}) {
  const byField = new Map();
  for (const error of errors) if (!byField.has(error.field)) byField.set(error.field, error.message || error.rule);
  for (const [field, { control, error }] of fields) {
    const message = all || touched.has(field) ? byField.get(field) : undefined;
    error.textContent = message || '';
    if (message) control.setAttribute('aria-invalid', 'true');
    else control.removeAttribute('aria-invalid');
  }
  return [...fields.keys()].find((field) => byField.has(field));
}

function focusField(field) {
  const entry = fields.get(field);
  if (!entry) return;
  (entry.kind === 'radio' ? entry.control.querySelector('input') : entry.control).focus();
}

/** Which screen is drawn: a snapshot that only adds messages leaves the form (and what the user
 *  is typing, and focus) alone. */
let drawn = '';

/** Renders a snapshot: the step's screen, its prefilled values, or the end of the session. */
function render(client, snapshot) {
  form.dataset.rev = String(snapshot.rev);
  renderMessages(snapshot.messages || []);
  const screenKey = `${snapshot.session} ${snapshot.step} ${snapshot.status} ${(snapshot.path || []).length}`;
  if (screenKey === drawn) return;
  drawn = screenKey;
  touched.clear();
  form.dataset.step = snapshot.step;
  form.dataset.status = snapshot.status;
  fields = new Map();
  if (snapshot.status !== 'active') {
    title.textContent = snapshot.status === 'completed' ? 'Thank you: we have your answers' : 'This session has expired';
    form.replaceChildren();
    title.focus();
    return;
  }
  const screen = (snapshot.screen && snapshot.screen.screen) || {}; // the gated response's screen
  title.textContent = text(screen.title) || snapshot.step;
  form.replaceChildren(node(screen.root || {}) || '');
  for (const [field, value] of Object.entries(snapshot.values || {})) {
    const entry = fields.get(field);
    if (!entry || value === null) continue;
    if (entry.kind === 'toggle') entry.control.checked = value === 'true';
    else if (entry.kind === 'radio') {
      const option = [...entry.control.querySelectorAll('input')].find((radio) => radio.value === value);
      if (option) option.checked = true;
    } else entry.control.value = value;
  }
  if ((snapshot.path || []).length > 0) {
    const back = h('button', { type: 'button', class: 'secondary', id: 'back' }, 'Back');
    back.addEventListener('click', () => act(client, () => client.back()));
    form.append(h('div', { class: 'actions' }, back));
  }
  title.focus();
}

function renderMessages(messages) {
  const box = document.getElementById('messages-box');
  const list = document.getElementById('messages');
  box.hidden = messages.length === 0;
  if (list.children.length === messages.length) return;
  list.replaceChildren(...messages.map((message) => h('li', { 'data-rev': message.rev },
    h('strong', {}, `${message.from}: `), message.text)));
}

/** Runs a step action, saying what happens while the server is away. */
async function act(client, action) {
  connection.textContent = 'Sending…';
  try {
    const result = await action();
    connection.textContent = result.local ? 'Checked on this device; nothing was sent.' : '';
    if (!result.ok && result.errors && result.errors.length) {
      const first = showErrors(result.errors);
      if (first) focusField(first);
    } else if (result.conflict) {
      connection.textContent = 'The session moved on elsewhere; this is where it is now.';
    }
  } catch (error) {
    connection.textContent = `Could not reach the server: ${error.message}. Your answers are still here; try again.`;
  }
}

async function main() {
  const core = await loadParleyCore('/studio/assets/parley-core.wasm').catch(() => null);
  document.documentElement.dataset.core = core ? core.version : 'server';
  const client = new ParleyClient({ core });
  client.onSnapshot((snapshot) => render(client, snapshot));
  form.addEventListener('input', (event) => {
    if (event.target.name) touched.add(event.target.name);
    const local = client.validate(answers());
    if (local) showErrors(local.errors, { all: false, touched });
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    act(client, () => client.answer(answers()));
  });
  try {
    (await client.resume()) ?? (await client.start(FLOW));
  } catch (error) {
    title.textContent = 'The session could not start';
    connection.textContent = error.message;
    return;
  }
  client.follow();
  document.documentElement.dataset.ready = 'true';
}

main();
