import { lstat } from 'node:fs/promises';
import { relative } from 'node:path';
import { StoreError } from '../../errors.js';
import type { StoreScan } from '../../store/list-runs.js';
import { defineCommand } from '../define.js';
import { columns, json, seconds } from '../format.js';
import { Values } from '../values.js';
import { shellRef } from '../../internal/shell-word.js';

/** Refuses a store path that does not exist (exit 2): listing or verifying it would only say "0 runs". */
export async function missingStore(store: string): Promise<void> {
  const st = await lstat(store).catch(() => null);
  if (st === null) throw new StoreError(`the store ${store} does not exist; pass --store with the directory that holds the runs (or set POISSON_STORE), or sweep first.`);
}

/** The lines after the table: the damaged runs and the runs that never started, each in its own section. */
export function unreadableSections(scan: StoreScan): string[] {
  const out: string[] = [];
  if (scan.skipped.length > 0) {
    out.push('', `damaged: ${scan.skipped.length} run director${scan.skipped.length === 1 ? 'y' : 'ies'} that cannot be read (not numbered: #N counts only the runs above)`);
    for (const s of scan.skipped) out.push(`  ${s.dir}  ${s.reason}`);
  }
  if (scan.neverStarted.length > 0) {
    out.push('', `never started: ${scan.neverStarted.length} run director${scan.neverStarted.length === 1 ? 'y' : 'ies'} without a run.json (a sweep killed while creating it); poisson-prove gc removes them`);
    for (const d of scan.neverStarted) out.push(`  ${d}`);
  }
  return out;
}

/** The part files each run's run.json records that are not in its episodes directory (one listing a run). */
async function missingParts(store: string, runs: StoreScan['runs'], unreadable: { run_id: string; why: string }[]): Promise<{ run_id: string; parts: string[] }[]> {
  const { readdir } = await import('node:fs/promises');
  const { episodesDir } = await import('../../store/layout.js');
  const { cannotRead } = await import('../../store/unreadable-file.js');
  const out: { run_id: string; parts: string[] }[] = [];
  for (const r of runs) {
    const recs = Array.isArray(r.parts) ? r.parts : [];
    if (recs.length === 0) continue;
    // An episodes directory this user may not read is not one whose parts are gone (a review: "parts
    // missing" for every part of a run whose episodes were mode 700 of another user).
    const listed = await readdir(episodesDir(store, r.run_id)).catch((err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? [] : err));
    if (listed instanceof Error) {
      unreadable.push({ run_id: r.run_id, why: cannotRead('its episodes directory', (listed as NodeJS.ErrnoException).code ?? listed.message) });
      continue;
    }
    const onDisk = new Set(listed);
    const gone = recs.filter((p) => !onDisk.has(p.file)).map((p) => `${p.file} (${p.rows} rows)`);
    if (gone.length > 0) out.push({ run_id: r.run_id, parts: gone });
  }
  return out;
}

