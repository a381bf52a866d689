import { spawnSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// In a child process (src/__fixtures__/loaded-files-point.ts): vitest loads modules its own way, past
// Node's module hooks, which LoadedFiles reads. The worker's refusal built on it is tested end to end in
// test/bullmq-interrupt.test.ts.
describe('watchLoadedFiles', () => {
  it('names a module file loaded since it began once its bytes change, and no longer once they are back', () => {
    const point = fileURLToPath(new URL('../__fixtures__/loaded-files-point.ts', import.meta.url));
    const r = spawnSync(process.execPath, ['--conditions=source', '--import', 'tsx', point], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    const out = JSON.parse(r.stdout) as { dir: string; same: boolean; ran: unknown; before: string[]; edited: string[]; restored: string[]; laterEdited: string[] };
    const dir = realpathSync(out.dir);
    expect(out.same).toBe(true);
    expect(out.ran).toEqual({ outcome: 'passed', t: 1 });
    expect(out.before).toEqual([]);
    expect(out.edited).toEqual([join(dir, 'helper.mjs')]);
    expect(out.restored).toEqual([]);
    expect(out.laterEdited).toEqual([join(dir, 'later.mjs')]);
  });
});
