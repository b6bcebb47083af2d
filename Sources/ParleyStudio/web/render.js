// Renders a gated screen as accessible HTML: every component of the vocabulary (DESIGN.md
// "Component vocabulary"), labels tied to inputs, roles, document order as focus order.
// A preview, not a client: nothing is fetched (images show their description and address).
import { h } from './dom.js';

const isTemplate = (value) => value !== null && typeof value === 'object' && Array.isArray(value.template);

/** A template as a designer reads it before it is evaluated: its parts, each expression as ‹name›. */
function templateOutline(value) {
  return value.template.map((part) => {
    if (typeof part === 'string') return part;
    const name = part && (part.field || part.computed);
    return typeof name === 'string' ? `‹${name}›` : '‹…›';
  }).join('');
}

/** Plain text of a property (attributes, labels of labels): a template shows its outline. */
const text = (value) => (typeof value === 'string' ? value : isTemplate(value) ? templateOutline(value) : '');

/**
 * Renders `screen` with ids prefixed by `scope`; `interactive` makes submit buttons submit.
 * A template (DESIGN.md "Expressions") is rendered as a span marked `data-text="node/property"`
 * holding its outline, which `applyEvaluation` replaces with the server's resolved text.
 */
export function renderScreen(screen, { scope, interactive = false, values = {} } = {}) {
  const fields = [];
  const id = (node) => `${scope}-${node.id}`;
  const shown = (node, name) => {
    const value = (node.properties || {})[name];
    return isTemplate(value) ? h('span', { class: 'template', 'data-text': `${node.id}/${name}` }, templateOutline(value)) : text(value);
  };
  const errorSlot = (node) => h('p', { class: 'field-error', id: `${id(node)}-error`, 'data-field': node.properties.fieldId });
  const described = (node) => ({ 'aria-describedby': `${id(node)}-error` });

  const input = (node, control, labelText) => {
    fields.push({ field: node.properties.fieldId, control, kind: node.type });
    return h('div', { class: `field ${node.type}`, 'data-node': node.id },
      h('label', { for: id(node) }, labelText || node.properties.fieldId), control, errorSlot(node));
  };

  const render = (node) => {
    const p = node.properties || {};
    const children = () => (node.children || []).map((child) => {
      const rendered = render(child);
      const size = child.size || (child.properties && child.properties.size);
      if (size) rendered.classList.add(typeof size === 'string' ? `size-${size}` : 'size-weight');
      return rendered;
    });
    switch (node.type) {
      case 'vstack':
      case 'hstack':
        return h('div', { class: `stack ${node.type} gap-${p.spacing || 'm'} align-${p.alignment || 'start'}`, 'data-node': node.id }, children());
      case 'text': {
        const style = p.style || 'body';
        return h(style === 'title' || style === 'headline' ? 'h3' : 'p', { class: `text style-${style}`, 'data-node': node.id }, shown(node, 'text'));
      }
      case 'image':
        return h('figure', { class: 'image', 'data-node': node.id },
          h('div', { class: 'image-box', role: 'img', 'aria-label': p.alt || 'image without description' }, p.alt || 'Image'),
          h('figcaption', {}, text(p.url)));
      case 'button': {
        const submits = p.action && p.action.type === 'submit';
        return h('button', {
          type: interactive && submits ? 'submit' : 'button', class: submits ? 'primary' : '', 'data-node': node.id,
          'data-action': p.action ? p.action.type : null, title: p.action && p.action.url ? `Opens ${p.action.url}` : null,
        }, shown(node, 'title'));
      }
      case 'textField':
        return input(node, h('input', { id: id(node), name: p.fieldId, type: 'text', placeholder: text(p.placeholder) || null, value: values[p.fieldId] || '', ...described(node) }), shown(node, 'label'));
      case 'picker': {
        const select = h('select', { id: id(node), name: p.fieldId, ...described(node) },
          h('option', { value: '' }, 'Choose…'), (p.options || []).map((option) => h('option', { value: option }, option)));
        select.value = values[p.fieldId] || '';
        return input(node, select, shown(node, 'label'));
      }
      case 'datePicker':
        return input(node, h('input', { id: id(node), name: p.fieldId, type: 'date', value: values[p.fieldId] || '', ...described(node) }), shown(node, 'label'));
      case 'toggle':
        return input(node, h('input', { id: id(node), name: p.fieldId, type: 'checkbox', role: 'switch', checked: values[p.fieldId] === 'true', ...described(node) }), shown(node, 'label'));
      case 'quickReplies': {
        const group = h('fieldset', { class: 'field quick-replies', 'data-node': node.id, ...described(node) },
          h('legend', {}, text(p.label) || 'Quick replies'),
          h('div', { class: 'replies' }, (p.options || []).map((option, index) => h('label', { class: 'reply' },
            h('input', { type: 'radio', name: `${scope}-${p.fieldId}`, value: option, id: `${id(node)}-${index}`, checked: values[p.fieldId] === option }),
            h('span', {}, option)))),
          errorSlot(node));
        fields.push({ field: p.fieldId, control: group, kind: 'quickReplies' });
        return group;
      }
      case 'spacer':
        return h('div', { class: 'spacer', 'aria-hidden': 'true', 'data-node': node.id });
      case 'divider':
        return h('hr', { class: 'divider', 'data-node': node.id });
      case 'card': {
        const heading = h('h4', {}, shown(node, 'title'));
        return h('article', { class: 'card', 'data-node': node.id, 'aria-label': text(p.title) || null },
          p.imageUrl ? h('div', { class: 'image-box', role: 'img', 'aria-label': `Image for ${text(p.title)}` }, 'Image') : null,
          heading, p.subtitle ? h('p', { class: 'subtitle' }, shown(node, 'subtitle')) : null, children(),
          p.action ? h('button', { type: 'button', class: 'card-action', title: p.action.url ? `Opens ${p.action.url}` : null }, `Open ${text(p.title)}`) : null);
      }
      case 'carousel':
        return h('div', { class: 'carousel', role: 'group', 'aria-roledescription': 'carousel', 'aria-label': 'Carousel', 'data-node': node.id }, children());
      case 'grid':
        return h('div', { class: 'grid', role: 'group', 'aria-label': 'Grid', 'data-node': node.id }, children());
      default:
        return h('p', { class: 'unknown', 'data-node': node.id }, `Unknown component “${node.type}”`);
    }
  };

  const root = render(screen.root);
  const body = h('div', { class: 'screen' }, screen.title ? h('h3', { class: 'screen-title' }, screen.title) : null, root);
  return { element: body, fields };
}

