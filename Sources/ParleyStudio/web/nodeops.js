// Edits of a screen's node tree (DESIGN.md "Screen"). A node is addressed by its path from the
// root: child indexes, and "fallback" for a node's fallback ([] is the root).
import { fieldsOf, freshId, nodesOf } from './flowops.js';

/** The node at `path` under `root`, or undefined. */
export function nodeAt(root, path) {
  let node = root;
  for (const token of path) node = node && (token === 'fallback' ? node.fallback : (node.children || [])[token]);
  return node;
}

/** The parent's children array and the index of the node at `path` (null for the root or a fallback). */
function slot(root, path) {
  if (!path.length || path[path.length - 1] === 'fallback') return null;
  const parent = nodeAt(root, path.slice(0, -1));
  return parent && parent.children ? { list: parent.children, index: path[path.length - 1] } : null;
}

/** A new node of `type` with fresh ids, from the template the palette gives. */
export function newNode(type, template, screen, flow) {
  const node = JSON.parse(JSON.stringify(template || { type, properties: {} }));
  node.type = type;
  node.id = freshId(type.toLowerCase(), new Set(nodesOf(screen.root).map((item) => item.id)));
  if (node.properties && 'fieldId' in node.properties) {
    node.properties.fieldId = freshId(node.id.replace(/-/g, ''), new Set(fieldsOf(flow).map((item) => item.field)));
  }
  return { id: node.id, type: node.type, properties: node.properties || {}, ...(node.children ? { children: node.children } : {}) };
}

/** Inserts `node` inside the selected container (at its end) or after the selected node; returns its path. */
export function insertNode(root, selected, node, isContainer) {
  const target = nodeAt(root, selected);
  if (target && isContainer(target.type) && selected[selected.length - 1] !== 'fallback') {
    target.children = target.children || [];
    target.children.push(node);
    return [...selected, target.children.length - 1];
  }
  const place = slot(root, selected);
  if (!place) {
    root.children = root.children || [];
    root.children.push(node);
    return [root.children.length - 1];
  }
  place.list.splice(place.index + 1, 0, node);
  return [...selected.slice(0, -1), place.index + 1];
}

/** Moves the node at `path` among its siblings by `offset`; returns its new path or null. */
export function moveNode(root, path, offset) {
  const place = slot(root, path);
  if (!place) return null;
  const target = place.index + offset;
  if (target < 0 || target >= place.list.length) return null;
  const [node] = place.list.splice(place.index, 1);
  place.list.splice(target, 0, node);
  return [...path.slice(0, -1), target];
}

/** Moves the node at `from` to just before the node at `to` (drag and drop); returns its new path or null. */
export function moveBefore(root, from, to) {
  const source = slot(root, from);
  const destination = slot(root, to);
  if (!source || !destination || to.join('/').startsWith(from.join('/'))) return null;
  const node = source.list[source.index];
  source.list.splice(source.index, 1);
  const list = nodeAt(root, to.slice(0, -1)).children;
  let index = list.indexOf(destination.list[destination.index]);
  if (index < 0) index = Math.min(destination.index, list.length);
  list.splice(index, 0, node);
  return [...to.slice(0, -1), index];
}

/** Duplicates the node at `path` after itself, with fresh ids and field ids; returns the copy's path. */
export function duplicateNode(root, path, flow) {
  const place = slot(root, path);
  if (!place) return null;
  const copy = JSON.parse(JSON.stringify(place.list[place.index]));
  const ids = new Set(nodesOf(root).map((item) => item.id));
  const fields = new Set(fieldsOf(flow).map((item) => item.field));
  const renamed = new Map();
  for (const node of nodesOf(copy)) {
    node.id = freshId(`${node.id}-copy`, ids);
    ids.add(node.id);
    const field = node.properties && node.properties.fieldId;
    if (typeof field !== 'string') continue;
    if (!renamed.has(field)) renamed.set(field, freshId(`${field}Copy`, fields));
    fields.add(renamed.get(field));
    node.properties.fieldId = renamed.get(field);
  }
  place.list.splice(place.index + 1, 0, copy);
  return [...path.slice(0, -1), place.index + 1];
}

/** Deletes the node at `path` (a fallback is removed from its node); returns the path to select next. */
export function deleteNode(root, path) {
  if (path[path.length - 1] === 'fallback') {
    delete nodeAt(root, path.slice(0, -1)).fallback;
    return path.slice(0, -1);
  }
  const place = slot(root, path);
  if (!place) return path;
  place.list.splice(place.index, 1);
  return place.list.length ? [...path.slice(0, -1), Math.min(place.index, place.list.length - 1)] : path.slice(0, -1);
}
