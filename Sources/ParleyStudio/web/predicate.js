// The condition builder (DESIGN.md "Flow" predicates): field, operator and value, combined with
// all / any / not. Used for transitions and, once expressions land, a node's `visibleWhen`.
import { h } from './dom.js';
import { action, selectInput, textInput } from './fields.js';

const KINDS = [['equals', 'equals'], ['in', 'is one of'], ['present', 'is given'], ['absent', 'is empty'],
  ['all', 'all of'], ['any', 'any of'], ['not', 'not']];

/** The kind of a predicate, as the builder names it. */
export function kindOf(predicate) {
  if (Array.isArray(predicate.all)) return 'all';
  if (Array.isArray(predicate.any)) return 'any';
  if (predicate.not) return 'not';
  if (Array.isArray(predicate.in)) return 'in';
  if ('present' in predicate) return predicate.present ? 'present' : 'absent';
  return 'equals';
}

/** A predicate of `kind`, keeping the field (and value) of `from` where it can. */
function convert(from, kind, fields) {
  const field = from.field || (fields[0] || '');
  const value = 'equals' in from ? from.equals : Array.isArray(from.in) ? from.in[0] || '' : '';
  switch (kind) {
    case 'all': case 'any': return { [kind]: [from.field ? from : { field, equals: '' }] };
    case 'not': return { not: from.field ? from : { field, equals: '' } };
    case 'in': return { field, in: value ? [value] : [] };
    case 'present': return { field, present: true };
    case 'absent': return { field, present: false };
    default: return { field, equals: value };
  }
}

/** The builder for `predicate`; `set(next)` commits a new predicate. `key` keeps ids stable. */
export function predicateEditor({ key, predicate, fields, set, label = 'Condition' }) {
  const kind = kindOf(predicate);
  const head = selectInput({ key: `${key}/kind`, label, value: kind, options: KINDS, onChange: (next) => set(convert(predicate, next, fields)) });
  if (kind === 'all' || kind === 'any') {
    const parts = predicate[kind];
    return h('div', { class: 'predicate group', role: 'group', 'aria-label': `${label}: ${kind} of` }, head,
      h('ol', {}, parts.map((part, index) => h('li', {},
        predicateEditor({ key: `${key}/${index}`, predicate: part, fields, label: `Part ${index + 1}`,
          set: (next) => set({ [kind]: parts.map((item, at) => (at === index ? next : item)) }) }),
        parts.length > 1 ? action(`${key}/${index}/remove`, `Remove part ${index + 1}`,
          () => set({ [kind]: parts.filter((_, at) => at !== index) })) : null))),
      action(`${key}/add`, 'Add a part', () => set({ [kind]: [...parts, { field: fields[0] || '', equals: '' }] })));
  }
  if (kind === 'not') {
    return h('div', { class: 'predicate group', role: 'group', 'aria-label': `${label}: not` }, head,
      predicateEditor({ key: `${key}/not`, predicate: predicate.not, fields, label: 'Negated condition', set: (next) => set({ not: next }) }));
  }
  const fieldOptions = [...new Set([...fields, predicate.field].filter(Boolean))].map((name) => [name, name]);
  const field = selectInput({ key: `${key}/field`, label: 'Field', value: predicate.field, options: fieldOptions,
    onChange: (next) => set({ ...predicate, field: next }) });
  let value = null;
  if (kind === 'equals') {
    value = textInput({ key: `${key}/value`, label: 'Value', value: predicate.equals, onChange: (next) => set({ ...predicate, equals: next }) });
  } else if (kind === 'in') {
    value = textInput({ key: `${key}/values`, label: 'Values (comma-separated)', value: predicate.in.join(', '),
      onChange: (next) => set({ ...predicate, in: next.split(',').map((item) => item.trim()).filter(Boolean) }) });
  }
  return h('div', { class: 'predicate', role: 'group', 'aria-label': label }, head, field, value);
}
