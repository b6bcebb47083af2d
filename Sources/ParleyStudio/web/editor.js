// The editor: the visual editor beside the flow's JSON with line numbers, both in sync (the JSON
// text is the one source of truth), lint after every edit (problems shown at the line their JSON
// Pointer names, listed with their code and severity), the core × step servability matrix, undo
// and redo, a guard on leaving with unsaved changes, and save as a new version with If-Match (a
// conflict is said plainly).
import { api, ApiError, shortCore } from './api.js';
import { fill, h, status } from './dom.js';
import { keepDraft, loadDraft } from './draft.js';
import { EditHistory } from './history.js';
import { lineOf, pointerLines } from './jsonpos.js';
import { lintFlow } from './studio-core.js';
import { visualEditor } from './visual.js';

const PAUSE_MS = 250;
const STATUS_LABELS = {
  native: 'native', viaFallbacks: 'via fallbacks', upgrade: 'upgrade screen', notServable: 'not servable',
};

/** The servability matrix as a table: one row per step, one column per core, coloured by status. */
export function matrixTable(servability) {
  return h('table', { class: 'data matrix', id: 'matrix' },
    h('caption', {}, 'How each core is served each step'),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Step'),
      servability.cores.map((core) => h('th', { scope: 'col' }, `Core ${shortCore(core)}`)))),
    h('tbody', {}, servability.steps.map((step) => h('tr', {},
      h('th', { scope: 'row' }, step.id),
      servability.cores.map((core) => {
        const value = step.servability[core];
        return h('td', { class: `status-${value}` }, STATUS_LABELS[value] || value);
      })))));
}

