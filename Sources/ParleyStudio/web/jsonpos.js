// A small JSON parser that records, for every value, the line it starts on, keyed by its
// JSON Pointer (RFC 6901): lint problems carry pointers, designers read lines.

/** Parses `text`; returns {lines: Map(pointer → line), error: {message, line} | null}. */
export function pointerLines(text) {
  const lines = new Map();
  let index = 0;
  let line = 1;
  const fail = (message) => { throw { message, line }; };
  const space = () => {
    while (index < text.length && ' \t\r\n'.includes(text[index])) {
      if (text[index] === '\n') line += 1;
      index += 1;
    }
  };
  const string = () => {
    const start = index;
    index += 1;
    while (index < text.length && text[index] !== '"') {
      if (text[index] === '\n') fail('a string may not span lines');
      index += text[index] === '\\' ? 2 : 1;
    }
    if (index >= text.length) fail('unterminated string');
    index += 1;
    return JSON.parse(text.slice(start, index));
  };
  const escape = (token) => String(token).replace(/~/g, '~0').replace(/\//g, '~1');
  const value = (pointer) => {
    space();
    lines.set(pointer, line);
    const char = text[index];
    if (char === '{') {
      index += 1;
      space();
      if (text[index] === '}') { index += 1; return; }
      for (;;) {
        space();
        if (text[index] !== '"') fail('expected a member name in quotes');
        const keyLine = line;
        const name = string();
        const member = `${pointer}/${escape(name)}`;
        space();
        if (text[index] !== ':') fail(`expected “:” after "${name}"`);
        index += 1;
        value(member);
        lines.set(member, keyLine);
        space();
        if (text[index] === ',') { index += 1; continue; }
        if (text[index] === '}') { index += 1; return; }
        fail('expected “,” or “}”');
      }
    } else if (char === '[') {
      index += 1;
      space();
      if (text[index] === ']') { index += 1; return; }
      for (let position = 0; ; position += 1) {
        value(`${pointer}/${position}`);
        space();
        if (text[index] === ',') { index += 1; continue; }
        if (text[index] === ']') { index += 1; return; }
        fail('expected “,” or “]”');
      }
    } else if (char === '"') {
      string();
    } else {
      const match = /^(-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?|true|false|null)/.exec(text.slice(index, index + 64));
      if (!match) fail(index >= text.length ? 'unexpected end of the document' : `unexpected “${char}”`);
      index += match[0].length;
    }
  };
  try {
    value('');
    space();
    if (index < text.length) fail('unexpected text after the document');
    return { lines, error: null };
  } catch (error) {
    if (error && typeof error.line === 'number') return { lines, error };
    return { lines, error: { message: String(error && error.message), line } };
  }
}

/** The line of `pointer`, else of its nearest ancestor that exists (e.g. a missing member's object). */
export function lineOf(lines, pointer) {
  let current = pointer;
  for (;;) {
    if (lines.has(current)) return lines.get(current);
    if (!current) return 1;
    current = current.slice(0, current.lastIndexOf('/'));
  }
}
