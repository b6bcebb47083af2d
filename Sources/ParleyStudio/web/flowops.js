// Edits of a flow document's steps and transitions (DESIGN.md "Flow"), as plain functions on
// the parsed JSON: the visual editor applies them to a copy and writes the copy back as text.

/** A fresh id from `base` that `taken` does not hold: base, base-2, base-3… */
export function freshId(base, taken) {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n += 1) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

/** Every node of a screen (fallbacks included), depth first. */
export function nodesOf(node, into = []) {
  if (!node || typeof node !== 'object') return into;
  into.push(node);
  for (const child of node.children || []) nodesOf(child, into);
  if (node.fallback) nodesOf(node.fallback, into);
  return into;
}

/** Field ids declared by each step: [{step, field}]. */
export function fieldsOf(flow) {
  const fields = [];
  for (const step of flow.steps || []) {
    for (const node of nodesOf(step.screen && step.screen.root)) {
      const field = node.properties && node.properties.fieldId;
      if (typeof field === 'string' && !fields.some((item) => item.field === field)) fields.push({ step: step.id, field });
    }
  }
  return fields;
}

/** Appends a new step with an empty, titled screen; returns its id. */
export function addStep(flow) {
  flow.steps = flow.steps || [];
  const id = freshId(`step-${flow.steps.length + 1}`, new Set(flow.steps.map((step) => step.id)));
  flow.steps.push({
    id, screen: { schema: 'parley.screen/1', id, title: 'New step', root: { type: 'vstack', id: 'root', properties: { spacing: 'm' }, children: [] } }, next: [],
  });
  if (!flow.start) flow.start = id;
  return id;
}

/** Renames a step; `start`, every `goto` and a screen id equal to the step id follow. */
export function renameStep(flow, from, to) {
  for (const step of flow.steps || []) {
    if (step.id === from) {
      step.id = to;
      if (step.screen && step.screen.id === from) step.screen.id = to;
    }
    for (const entry of step.next || []) if (entry.goto === from) entry.goto = to;
  }
  if (flow.start === from) flow.start = to;
}

/** Moves a step by `offset` places (order matters to readers, not to the walk). */
export function moveStep(flow, id, offset) {
  const index = flow.steps.findIndex((step) => step.id === id);
  const target = index + offset;
  if (index < 0 || target < 0 || target >= flow.steps.length) return false;
  const [step] = flow.steps.splice(index, 1);
  flow.steps.splice(target, 0, step);
  return true;
}

/** What deleting a step would break: sentences for the confirmation. */
export function deleteConsequences(flow, id) {
  const lines = [];
  if (flow.start === id) lines.push('It is the start step: the next remaining step becomes the start.');
  for (const step of flow.steps || []) {
    (step.next || []).forEach((entry, index) => {
      if (entry.goto === id && step.id !== id) lines.push(`Transition ${index + 1} of “${step.id}” goes to it and is removed.`);
    });
  }
  const gone = new Set(fieldsOf({ steps: (flow.steps || []).filter((step) => step.id === id) }).map((item) => item.field));
  const text = JSON.stringify((flow.steps || []).filter((step) => step.id !== id));
  for (const field of gone) {
    if (text.includes(`"field":"${field}"`)) lines.push(`Conditions elsewhere read its field “${field}”: lint will report them.`);
  }
  return lines;
}

/** Deletes a step and the transitions that lead to it. */
export function deleteStep(flow, id) {
  flow.steps = (flow.steps || []).filter((step) => step.id !== id);
  for (const step of flow.steps) step.next = (step.next || []).filter((entry) => entry.goto !== id);
  if (flow.start === id) flow.start = flow.steps.length ? flow.steps[0].id : '';
}

/** Adds a transition from `from` to `to` (before a final unconditional one, which must stay last). */
export function addTransition(flow, from, to, when) {
  const step = flow.steps.find((item) => item.id === from);
  step.next = step.next || [];
  const entry = when ? { when, goto: to } : { goto: to };
  const last = step.next[step.next.length - 1];
  if (when && last && !last.when) step.next.splice(step.next.length - 1, 0, entry);
  else step.next.push(entry);
}

/** Moves an entry within an array by `offset`; false when it cannot. */
export function moveIn(array, index, offset) {
  const target = index + offset;
  if (target < 0 || target >= array.length) return false;
  const [item] = array.splice(index, 1);
  array.splice(target, 0, item);
  return true;
}
