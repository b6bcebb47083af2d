// The property panel of one node: what its type takes (from the server's capability registry),
// texts per locale, options, `sensitive`, rules, its fallback, and the place for `visibleWhen`.
import { h } from './dom.js';
import { action, checkbox, localizedInput, selectInput, textInput } from './fields.js';
import { predicateEditor } from './predicate.js';
import { rulesEditor } from './rules.js';

const TEXTS = new Set(['text', 'title', 'subtitle', 'label', 'placeholder', 'alt']);
const FLAGS = new Set(['sensitive', 'decorative', 'markdown']);
const TOKENS = {
  spacing: ['none', 'xs', 's', 'm', 'l', 'xl'], alignment: ['start', 'center', 'end'],
  style: ['body', 'title', 'headline', 'caption'],
};
const ACTIONS = [['submit', 'Submit the step'], ['openUrl', 'Open a web page'], ['subscribe', 'Subscribe to a channel'], ['network', 'Network request']];

/** A property's control. */
function control(key, name, properties, locales, set) {
  const value = properties[name];
  if (TEXTS.has(name)) return localizedInput({ key, label: name, value, locales, onChange: set });
  if (FLAGS.has(name)) return checkbox({ key, label: name, checked: value, onChange: (on) => set(on || undefined) });
  if (TOKENS[name]) {
    return selectInput({ key, label: name, value: value ?? '', options: [['', '(default)'], ...TOKENS[name].map((token) => [token, token])], onChange: (next) => set(next || undefined) });
  }
  if (name === 'options') {
    const id = `ve-${key.replace(/[^A-Za-z0-9_-]+/g, '-')}`;
    return h('div', { class: 'vfield' }, h('label', { for: id }, 'options (one per line)'),
      h('textarea', { id, rows: 4, value: (value || []).join('\n'),
        onchange: (event) => set(event.target.value.split('\n').map((line) => line.trim()).filter(Boolean)) }));
  }
  if (name === 'action') {
    const current = value || { type: 'submit' };
    return h('div', { class: 'action-editor' },
      selectInput({ key: `${key}/type`, label: 'action', value: current.type, options: ACTIONS, onChange: (type) => set(type === 'openUrl' ? { type, url: 'https://' } : type === 'subscribe' ? { type, channel: '' } : type === 'network' ? { type, request: { method: 'POST', path: '' } } : { type }) }),
      current.type === 'openUrl' ? textInput({ key: `${key}/url`, label: 'Web address (https)', value: current.url, onChange: (url) => set({ ...current, url }) }) : null,
      current.type === 'subscribe' ? textInput({ key: `${key}/channel`, label: 'Channel', value: current.channel, onChange: (channel) => set({ ...current, channel }) }) : null);
  }
  const numeric = name === 'aspectRatio' || name === 'columns';
  return textInput({ key, label: name, value: value ?? '', onChange: (text) => set(text === '' ? undefined : numeric && !Number.isNaN(Number(text)) ? Number(text) : text) });
}

/**
 * The panel for `node` at `key`. `component` is the server's registry entry for its type (or
 * undefined for an unknown type), `commit(mutate)` applies `mutate(node)` to a copy of the draft.
 */
export function propertyPanel({ key, node, component, registry, locales, fields, commit, onFallback, oldest }) {
  const properties = node.properties || {};
  const names = component ? component.properties.map((property) => property.name) : Object.keys(properties);
  if (node.type === 'image' && !names.includes('decorative')) names.push('decorative');
  const setProperty = (name) => (value) => commit((target) => {
    target.properties = target.properties || {};
    if (value === undefined || (Array.isArray(value) && !value.length && name !== 'options')) delete target.properties[name];
    else target.properties[name] = value;
  });
  const editable = names.filter((name) => name !== 'validation' && name !== 'fieldId');
  const needsFallback = component && component.introduced !== oldest;
  return h('section', { class: 'props', 'aria-labelledby': 'props-title' },
    h('h3', { id: 'props-title' }, `${node.type} “${node.id}”`),
    component ? h('p', { class: 'help' }, `Since core ${component.introduced}.`,
      needsFallback ? ` Cores before ${component.introduced} need a fallback (or skip it when it is decorative).` : '') : h('p', { class: 'notice warn' }, 'Unknown component type.'),
    textInput({ key: `${key}/id`, label: 'Node id', value: node.id, onChange: (id) => commit((target) => { target.id = id; }) }),
    names.includes('fieldId') ? textInput({ key: `${key}/fieldId`, label: 'Field id (the answer’s name)', value: properties.fieldId, onChange: setProperty('fieldId') }) : null,
    editable.map((name) => control(`${key}/${name}`, name, properties, locales, setProperty(name))),
    names.includes('validation') ? rulesEditor({ key: `${key}/rules`, properties, kinds: registry.rules.map((rule) => rule.rule), locales, fields,
      commit: (mutate) => commit((target) => { target.properties = target.properties || {}; mutate(target.properties); }) }) : null,
    fallbackSection(key, node, registry, commit, onFallback),
    h('section', { class: 'visible-when', 'aria-labelledby': `${key}-vw`.replace(/[^A-Za-z0-9_-]+/g, '-') },
      h('h4', { id: `${key}-vw`.replace(/[^A-Za-z0-9_-]+/g, '-') }, 'Visible when'),
      (registry.expressions || []).some((entry) => entry.name === 'visibleWhen')
        ? (node.visibleWhen
          ? [predicateEditor({ key: `${key}/visibleWhen`, predicate: node.visibleWhen, fields, label: 'Show only when', set: (next) => commit((target) => { target.visibleWhen = next; }) }),
            action(`${key}/visibleWhen/remove`, 'Always show', () => commit((target) => { delete target.visibleWhen; }))]
          : action(`${key}/visibleWhen/add`, 'Show only when…', () => commit((target) => { target.visibleWhen = { field: fields[0] || '', present: true }; })))
        : h('p', { class: 'help' }, 'Always shown. Conditions on nodes arrive with expressions (visibleWhen).')));
}

function fallbackSection(key, node, registry, commit, onFallback) {
  const types = registry.components.filter((entry) => !entry.container || entry.type === 'vstack').map((entry) => [entry.type, `${entry.type} (core ${entry.introduced})`]);
  let chosen = node.fallback ? node.fallback.type : 'picker';
  return h('section', { class: 'fallback', 'aria-labelledby': `${key}-fb`.replace(/[^A-Za-z0-9_-]+/g, '-') },
    h('h4', { id: `${key}-fb`.replace(/[^A-Za-z0-9_-]+/g, '-') }, 'Fallback'),
    node.fallback
      ? [h('p', {}, `Older cores get a ${node.fallback.type} (“${node.fallback.id}”).`),
        action(`${key}/fallback/edit`, 'Edit the fallback', onFallback),
        action(`${key}/fallback/remove`, 'Remove the fallback', () => commit((target) => { delete target.fallback; }))]
      : [selectInput({ key: `${key}/fallback/type`, label: 'Fallback type', value: chosen, options: types, onChange: (type) => { chosen = type; } }),
        action(`${key}/fallback/add`, 'Add a fallback', () => commit((target) => {
          const properties = {};
          const entry = registry.components.find((item) => item.type === chosen);
          if (entry && entry.input && target.properties && target.properties.fieldId) properties.fieldId = target.properties.fieldId;
          for (const name of ['label', 'options', 'title', 'action']) {
            if (entry && entry.properties.some((p) => p.name === name) && target.properties && name in target.properties) properties[name] = target.properties[name];
          }
          target.fallback = { type: chosen, id: `${target.id}-fallback`, properties };
        }))]);
}