/** The answers a rendered screen holds: field id → string (toggles "true"/"false"). */
export function collectAnswers(fields) {
  const answers = {};
  for (const { field, control, kind } of fields) {
    if (kind === 'toggle') answers[field] = control.checked ? 'true' : 'false';
    else if (kind === 'quickReplies') {
      const chosen = control.querySelector('input:checked');
      answers[field] = chosen ? chosen.value : '';
    } else answers[field] = control.value;
  }
  return answers;
}

/**
 * Shows what the server's interpreter decided for the current answers (the preview's
 * `evaluation`, DESIGN.md "Expressions"): nodes it hides are hidden (with their fields, so a
 * hidden field is neither seen nor focusable), and every template span shows its resolved text.
 */
export function applyEvaluation(element, evaluation) {
  if (!evaluation) return;
  for (const [node, visible] of Object.entries(evaluation.visible || {})) {
    for (const target of element.querySelectorAll(`[data-node="${CSS.escape(node)}"]`)) {
      target.hidden = !visible;
      target.classList.toggle('expression-hidden', !visible);
    }
  }
  for (const [key, value] of Object.entries(evaluation.texts || {})) {
    for (const span of element.querySelectorAll(`[data-text="${CSS.escape(key)}"]`)) span.textContent = value;
  }
}
