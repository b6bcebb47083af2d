// The steps of a flow in the visual editor: select, add, rename (references follow), reorder,
// set the start step, delete (after listing what would break).
import { h } from './dom.js';
import { action, textInput } from './fields.js';
import { addStep, deleteConsequences, deleteStep, moveStep, renameStep } from './flowops.js';
import { confirmDialog } from './confirm.js';

/** The steps panel; `select(stepId)` changes the selection, `apply(mutate)` edits the draft. */
export function stepsPanel({ flow, selected, select, apply }) {
  const steps = flow.steps || [];
  const index = steps.findIndex((step) => step.id === selected);
  const rows = steps.map((step) => h('li', {},
    h('button', { type: 'button', class: 'step-pick', id: `ve-pick-step-${step.id}`.replace(/[^A-Za-z0-9_-]+/g, '-'),
      'aria-pressed': String(step.id === selected), onclick: () => select(step.id) },
    step.id, step.id === flow.start ? h('span', { class: 'chip' }, 'start') : null)));
  const current = steps[index];
  return h('section', { class: 'steps-panel', 'aria-labelledby': 'steps-title' },
    h('h3', { id: 'steps-title' }, 'Steps'),
    h('ol', { class: 'step-list', id: 'step-list' }, rows),
    action('step/add', 'Add a step', () => { let id; apply((draft) => { id = addStep(draft); }); select(id); }),
    current ? h('div', { class: 'step-actions', role: 'group', 'aria-label': `Step ${current.id}` },
      textInput({ key: 'step/rename', label: 'Step id', value: current.id, required: true, help: 'Renaming updates the start and every transition to it.',
        onChange: (to) => {
          const name = to.trim();
          if (!name || steps.some((step) => step.id === name)) return select(current.id, `“${name}” is empty or already a step id.`);
          apply((draft) => renameStep(draft, current.id, name));
          select(name);
        } }),
      action('step/up', 'Move step up', () => apply((draft) => moveStep(draft, current.id, -1)), { disabled: index === 0 }),
      action('step/down', 'Move step down', () => apply((draft) => moveStep(draft, current.id, 1)), { disabled: index === steps.length - 1 }),
      action('step/start', 'Make it the start step', () => apply((draft) => { draft.start = current.id; }), { disabled: flow.start === current.id }),
      action('step/delete', 'Delete step…', async () => {
        const ok = await confirmDialog(`Delete step “${current.id}”?`, deleteConsequences(flow, current.id), 'Delete the step');
        if (!ok) return;
        apply((draft) => deleteStep(draft, current.id));
        const rest = steps.filter((step) => step.id !== current.id);
        select(rest.length ? rest[Math.max(0, index - 1)].id : null);
      })) : null);
}
