// Test helpers: temporary stores and an in-memory CLI I/O. Not part of the package.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { afterEach, beforeEach } from 'vitest';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CliIo } from '../cli/define.js';

export const FIXTURES = fileURLToPath(new URL('.', import.meta.url));
export const TARGETS = join(FIXTURES, 'targets.mjs');
export const SPEC_FILE = join(FIXTURES, 'spec.toml');

export const SPEC = `target_id = "fixture"
t_unit = "turns"
replicates = 8

[axes.slack]
type = "continuous"
values = [4, 8]

[axes.strictness]
type = "categorical"
values = ["strict"]
`;

/** A fresh directory under the OS temp dir; `cleanup` removes it. */
export async function tempDir(prefix = 'prove-test-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

export async function removeDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

/** Every file under a directory (relative paths, sorted). */
export async function listTree(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string, rel: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        out.push(`${r}/`);
        await walk(join(d, e.name), r);
      } else out.push(r);
    }
  };
  await walk(dir, '');
  return out.sort();
}

/** An in-memory CliIo; `out()` and `err()` return what was written. */
export function memoryIo(opts: { cwd: string; env?: Record<string, string>; isTTY?: boolean; signal?: AbortSignal; confirm?: (q: string) => Promise<boolean>; now?: () => number }): CliIo & { out(): string; err(): string } {
  let stdout = '';
  let stderr = '';
  return {
    stdout: { write: (s: string | Uint8Array) => ((stdout += String(s)), true) },
    stderr: { write: (s: string | Uint8Array) => ((stderr += String(s)), true) },
    isTTY: opts.isTTY ?? false,
    env: opts.env ?? {},
    cwd: opts.cwd,
    ...(opts.signal ? { signal: opts.signal } : {}),
    ...(opts.confirm ? { confirm: opts.confirm } : {}),
    ...(opts.now ? { now: opts.now } : {}),
    out: () => stdout,
    err: () => stderr,
  } as CliIo & { out(): string; err(): string };
}

/** Replaces run ids, times and absolute temp paths so output can be pinned. */
export function normalize(text: string, dirs: Record<string, string> = {}): string {
  let s = text;
  for (const [name, dir] of Object.entries(dirs)) s = s.split(dir).join(`<${name}>`);
  return s
    .replace(/\d{8}T\d{6}Z-[0-9a-f]{4}/g, '<run-id>')
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, '<time>');
}

/**
 * Splits a command line as a POSIX shell does for the words the CLI suggests: blanks separate words;
 * double quotes group, with `\\` escaping `"`, `\\`, `$` and a backquote inside them; nothing else is
 * special (a word the CLI prints is quoted whenever it needs more).
 */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (c === '"') {
      word ??= '';
      for (i++; i < line.length && line[i] !== '"'; i++) {
        if (line[i] === '\\' && /["\\$`]/.test(line[i + 1] ?? '')) i++;
        word += line[i];
      }
      if (i >= line.length) throw new Error(`unterminated quote in ${line}`);
    } else if (c === ' ') {
      if (word !== null) words.push(word);
      word = null;
    } else if (c === '#' && word === null) {
      break; // a comment, as the shell reads it
    } else word = (word ?? '') + c;
  }
  if (word !== null) words.push(word);
  return words;
}

/**
 * A temporary directory made before each test of the suite and removed after it: read `dir` inside
 * the tests.
 */
export function eachTempDir(prefix?: string): { readonly dir: string } {
  const state: { dir?: string } = {};
  beforeEach(async () => {
    state.dir = await tempDir(prefix);
  });
  afterEach(async () => {
    if (state.dir) await removeDir(state.dir);
  });
  return {
    get dir(): string {
      return state.dir as string;
    },
  };
}

/**
 * Every row a run's parts hold, in part order, each with every column as `episodes` gives it: for tests
 * of the writers, whose runs may be closed `complete` without every pair of their design (which
 * `episodes` and `readEpisodes` refuse, as verify reports them).
 */
export async function storedRows(store: string, ref: string): Promise<Record<string, unknown>[]> {
  const { resolveRun } = await import('../store/resolve-run.js');
  const { readRunPart, runParts } = await import('../store/verify-parts.js');
  const { axisTypes, columnOrder } = await import('../store/episode-schema.js');
  const manifest = await resolveRun(store, ref);
  const columns = columnOrder(axisTypes(manifest.axes));
  const out: Record<string, unknown>[] = [];
  for (const part of await runParts(store, manifest)) {
    for (const r of await readRunPart(manifest, part)) out.push(Object.fromEntries(columns.map((c) => [c, r[c] ?? null])));
  }
  return out;
}
