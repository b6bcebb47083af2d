// Labelled form controls for the visual editor. Every control's id comes from a stable key, so
// after an edit re-renders the panel the same control gets the focus back.
import { h } from './dom.js';

/** A DOM id from a key ("step/a/node/0/label" → "ve-step-a-node-0-label"). */
export const idFor = (key) => `ve-${key.replace(/[^A-Za-z0-9_-]+/g, '-')}`;

/** A labelled text input; `onChange` gets the new value when it is committed (change event). */
export function textInput({ key, label, value, onChange, help, type = 'text', required = false }) {
  const id = idFor(key);
  const input = h('input', {
    id, type, value: value ?? '', required, 'aria-describedby': help ? `${id}-help` : null,
    onchange: (event) => onChange(event.target.value),
  });
  return h('div', { class: 'vfield' }, h('label', { for: id }, label), input, help ? h('span', { id: `${id}-help`, class: 'help' }, help) : null);
}

/** A text a person reads: one input, or one per declared locale (DESIGN.md "Localization"). */
export function localizedInput({ key, label, value, locales, onChange }) {
  if (!locales.length) return textInput({ key, label, value: typeof value === 'string' ? value : '', onChange });
  const current = (locale, index) => {
    if (value && typeof value === 'object') return value[locale] ?? '';
    return index === 0 && typeof value === 'string' ? value : '';
  };
  const inputs = locales.map((locale, index) => {
    const id = idFor(`${key}/${locale}`);
    return h('div', { class: 'vfield locale' }, h('label', { for: id }, `${label} (${locale})`),
      h('input', { id, lang: locale, value: current(locale, index), 'data-locale': locale, onchange: () => {
        const next = {};
        for (const input of group.querySelectorAll('input[data-locale]')) next[input.dataset.locale] = input.value;
        onChange(next);
      } }));
  });
  const group = h('fieldset', { class: 'localized' }, h('legend', {}, label), inputs);
  return group;
}

/** A labelled select of [value, text] pairs. */
export function selectInput({ key, label, value, options, onChange }) {
  const id = idFor(key);
  const select = h('select', { id, onchange: (event) => onChange(event.target.value) },
    options.map(([optionValue, text]) => h('option', { value: optionValue }, text)));
  select.value = value ?? '';
  return h('div', { class: 'vfield' }, h('label', { for: id }, label), select);
}

/** A labelled checkbox. */
export function checkbox({ key, label, checked, onChange }) {
  const id = idFor(key);
  return h('div', { class: 'vfield check' },
    h('input', { id, type: 'checkbox', checked: Boolean(checked), onchange: (event) => onChange(event.target.checked) }),
    h('label', { for: id }, label));
}

/** A button with a stable id. */
export function action(key, text, onClick, attributes = {}) {
  return h('button', { type: 'button', id: idFor(key), onclick: onClick, ...attributes }, text);
}