/** `/studio/flows/{id}/editor`. */
export async function editorPage(main, flow) {
  document.title = `Edit ${flow} · Parley Studio`;
  const draft = await loadDraft(flow);
  const registry = (await api('GET', '/v1/capabilities')).data;
  const gutter = h('div', { class: 'gutter', 'aria-hidden': 'true' });
  const text = h('textarea', {
    id: 'flow-json', class: 'code', spellcheck: 'false', wrap: 'off', autocomplete: 'off',
    'aria-describedby': 'lint-summary',
  });
  text.value = draft.text;
  const summary = h('p', { id: 'lint-summary', role: 'status', class: 'lint-summary' }, 'Checking…');
  const problemList = h('ol', { id: 'problems', class: 'problems' });
  const matrix = h('div', { id: 'matrix-area' });
  const saveResult = h('div', { id: 'save-result' });
  const save = h('button', { type: 'button', class: 'primary', id: 'save' }, 'Save as new version');
  const base = h('span', { id: 'base-version' });
  let problemLines = new Map();
  let errorCount = 0;
  let sequence = 0;
  let timer = null;
  const history = new EditHistory(draft.text);
  let saved = draft.saved ?? (draft.base ? draft.text : null);
  const undo = h('button', { type: 'button', id: 'undo', 'aria-keyshortcuts': 'Control+Z' }, 'Undo');
  const redo = h('button', { type: 'button', id: 'redo', 'aria-keyshortcuts': 'Control+Shift+Z' }, 'Redo');
  const keep = () => keepDraft(flow, { text: text.value, base: draft.base, saved });
  const refreshButtons = () => {
    undo.disabled = history.past.length === 0;
    redo.disabled = history.future.length === 0;
  };
  const showVisual = () => {
    const parsed = pointerLines(text.value);
    if (parsed.error) visual.show(null, `line ${parsed.error.line}: ${parsed.error.message}`);
    else visual.show(JSON.parse(text.value));
  };
  /** Puts `value` in the JSON view and brings every other view along. */
  const setText = (value, record) => {
    clearTimeout(timer);
    text.value = value;
    if (record) history.push(value);
    refreshButtons();
    drawGutter();
    showVisual();
    lint();
  };
  const visual = visualEditor({ registry, apply: (mutate) => {
    let document_;
    try { document_ = JSON.parse(text.value); } catch { return; }
    mutate(document_);
    setText(JSON.stringify(document_, null, 2), true);
  } });
  const step = (direction) => {
    if (text.value !== history.current) history.push(text.value);
    const value = direction < 0 ? history.undo() : history.redo();
    if (value !== null) setText(value, false);
  };
  undo.addEventListener('click', () => step(-1));
  redo.addEventListener('click', () => step(1));

  const drawGutter = () => {
    const count = text.value.split('\n').length;
    fill(gutter, ...Array.from({ length: count }, (_, index) => {
      const number = index + 1;
      const codes = problemLines.get(number);
      return h('div', { class: codes ? 'line error' : 'line', 'data-line': number, title: codes ? codes.join(', ') : null }, number);
    }));
    gutter.scrollTop = text.scrollTop;
  };
  const jump = (line) => {
    const offsets = text.value.split('\n').slice(0, line - 1).reduce((sum, row) => sum + row.length + 1, 0);
    text.focus();
    text.setSelectionRange(offsets, offsets);
    text.scrollTop = Math.max(0, (line - 4) * 20);
  };
  const show = (problems, servability) => {
    problemLines = new Map();
    const errors = problems.filter((problem) => problem.severity !== 'warning');
    errorCount = errors.length;
    for (const problem of errors) problemLines.set(problem.line, [...(problemLines.get(problem.line) || []), problem.code]);
    drawGutter();
    const warnings = problems.length - errors.length;
    const warned = warnings ? ` ${warnings} warning${warnings === 1 ? '' : 's'} (accessibility) to look at.` : '';
    summary.textContent = errors.length === 0 ? `No problems: ready to save.${warned}`
      : `${errors.length} problem${errors.length === 1 ? '' : 's'}.${warned}`;
    summary.className = `lint-summary ${errors.length ? 'bad' : 'good'}`;
    fill(problemList, ...problems.map((problem) => h('li', {
      'data-line': problem.line, 'data-code': problem.code, 'data-pointer': problem.pointer || '', 'data-severity': problem.severity || 'error',
    },
    h('button', { type: 'button', class: 'link', onclick: () => jump(problem.line) }, `Line ${problem.line}`),
    ' ', problem.severity === 'warning' ? h('span', { class: 'chip warn' }, 'warning') : null,
    h('code', { class: problem.severity === 'warning' ? 'code-name warn' : 'code-name' }, problem.code), ' ', problem.message,
    problem.pointer ? h('span', { class: 'pointer' }, ` at ${problem.pointer}`) : null)));
    save.disabled = errors.length > 0;
    if (servability) fill(matrix, h('h2', {}, 'Servability'), matrixTable(servability));
  };
  const lint = async () => {
    const mine = ++sequence;
    keep();
    const parsed = pointerLines(text.value);
    if (parsed.error) return show([{ line: parsed.error.line, code: 'syntax', message: parsed.error.message }]);
    try {
      const report = await lintFlow(text.value);
      if (mine !== sequence) return;
      show(report.problems.map((problem) => ({ ...problem, line: lineOf(parsed.lines, problem.pointer) })), report.servability);
    } catch (error) {
      if (mine === sequence) show([{ line: 1, code: 'request', message: error.message }]);
    }
  };
  const saveVersion = async () => {
    save.disabled = true;
    const headers = draft.base ? { 'If-Match': `"${draft.base}"` } : {};
    try {
      const answer = await api('POST', '/v1/flows', text.value, headers);
      const version = answer.data.version;
      const created = answer.status === 201;
      draft.base = version;
      saved = text.value;
      keep();
      base.textContent = `Editing from version ${version}.`;
      fill(saveResult, status(created ? `Saved as version ${version}.` : `Identical to version ${version}: nothing new was stored.`, 'ok'),
        h('a', { href: `/studio/flows/${encodeURIComponent(answer.data.flow)}` }, 'See the versions'));
    } catch (error) {
      if (error instanceof ApiError && error.status === 412) {
        const latest = error.problem.latestVersion;
        fill(saveResult, status(`Not saved: someone saved version ${latest} after version ${draft.base}, which you started from. `
          + 'Your text is kept here. Compare it with the latest version, then save again on top of it.', 'error'),
        h('button', { type: 'button', onclick: () => { draft.base = latest; keep(); base.textContent = `Editing on top of version ${latest}.`; saveResult.replaceChildren(); } },
          `Save on top of version ${latest} next time`));
      } else {
        fill(saveResult, status(`Not saved: ${error.message}`, 'error'));
      }
    } finally {
      save.disabled = errorCount > 0;
    }
  };

  text.addEventListener('input', () => {
    drawGutter();
    clearTimeout(timer);
    timer = setTimeout(() => {
      history.push(text.value);
      refreshButtons();
      showVisual();
      lint();
    }, PAUSE_MS);
  });
  const onKey = (event) => {
    if (!document.body.contains(text)) return document.removeEventListener('keydown', onKey);
    if (!(event.ctrlKey || event.metaKey) || event.altKey) return;
    const key = event.key.toLowerCase();
    if (key !== 'z' && key !== 'y') return;
    event.preventDefault();
    step(key === 'y' || event.shiftKey ? 1 : -1);
  };
  document.addEventListener('keydown', onKey);
  const onLeave = (event) => {
    if (!document.body.contains(text)) return window.removeEventListener('beforeunload', onLeave);
    if (saved !== null && text.value === saved) return;
    event.preventDefault();
    event.returnValue = '';
  };
  window.addEventListener('beforeunload', onLeave);
  text.addEventListener('scroll', () => { gutter.scrollTop = text.scrollTop; });
  save.addEventListener('click', saveVersion);
  base.textContent = draft.base ? `Editing from version ${draft.base}.` : 'A new flow.';

  fill(main,
    h('h1', {}, `Edit ${flow}`),
    h('div', { class: 'editor-bar' }, base, undo, redo, save),
    saveResult,
    h('div', { class: 'editor-split' },
      visual.element,
      h('div', { class: 'json-side' },
        h('label', { for: 'flow-json', class: 'editor-label' }, 'Flow JSON (parley.flow/1): lint runs when you pause typing'),
        h('div', { class: 'editor' }, gutter, text),
        h('section', { class: 'lint', 'aria-labelledby': 'lint-title' },
          h('h2', { id: 'lint-title' }, 'Lint'), summary, problemList, matrix))));
  drawGutter();
  refreshButtons();
  showVisual();
  await lint();
}
