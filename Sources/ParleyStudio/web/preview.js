// Preview: one step of the draft rendered for every supported core side by side, each with what
// gating did (substituted, dropped, upgrade screen) and the rules the core defers to the server.
import { ApiError, shortCore } from './api.js';
import { fill, h, status } from './dom.js';
import { loadDraft, parseDraft } from './draft.js';
import { applyEvaluation, collectAnswers, renderScreen } from './render.js';
import { previewStep } from './studio-core.js';

const SERVED = {
  step: 'Serves the step.', upgrade: 'Serves the flow’s upgrade screen instead.',
  builtInUpgrade: 'Serves the built-in upgrade screen instead.',
};
const ACTIONS = {
  substituted: 'replaced by its fallback', dropped: 'dropped', escalated: 'needs the upgrade screen',
  propertyRemoved: 'property removed', actionFallback: 'action replaced by its fallback',
  templateFallback: 'template replaced by its fallback text',
};

/** The draft as a document, or a message pointing to the editor. */
export async function draftDocument(main, flow) {
  const parsed = parseDraft(await loadDraft(flow));
  if (parsed.document) return parsed.document;
  fill(main, h('h1', {}, flow), status(`The draft is not valid JSON (${parsed.error.message}).`, 'error'),
    h('a', { href: `/studio/flows/${encodeURIComponent(flow)}/editor` }, 'Fix it in the editor'));
  return null;
}

/** Explains a 422 from the preview endpoint: the draft has lint problems. */
export function lintRefusal(main, flow, error) {
  if (!(error instanceof ApiError) || error.status !== 422) throw error;
  fill(main, h('h1', {}, flow),
    status(`The draft has ${(error.problem.problems || []).length} lint problem(s); fix them first.`, 'error'),
    h('ul', {}, (error.problem.problems || []).map((problem) => h('li', {}, h('code', {}, problem.code), ` ${problem.message}`))),
    h('a', { href: `/studio/flows/${encodeURIComponent(flow)}/editor` }, 'Open the editor'));
}

/**
 * One core's column: the rendered screen, the gating report and the deferred rules. Typing in it
 * calls `onAnswers` with the column's answers and its screen element.
 */
function column(entry, onAnswers) {
  const label = shortCore(entry.core);
  const scope = `core${label.replace('.', '')}`;
  const { element, fields } = renderScreen(entry.screen, { scope });
  const changed = () => onAnswers(collectAnswers(fields));
  element.addEventListener('input', changed);
  element.addEventListener('change', changed);
  return h('section', { class: `core-column served-${entry.served}`, 'aria-labelledby': `${scope}-title`, 'data-core': label },
    h('h2', { id: `${scope}-title` }, `Core ${label}`),
    h('p', { class: 'served' }, SERVED[entry.served] || entry.served),
    h('div', { class: 'device' }, element),
    h('h3', {}, 'Gating report'),
    entry.report.length === 0 ? h('p', { class: 'report-empty' }, 'Served as authored.')
      : h('ul', { class: 'report' }, entry.report.map((item) => h('li', { 'data-action': item.action, 'data-node': item.nodeId },
        h('strong', {}, item.nodeId), `: ${ACTIONS[item.action] || item.action}. `, h('span', { class: 'reason' }, item.reason)))),
    h('h3', {}, 'Deferred rules'),
    entry.deferred.length === 0 ? h('p', {}, 'None: this core checks every rule itself.')
      : h('ul', { class: 'deferred' }, entry.deferred.map((rule) => h('li', {}, h('code', {}, rule.rule), ` on ${rule.field}, checked by the server`))));
}

/** `/studio/flows/{id}/preview?step=…`. */
export async function previewPage(main, flow) {
  document.title = `Preview ${flow} · Parley Studio`;
  const document_ = await draftDocument(main, flow);
  if (!document_) return;
  const steps = (document_.steps || []).map((step) => step.id);
  const requested = new URLSearchParams(window.location.search).get('step');
  const step = steps.includes(requested) ? requested : document_.start;
  const locales = Array.isArray(document_.locales) ? document_.locales : [];
  const asked = new URLSearchParams(window.location.search).get('locale');
  const locale = locales.includes(asked) ? asked : locales[0];
  let preview;
  try {
    preview = await previewStep(document_, step, { locale });
  } catch (error) {
    return lintRefusal(main, flow, error);
  }
  const evaluate = evaluateLater(document_, step, locale);
  const picker = h('select', { id: 'step', name: 'step' }, steps.map((id) => h('option', { value: id }, id)));
  picker.value = step;
  const language = h('select', { id: 'locale', name: 'locale' }, locales.map((tag) => h('option', { value: tag }, tag)));
  language.value = locale || '';
  const reload = () => {
    const query = new URLSearchParams({ step: picker.value });
    if (language.value) query.set('locale', language.value);
    history.replaceState(null, '', `?${query}`);
    previewPage(main, flow);
  };
  picker.addEventListener('change', reload);
  language.addEventListener('change', reload);
  fill(main,
    h('h1', {}, `Preview ${flow}`),
    h('div', { class: 'field inline' }, h('label', { for: 'step' }, 'Step'), picker,
      locales.length > 1 ? [h('label', { for: 'locale' }, 'Language'), language] : null,
      h('span', { class: 'help' }, 'The draft as each core is served it; nothing is stored.')),
    h('div', { class: 'columns', id: 'columns' }, preview.cores.map((entry) => column(entry, evaluate))));
  // What the draft shows before anything is answered, then again as answers change in any column.
  evaluate({});
}

/**
 * Fields appearing and texts changing as answers change (DESIGN.md "Expressions"): the server's
 * interpreter evaluates the step for `answers` and every column shows its verdict.
 */
let evaluations = 0;
let settle = null;
function evaluateLater(document_, step, locale) {
  return (answers) => {
    clearTimeout(settle);
    settle = setTimeout(async () => {
      const mine = ++evaluations;
      let evaluation;
      try {
        ({ evaluation } = await previewStep(document_, step, { locale, answers }));
      } catch {
        return;
      }
      if (mine !== evaluations) return;
      for (const screen of document.querySelectorAll('#columns .device')) applyEvaluation(screen, evaluation);
    }, 150);
  };
}
