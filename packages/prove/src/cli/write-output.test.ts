// The files view, report and export write (--out, --md, --csv): a path that names a directory said
// "internal error: EISDIR ... rename" (export). Each is now refused by name (exit 2), and nothing is
// left behind: no file, no temporary beside it.
import { spawnSync } from 'node:child_process';
import { closeSync, constants, openSync, readSync } from 'node:fs';
import { link, lstat, mkdir, readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { twoRunStore } from './__fixtures__/two-runs.js';
import { capture } from './__fixtures__/capture.js';
import { runCli } from './run-cli.js';

const MAIN = fileURLToPath(new URL('../../bin/poisson-prove.js', import.meta.url));

let dir: string;
let store: string;
beforeAll(async () => {
  ({ dir, store } = await twoRunStore());
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

  it('report --out writes its SVG, and nothing beside it', async () => {
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

// A review of 6810cfc and b952ed9 (third session of 2026-12-05): the temporary-and-rename write replaced
// the file /dev/stdout was redirected to (an appended log was wiped), dropped an existing file's
// permissions (600 became 644) and hard links, could not write a writable file in a directory it could
// not write, put one of two files in place when the other's rename failed, wrote two names of one file
// as one (the Markdown lost), replaced a dangling link, and took `keep.md/` for `keep.md`. Outputs are
// now opened first, every one, without truncating; then each is written in place (a device, a FIFO or
// /dev/stdout appended to).
describe('an output file is opened first, then written in place', () => {
  it('--md /dev/stdout appends to the file stdout is redirected to (>> log), which keeps its inode', async () => {
    const log = join(dir, 'log.txt');
    await writeFile(log, 'previous log line\n');
    const inode = (await lstat(log)).ino;
    const fd = openSync(log, 'a');
    try {
      const r = spawnSync(process.execPath, [MAIN, '--store', store, 'export', '#2', '#1', '--md', '/dev/stdout'], { cwd: dir, stdio: ['ignore', fd, 'pipe'], encoding: 'utf8' });
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
    } finally {
      closeSync(fd);
    }
    const text = await readFile(log, 'utf8');
    expect(text.startsWith('previous log line\n## ')).toBe(true);
    expect(text).toMatch(/ok \d+ run x condition rows; wrote \/dev\/stdout\n$/);
    expect((await lstat(log)).ino).toBe(inode);
  });

  it('an existing file keeps its permissions and its hard links', async () => {
    const file = join(dir, 'private.svg');
    await writeFile(file, 'old\n', { mode: 0o600 });
    await link(file, join(dir, 'private-link.svg'));
    expect((await prove(['report', '#2', '#1', '--x', 'slack', '--out', 'private.svg'])).code).toBe(0);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readFile(join(dir, 'private-link.svg'), 'utf8')).toMatch(/^<svg/);
  });

  it('when one of two files cannot be opened, neither is written: a new one is not left, an old one keeps its text', async () => {
    await writeFile(join(dir, 'plain2'), 'x');
    await writeFile(join(dir, 'kept.md'), 'kept\n');
    const r = await prove(['export', '#2', '#1', '--md', 'kept.md', '--csv', 'plain2/x.csv']);
    expect(r).toEqual({ code: 2, out: '', err: `error: cannot write ${join(dir, 'plain2/x.csv')} (ENOTDIR); pass --csv with a writable path.\n` });
    expect(await readFile(join(dir, 'kept.md'), 'utf8')).toBe('kept\n');
    const r2 = await prove(['export', '#2', '#1', '--md', 'fresh.md', '--csv', 'plain2/x.csv']);
    expect(r2.code).toBe(2);
    await expect(lstat(join(dir, 'fresh.md'))).rejects.toThrow();
  });

  it('two names of one file are refused, and the file is left as it was', async () => {
    await writeFile(join(dir, 'e.md'), 'e\n');
    await symlink('e.md', join(dir, 'ealias.md'));
    const r = await prove(['export', '#2', '#1', '--md', 'e.md', '--csv', 'ealias.md']);
    expect(r).toEqual({ code: 2, out: '', err: `error: --md e.md and --csv ealias.md name one file (${join(dir, 'e.md')}); name two files.\n` });
    expect(await readFile(join(dir, 'e.md'), 'utf8')).toBe('e\n');
  });

  it('a dangling link creates the file it names; a path ending in / names a directory; a long file name is written', async () => {
    await symlink('made-through-link.md', join(dir, 'dangling.md'));
    expect((await prove(['export', '#2', '#1', '--md', 'dangling.md'])).code).toBe(0);
    expect((await lstat(join(dir, 'dangling.md'))).isSymbolicLink()).toBe(true);
    expect(await readFile(join(dir, 'made-through-link.md'), 'utf8')).toMatch(/^## /);
    await writeFile(join(dir, 'keep.md'), 'keep\n');
    const r = await prove(['export', '#2', '#1', '--md', 'keep.md/']);
    expect(r).toEqual({ code: 2, out: '', err: `error: --md keep.md/ names a directory (it ends with /); pass a file path, e.g. --md keep.md/export.md.\n` });
    expect(await readFile(join(dir, 'keep.md'), 'utf8')).toBe('keep\n');
    const long = `${'l'.repeat(248)}.md`; // 251 characters: the file system takes up to 255
    expect((await prove(['export', '#2', '#1', '--md', long])).code).toBe(0);
    expect(await readFile(join(dir, long), 'utf8')).toMatch(/^## /);
  });

  it('export --json with --md /dev/stdout is refused before anything is written (stdout carries the one JSON document)', async () => {
    const r = await prove(['export', '#2', '#1', '--json', '--md', '/dev/stdout']);
    expect(r).toEqual({ code: 2, out: '', err: 'error: --md /dev/stdout writes to stdout, where --json prints its one JSON document; write --md to a file, or leave out --json.\n' });
  });
});
