// Python's json.dumps(value, indent=2, ensure_ascii=False) of a value of a JSON text, written from the
// text itself: numbers as the text writes them (Python writes 1.0, 1e-05, -0.0, integers of any size;
// JSON.parse would lose them), members in the text's order (JavaScript puts integer-like keys first),
// strings escaped as Python escapes them without ensure_ascii (", \, \b \f \n \r \t, other controls as
// \u00XX: JSON.stringify's escapes, for every string lm-eval can write).

const SPACE = new Set([' ', '\t', '\n', '\r']);
const LITERAL = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?|true|false|null|NaN|-?Infinity/y;

class Reader {
  i = 0;
  constructor(readonly s: string) {}
  skip(): void {
    while (this.i < this.s.length && SPACE.has(this.s[this.i] as string)) this.i++;
  }
  take(c: string): void {
    this.skip();
    if (this.s[this.i] !== c) throw new SyntaxError(`expected ${c} at ${this.i}`);
    this.i++;
  }
  /** The string at the reader (its opening quote), decoded. */
  string(): string {
    this.skip();
    const start = this.i;
    if (this.s[start] !== '"') throw new SyntaxError(`expected a string at ${start}`);
    let j = start + 1;
    while (j < this.s.length && this.s[j] !== '"') j += this.s[j] === '\\' ? 2 : 1;
    this.i = j + 1;
    return JSON.parse(this.s.slice(start, j + 1)) as string;
  }
  /** The value at the reader, as Python prints it at nesting `level`. */
  value(level: number): string {
    this.skip();
    const c = this.s[this.i];
    if (c === '"') return JSON.stringify(this.string());
    if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']';
      this.i++;
      this.skip();
      if (this.s[this.i] === close) {
        this.i++;
        return `${c}${close}`;
      }
      const items: string[] = [];
      for (;;) {
        if (c === '{') {
          const key = this.string();
          this.take(':');
          items.push(`${JSON.stringify(key)}: ${this.value(level + 1)}`);
        } else items.push(this.value(level + 1));
        this.skip();
        if (this.s[this.i] === ',') {
          this.i++;
          continue;
        }
        this.take(close);
        break;
      }
      const pad = '  '.repeat(level + 1);
      return `${c}\n${pad}${items.join(`,\n${pad}`)}\n${'  '.repeat(level)}${close}`;
    }
    LITERAL.lastIndex = this.i;
    const m = LITERAL.exec(this.s);
    if (m === null) throw new SyntaxError(`unexpected ${JSON.stringify(c ?? 'end')} at ${this.i}`);
    this.i += m[0].length;
    return m[0];
  }
}

/**
 * Python's `json.dumps(value, indent=2, ensure_ascii=False)` of the member `key` of the JSON object
 * `text` (the last, when the text repeats it, as JSON.parse reads it), written from the text: exact
 * when Python's json wrote the text (its numbers are then Python's own), as lm-evaluation-harness writes
 * its samples files.
 *
 * @param text - a JSON object's text (already checked by JSON.parse).
 * @param key - the member.
 * @returns the member's value as Python prints it, or undefined when the object has no such member.
 * @throws SyntaxError when the text is not a JSON object.
 */
export function pythonIndentedMember(text: string, key: string): string | undefined {
  const r = new Reader(text);
  r.take('{');
  r.skip();
  let found: string | undefined;
  if (text[r.i] === '}') return undefined;
  for (;;) {
    const k = r.string();
    r.take(':');
    const v = r.value(0);
    if (k === key) found = v;
    r.skip();
    if (text[r.i] === ',') {
      r.i++;
      continue;
    }
    r.take('}');
    return found;
  }
}

/** A string (kept as it is), or NaN, Infinity, -Infinity outside strings (the tokens Python's json writes). */
const NON_FINITE = /"(?:[^"\\]|\\.)*"|-?Infinity|NaN/g;

/**
 * JSON.parse of a JSON text as Python's `json` module writes it: also `NaN`, `Infinity` and `-Infinity`
 * outside strings (json.dumps writes them for float nan and inf unless `allow_nan=False`), read as the
 * numbers they name. Text without them is read by JSON.parse alone.
 *
 * @param text - the JSON text.
 * @returns the value.
 * @throws SyntaxError as JSON.parse does (its message for the text as written).
 */
export function parsePythonJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    if (!/NaN|Infinity/.test(text)) throw err;
    // Each token becomes a string no text holds (a random mark), which the reviver turns back.
    const mark = `\u0000${Math.random().toString(36).slice(2)}:`;
    const names: Record<string, number> = { NaN: Number.NaN, Infinity: Number.POSITIVE_INFINITY, '-Infinity': Number.NEGATIVE_INFINITY };
    const marked = text.replace(NON_FINITE, (m) => (m.startsWith('"') ? m : JSON.stringify(`${mark}${m}`)));
    try {
      return JSON.parse(marked, (_k, v: unknown) => (typeof v === 'string' && v.startsWith(mark) ? names[v.slice(mark.length)] : v));
    } catch {
      throw err;
    }
  }
}
