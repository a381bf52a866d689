// What each package may depend on is part of its design (../shared/spec/README.md, "Packages";
// docs/architecture.md): one table for the five packages, and the one-way direction of our own imports.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('..', import.meta.url).pathname;

/** The runtime dependencies each package may have (everything else is a devDependency or a mistake). */
const ALLOWED: Record<string, readonly string[]> = {
  core: ['@iarna/toml'],
  // jstat's normal quantile was measured off by 1.2e-2 (relative) at p = 1e-20 (docs/statistics.md,
  // "Numerical notes"), so the distributions are our own and poisson-stats has no runtime dependency.
  stats: [],
  tasks: ['@iarna/toml', 'gpt-tokenizer', 'poisson-core', 'seedrandom'],
  // hysnappy: the flat read's snappy decoder, 0.60x of hyparquet's time (docs/performance.md, "Reading").
  // fzstd: the Zstandard entries of inspect_ai's .eval logs (Node 20's zlib has no zstd; docs/import.md).
  prove: ['@iarna/toml', 'apache-arrow', 'bullmq', 'cli-progress', 'fzstd', 'hyparquet', 'hyparquet-writer', 'hysnappy', 'ioredis', 'poisson-core', 'poisson-stats', 'tsx', 'yauzl'],
  models: ['@iarna/toml', 'gpt-tokenizer', 'openai', 'poisson-core', 'poisson-stats', 'poisson-tasks'],
};

type Pkg = { name: string; type: string; sideEffects: boolean; exports: Record<string, Record<string, string> | string>; dependencies?: Record<string, string> };
const pkgOf = (dir: string): Pkg => JSON.parse(readFileSync(join(ROOT, 'packages', dir, 'package.json'), 'utf8')) as Pkg;

describe('the packages', () => {
  for (const [dir, allowed] of Object.entries(ALLOWED)) {
    const pkg = pkgOf(dir);
    it(`${pkg.name} is ESM with an exports map whose entries name source, types and default, and its package.json`, () => {
      expect(pkg.type).toBe('module');
      expect(pkg.sideEffects).toBe(false);
      const { './package.json': own, ...code } = pkg.exports;
      // Tools read a package's version and metadata through it (require.resolve('poisson-prove/package.json')).
      expect(own).toBe('./package.json');
      for (const entry of Object.values(code)) expect(Object.keys(entry)).toEqual(['poisson-source', 'types', 'default']);
    });
    it(`${pkg.name} pins every dependency exactly and depends only on what the design allows`, () => {
      const deps = pkg.dependencies ?? {};
      for (const version of Object.values(deps)) expect(version).toMatch(/^\d+\.\d+\.\d+/);
      expect(Object.keys(deps).sort()).toEqual([...allowed].sort());
    });
  }

  it('lists every package of packages/', () => {
    expect(readdirSync(join(ROOT, 'packages')).sort()).toEqual(Object.keys(ALLOWED).sort());
  });

  it('poisson-core imports no other Poisson package: it is the bottom of the graph', () => {
    const dir = join(ROOT, 'packages/core/src');
    for (const f of readdirSync(dir).filter((n) => n.endsWith('.ts') && !n.endsWith('.test.ts'))) {
      expect(readFileSync(join(dir, f), 'utf8'), f).not.toMatch(/from 'poisson-/);
    }
  });
});
