// The visual editor beside the JSON view: flow settings, steps, the selected step's screen as an
// outline with a palette, the selected node's properties, and the step's transitions. Every edit
// goes through `apply(mutate)`, which rewrites the JSON text (one source of truth); JSON that
// does not parse leaves this side read-only, saying why.
import { h } from './dom.js';
import { localizedInput, textInput } from './fields.js';
import { fieldsOf } from './flowops.js';
import { nodeAt } from './nodeops.js';
import { propertyPanel } from './props.js';
import { stepsPanel } from './steps.js';
import { TEMPLATES } from './templates.js';
import { transitionsEditor } from './transitions.js';
import { nodeTree, palette } from './tree.js';

/** `apply(mutate)` edits the draft; `registry` is GET /v1/capabilities. */
export function visualEditor({ apply, registry }) {
  const element = h('section', { class: 'visual', id: 'visual', 'aria-labelledby': 'visual-title' });
  for (const entry of registry.components) entry.template = TEMPLATES[entry.type];
  const oldest = registry.cores[0];
  let flow = null;
  let reason = null;
  let stepId = null;
  let path = [];
  let note = '';

  const locales = () => (Array.isArray(flow.locales) ? flow.locales.filter((tag) => typeof tag === 'string') : []);
  const step = () => (flow.steps || []).find((item) => item.id === stepId);
  const select = (id, message = '') => { stepId = id; path = []; note = message; render(); };
  const edit = (mutate) => apply((draft) => {
    const target = draft.steps.find((item) => item.id === stepId);
    const next = mutate(target.screen.root, draft, target.screen);
    if (next) path = next;
  });
  const commitNode = (mutate) => apply((draft) => mutate(nodeAt(draft.steps.find((item) => item.id === stepId).screen.root, path)));

  function flowSettings() {
    return h('section', { class: 'flow-settings', 'aria-labelledby': 'flow-settings-title' },
      h('h3', { id: 'flow-settings-title' }, 'Flow'),
      localizedInput({ key: 'flow/title', label: 'Flow title', value: flow.title, locales: locales(), onChange: (title) => apply((draft) => { draft.title = title; }) }),
      textInput({ key: 'flow/locales', label: 'Languages', value: locales().join(', '), help: 'BCP 47 tags, comma-separated; the first is the default. Texts then get one field per language.',
        onChange: (text) => apply((draft) => {
          const tags = text.split(',').map((tag) => tag.trim()).filter(Boolean);
          if (tags.length) draft.locales = tags; else delete draft.locales;
        }) }));
  }

  function stepEditor(current) {
    const root = current.screen && current.screen.root;
    if (!root) return h('p', { class: 'notice warn' }, 'This step has no screen root; fix it in the JSON.');
    if (!nodeAt(root, path)) path = [];
    const node = nodeAt(root, path);
    const fields = fieldsOf(flow).map((item) => item.field);
    return h('div', { class: 'step-editor' },
      h('div', { class: 'step-left' },
        localizedInput({ key: `screen/${current.id}/title`, label: 'Screen title', value: current.screen.title, locales: locales(),
          onChange: (title) => apply((draft) => { draft.steps.find((item) => item.id === current.id).screen.title = title; }) }),
        nodeTree({ root, path, select: (at) => { path = at; render(); }, edit }),
        palette({ registry, oldest, path, edit, disabled: false })),
      h('div', { class: 'step-right' },
        propertyPanel({ key: `node/${current.id}/${path.join('/') || 'root'}`, node, registry, locales: locales(), fields, oldest,
          component: registry.components.find((entry) => entry.type === node.type), commit: commitNode,
          onFallback: () => { path = [...path, 'fallback']; render(); } }),
        transitionsEditor({ flow, step: current, apply })));
  }

  function render() {
    const focused = document.activeElement && element.contains(document.activeElement) ? document.activeElement.id : null;
    const header = h('h2', { id: 'visual-title' }, 'Visual editor');
    if (!flow) {
      element.replaceChildren(header, h('p', { class: 'notice error', role: 'alert', id: 'visual-reason' }, reason || 'Nothing to show.'));
      return;
    }
    if (!step()) stepId = flow.start && (flow.steps || []).some((item) => item.id === flow.start) ? flow.start : ((flow.steps || [])[0] || {}).id;
    const body = h('fieldset', { class: 'visual-body', disabled: Boolean(reason) },
      h('legend', { class: 'visually-hidden' }, 'Flow editor'),
      flowSettings(),
      h('div', { class: 'visual-grid' },
        stepsPanel({ flow, selected: stepId, select, apply }),
        step() ? stepEditor(step()) : h('p', {}, 'Add a step to start.')));
    element.replaceChildren(...[header,
      reason ? h('p', { class: 'notice error', role: 'alert', id: 'visual-reason' }, `Read-only: ${reason}`) : null,
      note ? h('p', { class: 'notice warn', role: 'status' }, note) : null, body].filter(Boolean));
    note = '';
    const again = focused && document.getElementById(focused);
    if (again && !again.disabled) again.focus();
  }

  return {
    element,
    /** Shows `document` (the parsed draft), or keeps the last one read-only with `error` as the reason. */
    show(document_, error) {
      if (error) reason = `the JSON does not parse (${error}), so the visual editor waits until it does.`;
      else { reason = null; flow = document_; }
      if (flow && (typeof flow !== 'object' || Array.isArray(flow))) { reason = 'the JSON is not a flow object.'; flow = null; }
      render();
    },
  };
}
