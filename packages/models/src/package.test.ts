import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  name: string;
  type: string;
  sideEffects: boolean;
  exports: Record<string, Record<string, string>>;
  dependencies: Record<string, string>;
};

// What this package may depend on is part of its design (../../shared/spec/README.md, "Packages").
describe(`${pkg.name} package.json`, () => {
  it('is ESM with an exports map whose entries name source, types and default', () => {
    expect(pkg.type).toBe('module');
    expect(pkg.sideEffects).toBe(false);
    for (const entry of Object.values(pkg.exports)) {
      expect(Object.keys(entry)).toEqual(['source', 'types', 'default']);
    }
  });
  it('pins every dependency exactly and depends only on what the design allows', () => {
    for (const version of Object.values(pkg.dependencies)) expect(version).toMatch(/^\d+\.\d+\.\d+/);
    expect(Object.keys(pkg.dependencies).sort()).toEqual(['@iarna/toml', 'gpt-tokenizer', 'openai', 'poisson-core', 'poisson-stats', 'poisson-tasks']);
  });
});
