// Try it: walk the draft as a user of one core would. Each answer is checked by the server's
// interpreter (the preview endpoint with answers), errors appear under their fields, and the
// next step is the one the flow's `next` chooses on the server. As answers change, the same
// interpreter says which fields show and what recalled texts read (DESIGN.md "Expressions").
import { CORES, shortCore } from './api.js';
import { fill, h, status } from './dom.js';
import { draftDocument, lintRefusal } from './preview.js';
import { applyEvaluation, collectAnswers, renderScreen } from './render.js';
import { previewStep } from './studio-core.js';

/** How long typing pauses before the draft is evaluated again. */
const SETTLE_MS = 150;

/** `/studio/flows/{id}/try`. */
export async function tryPage(main, flow) {
  document.title = `Try ${flow} · Parley Studio`;
  const draft = await draftDocument(main, flow);
  if (!draft) return;
  const core = h('select', { id: 'core', name: 'core' }, CORES.map((value) => h('option', { value }, `Core ${shortCore(value)}`)));
  const remembered = sessionStorage.getItem('parley.try.core');
  core.value = CORES.includes(remembered) ? remembered : CORES[CORES.length - 1];
  const stage = h('div', { id: 'stage', class: 'try-stage' });
  const trail = h('ol', { id: 'path', class: 'path', 'aria-label': 'Steps answered' });
  let walk = { step: draft.start, context: {}, path: [] };
  let shownSequence = 0;

  const show = async (errors = [], values = {}) => {
    const mine = ++shownSequence;
    let preview;
    try {
      // With the path so far as context, the step is served as a session would serve it, and the
      // evaluation says what the current answers show.
      preview = await previewStep(draft, walk.step, { core: core.value, answers: values, context: walk.context });
    } catch (error) {
      return lintRefusal(main, flow, error);
    }
    if (mine !== shownSequence) return;
    const served = preview.cores[0];
    const { element, fields } = renderScreen(served.screen, { scope: 'try', interactive: true, values });
    applyEvaluation(element, preview.evaluation);
    for (const error of errors) {
      const slot = element.querySelector(`.field-error[data-field="${CSS.escape(error.field)}"]`);
      if (slot) {
        slot.textContent = error.message || `Fails the ${error.rule} rule.`;
        slot.closest('.field').classList.add('invalid');
        const control = fields.find((item) => item.field === error.field);
        if (control) control.control.setAttribute('aria-invalid', 'true');
      }
    }
    if (!element.querySelector('button[type="submit"]')) element.append(h('button', { type: 'submit', class: 'primary' }, 'Continue'));
    const form = h('form', { class: 'device', novalidate: true, 'aria-label': `Step ${walk.step}`, 'data-core': served.core }, element);
    let timer = null;
    let asked = 0;
    const reevaluate = () => {
      clearTimeout(timer);
      timer = setTimeout(async () => {
        const sequence = ++asked;
        const answers = collectAnswers(fields);
        const { evaluation } = await previewStep(draft, walk.step, { core: core.value, answers, context: walk.context });
        if (sequence === asked && form.isConnected) {
          applyEvaluation(element, evaluation);
          form.dataset.evaluated = String(sequence);
        }
      }, SETTLE_MS);
    };
    form.addEventListener('input', reevaluate);
    form.addEventListener('change', reevaluate);
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      clearTimeout(timer);
      const answers = collectAnswers(fields);
      const { outcome } = await previewStep(draft, walk.step, { core: core.value, answers, context: walk.context });
      if (!outcome.valid) return show(outcome.errors, answers);
      // What the interpreter cleared (hidden fields) never joins the path, as in a session.
      const kept = { ...answers };
      for (const field of outcome.cleared || []) delete kept[field];
      walk = { step: outcome.next, context: { ...walk.context, ...kept }, path: [...walk.path, walk.step] };
      fill(trail, ...walk.path.map((id) => h('li', {}, id)));
      if (!walk.step) {
        fill(stage, status(`Done: the flow ends after “${walk.path[walk.path.length - 1]}”. The server accepted every answer.`, 'ok'));
        return;
      }
      await show();
    });
    const note = served.served === 'step' ? null : status('This core gets the upgrade screen for this step.', 'warn');
    const problems = errors.length ? status(`${errors.length} answer${errors.length === 1 ? '' : 's'} need${errors.length === 1 ? 's' : ''} attention.`, 'error') : null;
    fill(stage, ...[h('h2', { class: 'current', id: 'current-step' }, `Step “${walk.step}”`), note, problems, form].filter(Boolean));
    if (errors.length === 0) form.querySelector('input, select, button')?.focus();
  };
  const restart = () => {
    walk = { step: draft.start, context: {}, path: [] };
    trail.replaceChildren();
    show();
  };
  core.addEventListener('change', () => { sessionStorage.setItem('parley.try.core', core.value); restart(); });

  fill(main,
    h('h1', {}, `Try ${flow}`),
    h('div', { class: 'field inline' }, h('label', { for: 'core' }, 'Client core'), core,
      h('button', { type: 'button', id: 'restart', onclick: restart }, 'Start again'),
      h('span', { class: 'help' }, 'Answers are checked by the server; nothing is stored.')),
    h('div', { class: 'try-grid' }, stage, h('aside', { 'aria-labelledby': 'path-title' }, h('h2', { id: 'path-title' }, 'Path so far'), trail)));
  await show();
}