export const runsCommand = defineCommand({
  name: 'runs',
  summary: 'List the store\'s runs, newest first; #N in a run ref is the N-th row. Damaged runs and runs that never started are listed apart, unnumbered.',
  positionals: [],
  options: {
    json: { type: 'boolean', description: 'Print the scan as one JSON object on stdout: `runs` (the manifests, newest first; #N is the N-th), `skipped` (the damaged run directories, each with its reason) and `neverStarted` (directories without a run.json); the last two are also named on stderr.' },
  },
  examples: ['poisson-prove --store example-store/runs runs'],
  async run({ options, store, io }) {
    const v = new Values(options);
    v.done();
    await missingStore(store);
    const { scanRuns } = await import('../../store/list-runs.js');
    const scan = await scanRuns(store);
    const runs = scan.runs;
    // A run whose part files are gone reads as listed here, and every read refuses it: named apart.
    const shownStore = relative(io.cwd, store) || '.';
    const unreadable: { run_id: string; why: string }[] = [];
    const gone = await missingParts(store, runs, unreadable);
    const goneLines = gone.length === 0 ? [] : ['', `parts missing: ${gone.length} run${gone.length === 1 ? ' whose run.json records' : 's whose run.json records'} part files that are not there (every read refuses it); poisson-prove --store ${shellRef(shownStore.startsWith('..') ? store : shownStore)} verify RUN says what else differs`, ...gone.map((g) => `  ${g.run_id}  ${g.parts.join(', ')}`)];
    const unreadLines = unreadable.length === 0 ? [] : ['', `episodes unreadable: ${unreadable.length} run${unreadable.length === 1 ? ' whose episodes directory' : 's whose episodes directories'} this user may not read (every read refuses ${unreadable.length === 1 ? 'it' : 'them'})`, ...unreadable.map((u) => `  ${u.run_id}  ${u.why}`)];
    // Runs marked running whose writer is not alive (a killed sweep leaves that): said, with resume (a
    // review, fifth session of 2026-12-07: runs listed them as `running` like a live one).
    const { liveWriter, recordedWriterAlive } = await import('../../store/run-lock.js');
    const dead = new Set<string>();
    for (const r of runs) if (r.status === 'running' && (await liveWriter(store, r.run_id)) === null && !recordedWriterAlive(r)) dead.add(r.run_id);
    // Each with the resume that finishes it as it works when pasted here: --trust-store where the run's module
    // lies outside the working tree (a review, 2026-12-07: the one line `resume RUN` stopped on the missing flag),
    // for a run written on this machine (trustStoreHinted: another's must have its module checked first).
    const { resumeCommandLine } = await import('../../store/resume-command.js');
    const named = shownStore.startsWith('..') ? store : shownStore;
    const deadRuns = runs.filter((r) => dead.has(r.run_id));
    const deadLines = dead.size === 0 ? [] : ['', `writer gone: ${dead.size} run${dead.size === 1 ? '' : 's'} marked running whose writer is not alive (killed or crashed); the command beside ${dead.size === 1 ? 'it finishes it' : 'each finishes it'}`, ...(await Promise.all(deadRuns.map(async (r) => `  ${r.run_id}  ${await resumeCommandLine(named, r, io.cwd)}`)))];
    const extra = [...unreadableSections(scan), ...goneLines, ...unreadLines, ...deadLines];
    if (v.flag('json')) {
      // The library's object (scanRuns): a script sees the damaged and never-started directories too.
      io.stdout.write(json(scan));
      if (extra.length > 0) io.stderr.write(`${extra.filter((l) => l !== '').map((l) => `note: ${l.trim()}`).join('\n')}\n`);
      return 0;
    }
    const where = shownStore.startsWith('..') ? store : shownStore;
    const unread = scan.skipped.length + scan.neverStarted.length;
    const missing = `${gone.length > 0 ? `; ${gone.length} with part files missing (below)` : ''}${unreadable.length > 0 ? `; ${unreadable.length} with episodes this user may not read (below)` : ''}`;
    io.stdout.write(`ok ${runs.length} run${runs.length === 1 ? '' : 's'} in ${where}${unread > 0 ? `; ${scan.skipped.length} damaged, ${scan.neverStarted.length} never started (below)` : ''}${missing}\n`);
    if (runs.length > 0) {
      const rows = [
        ['#', 'name', 'id', 'status', 'backend', 'target', 'rows', 'rows-without-an-outcome', 'created'],
        ...runs.map((r, i) => [String(i + 1), r.name, r.run_id, dead.has(r.run_id) ? 'running, writer gone' : r.status, typeof r.backend_options?.['queue'] === 'string' ? `${r.backend}:${r.backend_options['queue']}` : r.backend, r.target_id, String(r.counts.rows), String(r.counts.rows_without_outcome), seconds(r.created)]),
      ];
      io.stdout.write(`\n${columns(rows)}\n`);
    }
    if (extra.length > 0) io.stdout.write(`${extra.join('\n')}\n`);
    return 0;
  },
});
