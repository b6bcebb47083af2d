// Validation rules of an input (DESIGN.md "Rule interpreter"): add, edit, order and delete,
// each with its message and the parameters its kind takes.
import { h } from './dom.js';
import { action, localizedInput, selectInput, textInput } from './fields.js';
import { moveIn } from './flowops.js';
import { predicateEditor } from './predicate.js';

/** Parameters per rule kind: [member, label, kind of value]. */
const PARAMETERS = {
  minLength: [['value', 'Least characters', 'number']], maxLength: [['value', 'Most characters', 'number']],
  pattern: [['value', 'Pattern (I-Regexp, whole value)', 'text']], oneOf: [['values', 'Allowed values (comma-separated)', 'list']],
  equalsField: [['field', 'Same as field', 'text']], minimum: [['value', 'Minimum', 'number']], maximum: [['value', 'Maximum', 'number']],
  exclusiveMinimum: [['value', 'Greater than', 'number']], exclusiveMaximum: [['value', 'Less than', 'number']],
  multipleOf: [['value', 'Multiple of', 'number']], date: [['min', 'Earliest (YYYY-MM-DD)', 'optional'], ['max', 'Latest (YYYY-MM-DD)', 'optional']],
};
const DEFAULTS = { minLength: { value: 1 }, maxLength: { value: 100 }, pattern: { value: '.*' }, oneOf: { values: [] },
  equalsField: { field: '' }, minimum: { value: 0 }, maximum: { value: 100 }, exclusiveMinimum: { value: 0 },
  exclusiveMaximum: { value: 100 }, multipleOf: { value: 1 }, requiredIf: { when: { field: '', present: true } } };

/** One parameter's control. */
function parameter(key, rule, [member, label, kind], set) {
  const shown = kind === 'list' ? (rule[member] || []).join(', ') : rule[member] ?? '';
  return textInput({ key: `${key}/${member}`, label, value: shown, onChange: (text) => {
    const next = { ...rule };
    if (kind === 'number') next[member] = text.trim() === '' || Number.isNaN(Number(text)) ? text : Number(text);
    else if (kind === 'list') next[member] = text.split(',').map((item) => item.trim()).filter(Boolean);
    else if (kind === 'optional' && !text.trim()) delete next[member];
    else next[member] = text;
    set(next);
  } });
}

/** The rules editor for the input `properties` (changed in place by `commit(mutate)`). */
export function rulesEditor({ key, properties, kinds, locales, fields, commit }) {
  const rules = Array.isArray(properties.validation) ? properties.validation : null;
  if (properties.validation && !rules) {
    return h('section', { class: 'rules' }, h('h4', {}, 'Rules'),
      h('p', {}, 'These rules use the short form.'),
      action(`${key}/expand`, 'Edit as a list of rules', () => commit((p) => { p.validation = Object.entries(p.validation)
        .filter(([name]) => name !== 'message').map(([name, value]) => ({ rule: name, ...(value === true ? {} : { value }), ...(p.validation.message ? { message: p.validation.message } : {}) })); })));
  }
  const list = rules || [];
  const replace = (index, next) => commit((p) => { p.validation[index] = next; });
  const items = list.map((rule, index) => {
    const base = `${key}/${index}`;
    const params = (PARAMETERS[rule.rule] || []).map((spec) => parameter(base, rule, spec, (next) => replace(index, next)));
    const when = rule.rule === 'requiredIf' ? predicateEditor({ key: `${base}/when`, predicate: rule.when || {}, fields, label: 'Required when',
      set: (next) => replace(index, { ...rule, when: next }) }) : null;
    return h('li', { class: 'rule' },
      h('div', { class: 'rule-row' },
        selectInput({ key: `${base}/kind`, label: `Rule ${index + 1}`, value: rule.rule, options: kinds.map((kind) => [kind, kind]),
          onChange: (kind) => replace(index, { rule: kind, ...(DEFAULTS[kind] || {}), ...(rule.message ? { message: rule.message } : {}) }) }),
        params, when,
        localizedInput({ key: `${base}/message`, label: 'Message when it fails', value: rule.message, locales,
          onChange: (message) => replace(index, { ...rule, message }) })),
      h('div', { class: 'row-actions' },
        action(`${base}/up`, `Move rule ${index + 1} up`, () => commit((p) => moveIn(p.validation, index, -1)), { disabled: index === 0 }),
        action(`${base}/down`, `Move rule ${index + 1} down`, () => commit((p) => moveIn(p.validation, index, 1)), { disabled: index === list.length - 1 }),
        action(`${base}/delete`, `Delete rule ${index + 1}`, () => commit((p) => { p.validation.splice(index, 1); if (!p.validation.length) delete p.validation; }))));
  });
  return h('section', { class: 'rules', 'aria-labelledby': `${key}-title`.replace(/[^A-Za-z0-9_-]+/g, '-') },
    h('h4', { id: `${key}-title`.replace(/[^A-Za-z0-9_-]+/g, '-') }, 'Rules'),
    items.length ? h('ol', { class: 'rule-list' }, items) : h('p', { class: 'help' }, 'No rules: any answer passes.'),
    action(`${key}/add`, 'Add a rule', () => commit((p) => { p.validation = [...(p.validation || []), { rule: 'required', message: 'This is required.' }]; })));
}
