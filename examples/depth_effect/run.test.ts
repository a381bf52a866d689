// examples/depth_effect/run.ts, run as a user runs it (tsx, against the built packages).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');

it('reads d1 -> d3 as a significant change and d1 -> d1+h3 as not significant, on the same seeds', () => {
  const dir = mkdtempSync(join(tmpdir(), 'poisson-depth-effect-test-'));
  try {
    const done = spawnSync(process.execPath, [join(ROOT, 'node_modules/tsx/dist/cli.mjs'), join(HERE, 'run.ts'), '--store', dir], {
      encoding: 'utf8',
      cwd: ROOT,
    });
    expect(done.stderr).toBe('');
    expect(done.status).toBe(0);
    const lines = done.stdout.split('\n');
    const failed = (arm: string): number => {
      const m = new RegExp(`^per_call_${arm}\\s+200 episodes, (\\d+) failed`).exec(lines.find((l) => l.startsWith(`per_call_${arm} `)) ?? '');
      expect(m, arm).not.toBeNull();
      return Number(m![1]);
    };
    // Depth 3 fails more often than depth 1; the control about as often as depth 1.
    expect(failed('depth_d3')).toBeGreaterThan(failed('depth_d1') + 20);
    expect(Math.abs(failed('depth_d1_h3') - failed('depth_d1'))).toBeLessThan(20);

    const at = (title: string): [string, string] => {
      const i = lines.findIndex((l) => l.startsWith(title));
      expect(i, title).toBeGreaterThanOrEqual(0);
      return [lines[i]!, lines[i + 1]!];
    };
    const [deeper, deeperRow] = at('depth:d1 -> depth:d3 (deeper): ');
    expect(deeper).toBe('depth:d1 -> depth:d3 (deeper): significant change');
    expect(deeperRow).toMatch(/^ {2}failed .* counts toward the verdict$/);
    // Not significant, in whichever word the diff uses for that (no significant change, inconclusive).
    const [longer, longerRow] = at('depth:d1 -> depth:d1+h3 ');
    expect(longer).not.toContain(': significant change');
    expect(longerRow).toMatch(/^ {2}failed .* does not count$/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
