// Runs the command blocks of the docs and writes what they print back into the pages, so that no output
// in docs/ is typed by hand. Needs a build first (`npm run build`).
//
//   node scripts/docs-run.mjs              rewrite every page listed in scripts/docs-pages.mjs
//   node scripts/docs-run.mjs diff.md      rewrite one page
//   node scripts/docs-run.mjs --check      rewrite nothing; exit 1 and print a diff for every page whose
//                                          blocks differ from what the commands print now (run ids, dates,
//                                          times, durations, rates and hashes masked)
//
// A command block is a fenced block of language `console`. Each line that starts with `$ ` is a shell
// command (a line ending in `\` continues it); everything up to the next `$ ` line or the end of the block
// is its output, replaced on each run. Commands of one page run in order, in one fresh folder (`$DOCS`)
// that holds links to examples/, packages/ and node_modules/ of this checkout, with `poisson-prove` on
// the PATH (the built CLI). A block right after a line `<!-- docs-run: skip REASON -->` is left as it is;
// the page must say in its text why it cannot be run here (e.g. it needs a real provider key).
// `(exit N)` is appended to the output of a command that exits non-zero.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PAGES } from './docs-pages.mjs';

const root = new URL('..', import.meta.url).pathname.replace(/\/$/, '');

/** Split a page into command blocks and the text between them. */
export function parseBlocks(text) {
  const lines = text.split('\n');
  const blocks = [];
  let skip = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (/^<!-- docs-run: skip\b/.test(line)) skip = true;
    const open = /^( *)```console$/.exec(line);
    if (open) {
      const indent = open[1];
      const start = i;
      let end = i + 1;
      while (end < lines.length && lines[end] !== `${indent}\`\`\``) end++;
      if (end >= lines.length) throw new Error(`unclosed console block at line ${start + 1}`);
      const body = lines.slice(start + 1, end).map((l) => (l.startsWith(indent) ? l.slice(indent.length) : l));
      if (!skip) blocks.push({ start, end, indent, commands: parseCommands(body) });
      skip = false;
      i = end;
    } else if (line.trimStart().startsWith('```')) {
      skip = false;
    }
  }
  return { lines, blocks };
}

/** The commands of one block: `$ ` lines with their `\` continuations. */
function parseCommands(body) {
  const commands = [];
  for (let i = 0; i < body.length; i++) {
    if (!body[i].startsWith('$ ')) continue;
    const shown = [body[i]];
    while (shown[shown.length - 1].endsWith('\\') && i + 1 < body.length) shown.push(body[++i]);
    const command = shown.map((l, k) => (k === 0 ? l.slice(2) : l)).join('\n');
    commands.push({ shown, command });
  }
  return commands;
}

/** A fresh folder for one page: links to the checkout's examples, packages and node_modules. */
function sandbox() {
  const dir = mkdtempSync(join(tmpdir(), 'poisson-docs-'));
  for (const name of ['examples', 'packages', 'node_modules', 'package.json']) symlinkSync(join(root, name), join(dir, name));
  const bin = join(dir, '.bin');
  mkdirSync(bin);
  const shim = join(bin, 'poisson-prove');
  writeFileSync(shim, `#!/bin/sh\nexec "${process.execPath}" "${join(root, 'packages/prove/bin/poisson-prove.js')}" "$@"\n`);
  chmodSync(shim, 0o755);
  return { dir, bin };
}

/** Run one command in the page's folder; return what it printed (stdout and stderr, interleaved). */
function runCommand(command, { dir, bin }, env) {
  const res = spawnSync('bash', ['-c', `${command} 2>&1`], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, ...env, DOCS: dir, PATH: `${bin}:${join(root, 'node_modules/.bin')}:${process.env.PATH}`, FORCE_COLOR: '0', NO_COLOR: '1', POISSON_STORE: '' },
    maxBuffer: 64 * 1024 * 1024,
    timeout: 300_000,
  });
  if (res.error) throw res.error;
  let out = res.stdout.replaceAll(`${dir}/`, '').replaceAll(dir, '.').replaceAll(root, '$REPO').replace(/\s+$/, '');
  if (res.status !== 0) out += `${out ? '\n' : ''}(exit ${res.status})`;
  return out;
}

/** Run every command block of a page; return the page with the outputs replaced. */
export async function renderPage(name) {
  const page = PAGES[name];
  if (!page) throw new Error(`no page ${name} in scripts/docs-pages.mjs`);
  const path = join(root, page.path);
  const { lines, blocks } = parseBlocks(readFileSync(path, 'utf8'));
  const box = sandbox();
  const context = page.setup ? await page.setup({ dir: box.dir, root }) : { env: {}, stop: async () => {} };
  try {
    const out = [];
    let at = 0;
    for (const block of blocks) {
      out.push(...lines.slice(at, block.start + 1));
      for (const { shown, command } of block.commands) {
        out.push(...shown.map((l) => block.indent + l));
        const printed = runCommand(command, box, context.env ?? {});
        if (printed) out.push(...printed.split('\n').map((l) => (l ? block.indent + l : l)));
      }
      at = block.end;
    }
    out.push(...lines.slice(at));
    return { path, before: lines.join('\n'), after: out.join('\n') };
  } finally {
    await context.stop?.();
    rmSync(box.dir, { recursive: true, force: true });
  }
}

/** What may differ between two runs of the same commands. */
export function mask(text) {
  return text
    .replace(/\b\d{8}T\d{6}Z-[0-9a-f]{4}\b/g, '<run-id>')
    .replace(/\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z\b/g, '<time>')
    .replace(/\b20\d{2}-\d{2}-\d{2}\b/g, '<date>')
    // a date in a percent-encoded name (a label with spaces: "%202026-12-03%20"), where \b does not fall
    .replace(/%2020\d{2}-\d{2}-\d{2}\b/g, '%20<date>')
    .replace(/\b[0-9a-f]{12,64}\b/g, '<hash>')
    .replace(/\b[0-9a-f]{4}…[0-9a-f]{4}\b/g, '<hash>')
    .replace(/\b\d+(\.\d+)?\s?(ms|s|min)\b/g, '<duration>')
    .replace(/[\d,.]+ (episodes|rows|calls)\/s\b/g, '<rate> $1/s')
    .replace(/ +$/gm, '');
}

/** The first differing lines of two texts, for a failure message. */
export function firstDifference(a, b) {
  const x = a.split('\n');
  const y = b.split('\n');
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    if (x[i] !== y[i]) return `line ${i + 1}:\n  on disk: ${x[i] ?? '(end)'}\n  now:     ${y[i] ?? '(end)'}`;
  }
  return '';
}

async function main() {
  const args = process.argv.slice(2);
  const check = args.includes('--check');
  const names = args.filter((a) => !a.startsWith('--'));
  let stale = 0;
  for (const name of names.length ? names : Object.keys(PAGES)) {
    const { path, before, after } = await renderPage(name);
    if (check) {
      const d = firstDifference(mask(before), mask(after));
      if (d) {
        stale++;
        process.stdout.write(`${name} differs from what its commands print now (${d})\n`);
      } else process.stdout.write(`${name} ok\n`);
    } else {
      writeFileSync(path, after);
      process.stdout.write(`wrote ${name}\n`);
    }
  }
  if (stale) {
    process.stdout.write(`${stale} page(s) stale: run node scripts/docs-run.mjs after npm run build\n`);
    process.exitCode = 1;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
