// Builds DOM nodes without innerHTML, so text from flows and the server is never parsed as markup.

/** h('p', {class: 'x', onclick: fn}, 'text', child…) → an element. */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on')) element.addEventListener(name.slice(2), value);
    else if (name === 'class') element.className = value;
    else if (name === 'value') element.value = value;
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  append(element, children);
  return element;
}

/** Appends strings, nodes and (nested) arrays of them. */
export function append(parent, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    parent.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return parent;
}

const SVG = 'http://www.w3.org/2000/svg';

/** An SVG element with attributes. */
export function svg(tag, attributes = {}, ...children) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value !== undefined && value !== null) element.setAttribute(name, String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

/** A status line that screen readers announce. */
export function status(text, kind = 'info') {
  return h('p', { class: `notice ${kind}`, role: kind === 'error' ? 'alert' : 'status' }, text);
}

/** A short date and time in the reader's locale. */
export function when(text) {
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? text : date.toLocaleString();
}

/** Goes to a studio URL without reloading the page (app.js routes on popstate). */
export function go(path) {
  history.pushState(null, '', path);
  window.dispatchEvent(new PopStateEvent('popstate'));
}

/** Replaces `parent`'s children (null and false children are skipped, as in h()). */
export function fill(parent, ...children) {
  parent.replaceChildren();
  return append(parent, children);
}
