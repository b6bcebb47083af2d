// A screen's nodes as an outline: select a node, move it (drag, or Alt+↑/↓ and the buttons),
// duplicate or delete it, and insert components from the palette.
import { h } from './dom.js';
import { action } from './fields.js';
import { deleteNode, duplicateNode, insertNode, moveBefore, moveNode, newNode, nodeAt } from './nodeops.js';

const same = (a, b) => a.length === b.length && a.every((token, index) => token === b[index]);

/** The outline of `root`; `select(path)` selects, `edit(mutate(root, flow) → newPath)` changes the screen. */
export function nodeTree({ root, path, select, edit }) {
  let dragged = null;
  const row = (node, at, label) => {
    const key = at.length ? at.join('-') : 'root';
    const pick = h('button', {
      type: 'button', class: 'node-pick', id: `ve-node-${key}`, 'aria-pressed': String(same(at, path)), draggable: at.length && at[at.length - 1] !== 'fallback' ? 'true' : null,
      'aria-keyshortcuts': 'Alt+ArrowUp Alt+ArrowDown',
      onclick: () => select(at),
      onkeydown: (event) => {
        if (!event.altKey || (event.key !== 'ArrowUp' && event.key !== 'ArrowDown')) return;
        event.preventDefault();
        edit((screenRoot) => moveNode(screenRoot, at, event.key === 'ArrowUp' ? -1 : 1));
      },
      ondragstart: (event) => { dragged = at; event.dataTransfer.setData('text/plain', key); },
      ondragover: (event) => { if (dragged) event.preventDefault(); },
      ondrop: (event) => { event.preventDefault(); if (dragged) edit((screenRoot) => moveBefore(screenRoot, dragged, at)); dragged = null; },
    }, label || `${node.type} “${node.id}”`);
    const children = (node.children || []).map((child, index) => row(child, [...at, index]));
    const fallback = node.fallback ? row(node.fallback, [...at, 'fallback'], `fallback: ${node.fallback.type} “${node.fallback.id}”`) : null;
    return h('li', {}, pick, children.length || fallback ? h('ul', {}, children, fallback) : null);
  };
  const selected = nodeAt(root, path);
  const movable = path.length > 0 && path[path.length - 1] !== 'fallback';
  return h('section', { class: 'tree', 'aria-labelledby': 'tree-title' },
    h('h3', { id: 'tree-title' }, 'Screen'),
    h('p', { class: 'help', id: 'tree-help' }, 'Select a node to edit it. Drag a node onto another to move it before that one, or press Alt+↑ / Alt+↓.'),
    h('ul', { class: 'node-tree', id: 'node-tree', 'aria-describedby': 'tree-help' }, row(root, [])),
    selected && path.length ? h('div', { class: 'row-actions', role: 'group', 'aria-label': `Node ${selected.id}` },
      action('node/up', 'Move node up', () => edit((screenRoot) => moveNode(screenRoot, path, -1)), { disabled: !movable }),
      action('node/down', 'Move node down', () => edit((screenRoot) => moveNode(screenRoot, path, 1)), { disabled: !movable }),
      action('node/duplicate', 'Duplicate node', () => edit((screenRoot, flow) => duplicateNode(screenRoot, path, flow)), { disabled: !movable }),
      action('node/delete', 'Delete node', () => edit((screenRoot) => deleteNode(screenRoot, path)))) : null);
}

/** The palette: one button per component type, with the core that introduced it. */
export function palette({ registry, oldest, path, edit, disabled }) {
  const containers = new Set(registry.components.filter((entry) => entry.container).map((entry) => entry.type));
  return h('section', { class: 'palette', 'aria-labelledby': 'palette-title' },
    h('h3', { id: 'palette-title' }, 'Add a component'),
    h('p', { class: 'help', id: 'palette-help' }, 'Inserted into the selected container, or after the selected node. “fallback” marks types an older supported core cannot show without one.'),
    h('ul', { class: 'palette-list', id: 'palette' }, registry.components.map((entry) => {
      const late = entry.introduced !== oldest;
      return h('li', {}, h('button', {
        type: 'button', id: `ve-add-${entry.type}`, disabled, 'data-type': entry.type, 'data-introduced': entry.introduced,
        'aria-describedby': 'palette-help',
        onclick: () => edit((screenRoot, flow, screen) => insertNode(screenRoot, path, newNode(entry.type, entry.template, screen, flow), (type) => containers.has(type))),
      }, h('span', { class: 'type' }, entry.type), ' ', h('span', { class: 'since' }, `core ${entry.introduced}`),
      late ? h('span', { class: 'chip warn' }, 'fallback') : null));
    })));
}
