// A step's transitions (`next`, tried in order; the first whose condition holds wins): target,
// an optional condition from the builder, order, delete, add.
import { h } from './dom.js';
import { action, checkbox, selectInput } from './fields.js';
import { fieldsOf, moveIn } from './flowops.js';
import { predicateEditor } from './predicate.js';

export function transitionsEditor({ flow, step, apply }) {
  const next = step.next || [];
  const targets = (flow.steps || []).map((item) => [item.id, item.id]);
  const fields = fieldsOf(flow).map((item) => item.field);
  const edit = (mutate) => apply((draft) => mutate(draft.steps.find((item) => item.id === step.id)));
  const rows = next.map((entry, index) => {
    const key = `next/${step.id}/${index}`;
    return h('li', { class: 'transition' },
      selectInput({ key: `${key}/goto`, label: `Transition ${index + 1}: go to`, value: entry.goto, options: targets,
        onChange: (goto) => edit((draft) => { draft.next[index].goto = goto; }) }),
      checkbox({ key: `${key}/conditional`, label: 'Only when a condition holds', checked: Boolean(entry.when), onChange: (on) => edit((draft) => {
        if (on) draft.next[index] = { when: { field: fields[0] || '', equals: '' }, goto: entry.goto };
        else delete draft.next[index].when;
      }) }),
      entry.when ? predicateEditor({ key: `${key}/when`, predicate: entry.when, fields, label: 'Condition',
        set: (when) => edit((draft) => { draft.next[index] = { when, goto: entry.goto }; }) }) : null,
      h('div', { class: 'row-actions' },
        action(`${key}/up`, `Move transition ${index + 1} up`, () => edit((draft) => moveIn(draft.next, index, -1)), { disabled: index === 0 }),
        action(`${key}/down`, `Move transition ${index + 1} down`, () => edit((draft) => moveIn(draft.next, index, 1)), { disabled: index === next.length - 1 }),
        action(`${key}/delete`, `Delete transition ${index + 1}`, () => edit((draft) => { draft.next.splice(index, 1); }))));
  });
  return h('section', { class: 'transitions', 'aria-labelledby': 'transitions-title' },
    h('h3', { id: 'transitions-title' }, `After “${step.id}”`),
    rows.length ? h('ol', { class: 'transition-list' }, rows) : h('p', { class: 'help' }, 'No transitions: the flow ends after this step.'),
    targets.length ? action(`next/${step.id}/add`, 'Add a transition', () => edit((draft) => {
      draft.next = draft.next || [];
      draft.next.push({ goto: (flow.steps.find((item) => item.id !== step.id) || step).id });
    })) : null);
}
