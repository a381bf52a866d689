// The README's "In a script" example, run as a user runs it (tsx, against the built packages).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');

it('sweeps two paired arms through the library and reads the seed verdict', () => {
  const dir = mkdtempSync(join(tmpdir(), 'poisson-in-a-script-test-'));
  try {
    const done = spawnSync(process.execPath, [join(ROOT, 'node_modules/tsx/dist/cli.mjs'), join(HERE, 'run.ts'), '--store', dir], {
      encoding: 'utf8',
      cwd: ROOT,
    });
    expect(done.stderr).toBe('');
    expect(done.status).toBe(0);
    const day = new Date().toISOString().slice(0, 10);
    expect(done.stdout).toContain(`in-a-script ${day} a -> in-a-script ${day} b: no significant change, truncated 0`);
    // +-0.32441, printed rounded outward (docs/diff.md, "intervals")
    expect(done.stdout).toMatch(/passed\s+1\.000\s+1\.000\s+0\.000\s+\[-0\.325, \+0\.325\]\s+unchanged\s+no room\s+0\.801/);
    expect(done.stdout).toContain(`page: ${join(dir, 'diff.html')}`);
    expect(readFileSync(join(dir, 'diff.html'), 'utf8')).toContain('<span class="word no-significant-change">no significant change</span>');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
