// A modal confirmation (native <dialog>: focus is trapped and Escape cancels) listing what an
// action would change; resolves true when confirmed.
import { h } from './dom.js';

export function confirmDialog(title, lines, confirmLabel) {
  return new Promise((resolve) => {
    const dialog = h('dialog', { class: 'confirm', 'aria-labelledby': 'confirm-title' },
      h('h2', { id: 'confirm-title' }, title),
      lines.length ? h('ul', { id: 'confirm-lines' }, lines.map((line) => h('li', {}, line))) : h('p', {}, 'Nothing else refers to it.'));
    const finish = (answer) => { dialog.close(); dialog.remove(); resolve(answer); };
    dialog.append(h('div', { class: 'actions' },
      h('button', { type: 'button', onclick: () => finish(false) }, 'Cancel'),
      h('button', { type: 'button', class: 'primary', id: 'confirm-ok', onclick: () => finish(true) }, confirmLabel)));
    dialog.addEventListener('cancel', () => { dialog.remove(); resolve(false); });
    (document.getElementById('main') || document.body).append(dialog);
    dialog.showModal();
  });
}
