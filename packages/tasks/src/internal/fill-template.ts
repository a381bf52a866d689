const PLACEHOLDER = /\{([A-Za-z]+)\}/g;

/**
 * A deep copy of a JSON-like template with every `{name}` placeholder in its strings replaced by
 * `values[name]` (in one pass, so a filled-in value is never scanned again). Non-string leaves are copied.
 *
 * @throws RangeError when a string names a placeholder `values` does not give
 */
export function fillTemplate<T>(template: T, values: Readonly<Record<string, string>>): T {
  if (typeof template === 'string') {
    return template.replace(PLACEHOLDER, (_, name: string) => {
      if (!Object.prototype.hasOwnProperty.call(values, name)) {
        throw new RangeError(`template placeholder {${name}} has no value; give one of ${Object.keys(values).join(', ')}`);
      }
      return values[name] as string;
    }) as T;
  }
  if (Array.isArray(template)) return template.map((x: unknown) => fillTemplate(x, values)) as T;
  if (template !== null && typeof template === 'object') {
    return Object.fromEntries(Object.entries(template).map(([k, v]) => [k, fillTemplate(v, values)])) as T;
  }
  return template;
}
