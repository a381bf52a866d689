// The files view, report and export write (--out, --md, --csv): a path that names a directory said
// "internal error: EISDIR ... rename" (export) or wrote nowhere sensible, and report wrote its SVG in
// place, so a failed write could leave half a file. Each is now refused by name (exit 2), and nothing is
// left behind: no file, no temporary beside it.
import { spawnSync } from 'node:child_process';
import { closeSync, constants, openSync, readSync } from 'node:fs';
import { lstat, mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildRun, seedSpecText, tempStore } from '../diff/__fixtures__/build-run.js';
import { capture } from './__fixtures__/capture.js';
import { runCli } from './run-cli.js';

let dir: string;
let store: string;
beforeAll(async () => {
  dir = await tempStore();
  store = join(dir, 'store');
  const spec = seedSpecText(16, [4, 8]);
  await buildRun(store, { specText: spec, now: new Date('2026-11-06T10:00:00Z'), outcomes: (_c, r) => (r % 3 === 0 ? 'failed' : 'passed') });
  await buildRun(store, { specText: spec, now: new Date('2026-11-06T11:00:00Z'), outcomes: (_c, r) => (r % 4 === 0 ? 'failed' : 'passed') });
  await mkdir(join(dir, 'out.d'));
  await mkdir(join(dir, 'grid.svg.d.svg'));
});

async function prove(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const c = capture(dir);
  const code = await runCli(['--store', store, ...args], c.io);
  return { code, out: c.out(), err: c.err() };
}

describe('an output path that names a directory', () => {
  const cases: [string, string[], string][] = [
    ['export --md', ['export', '#2', '#1', '--md', 'out.d'], `--md out.d names a directory (${'DIR'}/out.d); pass a file path, e.g. --md out.d/export.md.`],
    ['export --csv', ['export', '#2', '#1', '--csv', 'out.d'], `--csv out.d names a directory (${'DIR'}/out.d); pass a file path, e.g. --csv out.d/export.csv.`],
    ['report --out', ['report', '#2', '#1', '--x', 'slack', '--out', 'grid.svg.d.svg'], `--out grid.svg.d.svg names a directory (${'DIR'}/grid.svg.d.svg); pass a file path, e.g. --out grid.svg.d.svg/report.svg.`],
  ];
  for (const [name, args, message] of cases) {
    it(`${name}: refused by name, exit 2, nothing written`, async () => {
      const r = await prove(args);
      expect(r).toEqual({ code: 2, out: '', err: `error: ${message.replace('DIR', dir)}\n` });
      expect(await readdir(join(dir, 'out.d'))).toEqual([]);
      expect(await readdir(join(dir, 'grid.svg.d.svg'))).toEqual([]);
      expect((await readdir(dir)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    });
  }

  it('view --out: a directory named like a page is refused too', async () => {
    await mkdir(join(dir, 'page.html'));
    const r = await prove(['view', '#2', '#1', '--out', 'page.html']);
    expect(r).toEqual({ code: 2, out: '', err: `error: --out page.html names a directory (${join(dir, 'page.html')}); pass a file path, e.g. --out page.html/view.html.\n` });
    expect(await readdir(join(dir, 'page.html'))).toEqual([]);
    expect((await readdir(dir)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('export with --md and --csv: one of them a directory, neither file is written', async () => {
    const r = await prove(['export', '#2', '#1', '--md', 'fine.md', '--csv', 'out.d']);
    expect(r.code).toBe(2);
    await expect(readFile(join(dir, 'fine.md'))).rejects.toThrow();
  });

  it('report --out writes its SVG whole, through a temporary beside it', async () => {
    const r = await prove(['report', '#2', '#1', '--x', 'slack', '--out', 'grid.svg']);
    expect(r.code).toBe(0);
    expect(await readFile(join(dir, 'grid.svg'), 'utf8')).toMatch(/^<svg[^]*<\/svg>\n?$/);
    expect((await readdir(dir)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});

// The third session of 2026-12-05: the temporary-and-rename write replaced what the path named when it
// was not a regular file: `export --md /dev/full` (run as root) put a regular file in place of the
// device, and a symbolic link to a file became a file; a path under a file (ENOTDIR) said "internal error".
describe('an output path that is not a regular file', () => {
  it('a FIFO (or a device such as /dev/stdout) is written into, not replaced', async () => {
    const fifo = join(dir, 'out.fifo');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    // Opened for reading first, without blocking: the command's write then goes into the pipe.
    const fd = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const r = await prove(['export', '#2', '#1', '--md', 'out.fifo']);
      expect(r.code).toBe(0);
      expect((await lstat(fifo)).isFIFO()).toBe(true);
      const buf = Buffer.alloc(1 << 16);
      const n = readSync(fd, buf, 0, buf.length, null);
      expect(buf.subarray(0, n).toString('utf8')).toMatch(/^## /);
    } finally {
      closeSync(fd);
    }
  });

  it('a symbolic link to a file stays a link; the file it names gets the output', async () => {
    await writeFile(join(dir, 'real.md'), 'old\n');
    await symlink('real.md', join(dir, 'link.md'));
    const r = await prove(['export', '#2', '#1', '--md', 'link.md']);
    expect(r.code).toBe(0);
    expect((await lstat(join(dir, 'link.md'))).isSymbolicLink()).toBe(true);
    expect(await readFile(join(dir, 'real.md'), 'utf8')).toMatch(/^## /);
  });

  it('a path under a file: refused by name (exit 2), not an internal error', async () => {
    await writeFile(join(dir, 'plain'), 'x');
    const r = await prove(['view', '#2', '#1', '--out', 'plain/page.html']);
    expect(r).toEqual({ code: 2, out: '', err: `error: cannot write ${join(dir, 'plain/page.html')} (ENOTDIR); pass --out with a writable path.\n` });
  });
});
