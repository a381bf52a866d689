const PLACEHOLDER = /\{([A-Za-z]+)\}/g;

/** A template string cut at its placeholders: `text[0] + values[names[0]] + text[1] + ...`. */
interface CompiledString {
  readonly text: readonly string[];
  readonly names: readonly string[];
}

// The templates are the generator's data (a few dozen strings), each cut once: filling one is then a few
// concatenations instead of a regex replace with a callback (two calls per generated task; measured
// together with sattoloCycle's counted loop, internal/rng.ts: `npm run bench -- tasks`, docs/performance.md).
const MAX_COMPILED = 1_000;
const compiled = new Map<string, CompiledString>();

function compile(template: string): CompiledString {
  let c = compiled.get(template);
  if (c === undefined) {
    const text: string[] = [];
    const names: string[] = [];
    let at = 0;
    for (const m of template.matchAll(PLACEHOLDER)) {
      text.push(template.slice(at, m.index));
      names.push(m[1] as string);
      at = (m.index as number) + m[0].length;
    }
    text.push(template.slice(at));
    c = { text, names };
    if (compiled.size >= MAX_COMPILED) compiled.clear();
    compiled.set(template, c);
  }
  return c;
}

/**
 * A deep copy of a JSON-like template with every `{name}` placeholder in its strings replaced by
 * `values[name]` (in one pass, so a filled-in value is never scanned again). Non-string leaves are copied.
 *
 * @throws RangeError when a string names a placeholder `values` does not give
 */
export function fillTemplate<T>(template: T, values: Readonly<Record<string, string>>): T {
  if (typeof template === 'string') {
    const { text, names } = compile(template);
    let out = text[0] as string;
    for (let i = 0; i < names.length; i++) {
      const name = names[i] as string;
      if (!Object.prototype.hasOwnProperty.call(values, name)) {
        throw new RangeError(`template placeholder {${name}} has no value; give one of ${Object.keys(values).join(', ')}`);
      }
      out += (values[name] as string) + (text[i + 1] as string);
    }
    return out as T;
  }
  if (Array.isArray(template)) return template.map((x: unknown) => fillTemplate(x, values)) as T;
  if (template !== null && typeof template === 'object') {
    return Object.fromEntries(Object.entries(template).map(([k, v]) => [k, fillTemplate(v, values)])) as T;
  }
  return template;
}
