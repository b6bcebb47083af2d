// Undo and redo for the editor: snapshots of the flow's JSON text, so undoing then redoing any
// edit (visual or typed) gives back exactly the same text.
const LIMIT = 200;

export class EditHistory {
  constructor(text) {
    this.past = [];
    this.future = [];
    this.current = text;
  }

  /** Records `text` as the newest state (nothing when it is unchanged). */
  push(text) {
    if (text === this.current) return;
    this.past.push(this.current);
    if (this.past.length > LIMIT) this.past.shift();
    this.current = text;
    this.future = [];
  }

  /** The state before the current one, or null. */
  undo() {
    if (!this.past.length) return null;
    this.future.push(this.current);
    this.current = this.past.pop();
    return this.current;
  }

  /** The state undone last, or null. */
  redo() {
    if (!this.future.length) return null;
    this.past.push(this.current);
    this.current = this.future.pop();
    return this.current;
  }
}
