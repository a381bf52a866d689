import { seedFor } from 'poisson-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseSweepSpec } from '../spec/sweep-spec.js';
import { SPEC, removeDir, tempDir } from '../__fixtures__/helpers.js';
import { createRun } from './create-run.js';
import type { EpisodeRow } from './episode-row.js';
import { inspectRun } from './inspect-run.js';

let dir: string;
beforeEach(async () => {
  dir = await tempDir();
});
afterEach(async () => {
  await removeDir(dir);
});

// spec.toml is the spec it ran: its replicates are the run's (every read checks them against each other).
const SPEC40 = SPEC.replace('replicates = 8', 'replicates = 40');
const spec = parseSweepSpec(SPEC40);

function row(runId: string, r: number, slack: number, outcome: string | null): EpisodeRow {
  return { run_id: runId, condition: `slack ${slack} · strictness strict`, slack, strictness: 'strict', replicate_index: r, seed: seedFor('s', r), outcome, t: 1, score: null, error: null, meta: `{"r":${r}}`, duration_ms: 1 };
}

// A review (fourth session of 2026-12-05): a run whose sweep was SIGKILLed stays `running` in its
// run.json, and inspect showed "status running" with no word that nothing runs it any more.
describe('inspectRun of a run whose status is running', () => {
  it('says whether its writer is alive; the CLI says a dead writer\'s run is resumed with resume', async () => {
    const w = await createRun(dir, { spec, specText: SPEC40, target: 't', salt: 's', maxMde: 0.99, partRows: 8 });
    const id = w.manifest.run_id;
    await w.append(Array.from({ length: 8 }, (_, r) => row(id, r, 4, 'passed')));
    expect((await inspectRun(dir, id)).writer).toBe('alive');
    await w.close('complete');
    expect((await inspectRun(dir, id)).writer).toBeNull();
    // As a SIGKILL leaves it: status running, no lock (or a dead holder's).
    const { readManifest, writeManifest } = await import('./manifest.js');
    await writeManifest(dir, { ...(await readManifest(dir, id)), status: 'running' });
    expect((await inspectRun(dir, id)).writer).toBe('gone');
    const { runCli } = await import('../cli/run-cli.js');
    const { memoryIo } = await import('../__fixtures__/helpers.js');
    const io = memoryIo({ cwd: dir });
    expect(await runCli(['--store', dir, 'inspect', id], io)).toBe(0);
    expect(io.out()).toMatch(new RegExp(`\\nstatus +running \\(no live writer: its process was killed or crashed; poisson-prove --store \\S+ resume ${id} finishes it\\)\\n`));
    // runs too (a review, fifth session of 2026-12-07: it listed the run as `running` like a live one).
    const listed = memoryIo({ cwd: dir });
    expect(await runCli(['--store', dir, 'runs'], listed)).toBe(0);
    expect(listed.out()).toMatch(new RegExp(`${id} +running, writer gone `));
    expect(listed.out()).toMatch(new RegExp(`\\nwriter gone: 1 run marked running whose writer is not alive \\(killed or crashed\\); the command beside it finishes it\\n  ${id}  poisson-prove --store \\S+ resume ${id}\\n`));
  });
});

// A review (third session of 2026-12-07): a sweep killed between placing a part and recording it in
// run.json left a run that inspect refused (exit 2, "was not committed ... resume adopts it"): the one
// command for looking at a broken run would not show it. It now shows what the run recorded, and names
// the part it left out.
/**
 * A run of two parts whose run.json records the first only, status running, no writer: the state a SIGKILL
 * leaves when it lands after the second part is placed and before run.json records it.
 */
async function killedBeforeRecording(): Promise<string> {
  const { readFile, writeFile } = await import('node:fs/promises');
  const { manifestPath } = await import('./layout.js');
  const w = await createRun(dir, { spec, specText: SPEC40, target: 't', salt: 's', maxMde: 0.99, partRows: 8 });
  const id = w.manifest.run_id;
  await w.append(Array.from({ length: 8 }, (_, r) => row(id, r, 4, 'passed')));
  await w.flush();
  const recordedOne = await readFile(manifestPath(dir, id));
  await w.append(Array.from({ length: 8 }, (_, r) => row(id, r + 8, 4, 'failed')));
  await w.close('interrupted');
  await writeFile(manifestPath(dir, id), recordedOne);
  return id;
}

describe('inspectRun of a run whose writer was killed between placing a part and recording it', () => {
  it('shows the recorded rows and names the uncommitted part, which resume adopts', async () => {
    const id = await killedBeforeRecording();
    const r = await inspectRun(dir, id);
    expect(r.writer).toBe('gone');
    expect(r.uncommitted_parts).toEqual(['part-00001.parquet']);
    expect(r.conditions[0]).toEqual({ condition: 'slack 4 · strictness strict', rows: 8, rows_without_outcome: 0, outcomes: { passed: 8 } });
    const { runCli } = await import('../cli/run-cli.js');
    const { memoryIo } = await import('../__fixtures__/helpers.js');
    const io = memoryIo({ cwd: dir });
    expect(await runCli(['--store', dir, 'inspect', id], io)).toBe(0);
    expect(io.out()).toContain(`\nuncommitted   part-00001.parquet: placed by a writer that stopped before recording it, not counted here; poisson-prove --store ${dir} resume ${id} checks it and adopts it\n`);
    // The run page (`view RUN`) says it too: its counts are the recorded parts'.
    const { renderRunPage } = await import('../view/run-page.js');
    const { resumeCommandLine } = await import('./resume-command.js');
    expect(renderRunPage(r, await resumeCommandLine(dir, r.manifest, dir))).toContain(`<p class="note" id="uncommitted"><b>uncommitted</b> part-00001.parquet: placed by a writer that stopped before recording it, not counted here; poisson-prove --store ${dir} resume ${id} checks it and adopts it</p>`);
    const json = memoryIo({ cwd: dir });
    expect(await runCli(['--store', dir, 'inspect', id, '--json'], json)).toBe(0);
    expect(JSON.parse(json.out()).uncommitted_parts).toEqual(['part-00001.parquet']);
    // verify's text names the resume with the store, as the CLI's errors do (the last review: it named
    // `poisson-prove resume ID`, which looks in ./store when pasted).
    const verified = memoryIo({ cwd: dir });
    expect(await runCli(['--store', dir, 'verify', id], verified)).toBe(1);
    expect(verified.out()).toContain(`was not committed (a writer stopped between writing it and recording it); poisson-prove --store ${dir} resume ${id} checks it and adopts it, or remove it.`);
    // The other reads still refuse it until resume has checked the part; resume adopts it.
    expect(await runCli(['--store', dir, 'export', id], memoryIo({ cwd: dir }))).toBe(2);
    const { resume } = await import('../executor/resume.js');
    const t = (): { outcome: string; t: number } => ({ outcome: 'passed', t: 1 }); // named as the run's target
    await resume({ store: dir, ref: id, target: t });
    const after = await inspectRun(dir, id);
    expect(after.uncommitted_parts).toBeUndefined();
    expect(after.conditions[0]?.outcomes).toEqual({ passed: 8 + 24, failed: 8 });
  });

  // The closing review (fourth session of 2026-12-07): a byte-for-byte copy of the uncommitted part was
  // named uncommitted too ("resume checks them and adopts them"), and resume then refused it.
  // A review (2026-12-07): for a run whose module lies outside the working tree, verify's report named
  // `resume ID` without --trust-store, which resume refuses; inspect and the errors now carry it, and so does verify.
  it('verify names the resume with --trust-store when the run\'s module lies outside the working tree', async () => {
    const id = await killedBeforeRecording();
    const { readManifest, writeManifest } = await import('./manifest.js');
    const m = await readManifest(dir, id);
    await writeManifest(dir, { ...m, provenance: { ...m.provenance, target_path: '/elsewhere/targets.mjs' } });
    const { runCli } = await import('../cli/run-cli.js');
    const { memoryIo } = await import('../__fixtures__/helpers.js');
    const verified = memoryIo({ cwd: dir });
    expect(await runCli(['--store', dir, 'verify', id], verified)).toBe(1);
    expect(verified.out()).toContain(`; poisson-prove --store ${dir} resume --trust-store ${id} checks it and adopts it, or remove it.`);
    const inspected = memoryIo({ cwd: dir });
    expect(await runCli(['--store', dir, 'inspect', id], inspected)).toBe(0);
    expect(inspected.out()).toContain(`; poisson-prove --store ${dir} resume --trust-store ${id} checks it and adopts it\n`);
  });

  // --trust-store exists so that a store from elsewhere does not run the module it records unchecked
  // (sixth session of 2026-12-07): the hints carry it only for a run written on this machine, where
  // that module was the one a sweep here ran; for another's, they name resume without it, whose refusal
  // says to check the module first.
  it('names resume without --trust-store for a run written on another machine, whose module must be checked first', async () => {
    const id = await killedBeforeRecording();
    const { readManifest, writeManifest } = await import('./manifest.js');
    const m = await readManifest(dir, id);
    await writeManifest(dir, { ...m, provenance: { ...m.provenance, host: `not-${m.provenance.host}`, target_path: '/elsewhere/targets.mjs' } });
    const { runCli } = await import('../cli/run-cli.js');
    const { memoryIo } = await import('../__fixtures__/helpers.js');
    for (const verb of ['verify', 'inspect', 'runs']) {
      const io = memoryIo({ cwd: dir });
      await runCli(['--store', dir, verb, ...(verb === 'runs' ? [] : [id])], io);
      expect(io.out(), verb).toMatch(new RegExp(`poisson-prove --store \\S+ resume ${id}`));
      expect(io.out() + io.err(), verb).not.toContain('--trust-store');
    }
  });

  it('names a copy of the uncommitted part as a copy to remove, not as a second uncommitted part', async () => {
    const { copyFile } = await import('node:fs/promises');
    const { join } = await import('node:path');
    const id = await killedBeforeRecording();
    await copyFile(join(dir, id, 'episodes', 'part-00001.parquet'), join(dir, id, 'episodes', 'part-00009.parquet'));
    await expect(inspectRun(dir, id)).rejects.toThrow(`the part part-00009.parquet is a byte-for-byte copy of the part part-00001.parquet (the same sha256), which a writer placed and did not record; remove the copy part-00009.parquet.`);
    const { rm } = await import('node:fs/promises');
    await rm(join(dir, id, 'episodes', 'part-00009.parquet'));
    expect((await inspectRun(dir, id)).uncommitted_parts).toEqual(['part-00001.parquet']);
  });

  // The closing review: a file that could not be read (3 GiB; EIO) was named an uncommitted part for
  // resume to adopt, and resume then refused it naming no fix. It is refused as unreadable, with the fix.
  it('refuses an unreadable file among the parts, naming it and the fix, not as an uncommitted part', async () => {
    const { open } = await import('node:fs/promises');
    const { join } = await import('node:path');
    const id = await killedBeforeRecording();
    // A sparse file past 2 GiB: readFile refuses it (ERR_FS_FILE_TOO_LARGE) without reading a byte.
    const f = await open(join(dir, id, 'episodes', 'part-00007.parquet'), 'w');
    await f.truncate(3 * 2 ** 30);
    await f.close();
    await expect(inspectRun(dir, id)).rejects.toThrow('the part part-00007.parquet cannot be read (ERR_FS_FILE_TOO_LARGE): a writer of this run places a part whole and readable, so it cannot be checked as one (check the disk first; resume runs again what it held); remove it.');
  });

  it('a complete run with a part it does not record is still refused (not a stopped writer\'s)', async () => {
    const { writeFile, readFile } = await import('node:fs/promises');
    const { manifestPath } = await import('./layout.js');
    const w = await createRun(dir, { spec, specText: SPEC40, target: 't', salt: 's', maxMde: 0.99, partRows: 8 });
    const id = w.manifest.run_id;
    await w.append(Array.from({ length: 8 }, (_, r) => row(id, r, 4, 'passed')));
    await w.append(Array.from({ length: 8 }, (_, r) => row(id, r + 8, 4, 'failed')));
    await w.close('complete');
    const m = JSON.parse(await readFile(manifestPath(dir, id), 'utf8'));
    await writeFile(manifestPath(dir, id), JSON.stringify({ ...m, parts: m.parts.slice(0, 1), counts: { rows: 8, rows_without_outcome: 0, outcomes: { passed: 8 } } }));
    await expect(inspectRun(dir, id)).rejects.toThrow(/part-00001.parquet holds rows of this run .* its record was lost/);
  });
});

describe('inspectRun', () => {
  it('shows the first `limit` matching episodes by condition then replicate, whatever order the parts hold them in', async () => {
    const w = await createRun(dir, { spec, specText: SPEC40, target: 't', salt: 's', maxMde: 0.99, partRows: 7 });
    const id = w.manifest.run_id;
    const rows: EpisodeRow[] = [];
    for (let r = 39; r >= 0; r--) for (const slack of [8, 4]) rows.push(row(id, r, slack, r % 3 === 0 ? 'failed' : 'passed'));
    await w.append(rows);
    await w.close('complete');
    const seen = await inspectRun(dir, id, { event: 'failed', limit: 3 });
    expect(seen.matching).toBe(28);
    expect(seen.episodes.map((e) => [e.condition, e.replicate_index, e.meta])).toEqual([
      ['slack 4 · strictness strict', 0, { r: 0 }],
      ['slack 4 · strictness strict', 3, { r: 3 }],
      ['slack 4 · strictness strict', 6, { r: 6 }],
    ]);
    expect(seen.conditions.map((c) => [c.condition, c.rows, c.outcomes['failed']])).toEqual([
      ['slack 4 · strictness strict', 40, 14],
      ['slack 8 · strictness strict', 40, 14],
    ]);
    expect((await inspectRun(dir, id, { event: 'failed', limit: 0 })).episodes).toEqual([]);
    const all = await inspectRun(dir, id, { event: 'failed', limit: 100 });
    expect(all.episodes).toHaveLength(28);
    expect(all.episodes.at(-1)).toMatchObject({ condition: 'slack 8 · strictness strict', replicate_index: 39 });
  });

  /** A complete run of 40 replicates x slack 4 and 8, failed on every third replicate. */
  async function failedEveryThird() {
    const w = await createRun(dir, { spec, specText: SPEC40, target: 't', salt: 's', maxMde: 0.99 });
    const id = w.manifest.run_id;
    const rows: EpisodeRow[] = [];
    for (let r = 0; r < 40; r++) for (const slack of [4, 8]) rows.push(row(id, r, slack, r % 3 === 0 ? 'failed' : 'passed'));
    await w.append(rows);
    await w.close('complete');
    return { id, w };
  }

  it('refuses an --event that is a misspelling of a label the run holds (it listed 0 episodes)', async () => {
    const { id, w } = await failedEveryThird();
    for (const [typo, meant] of [['faild', 'failed'], ['Passed', 'passed'], ['failedd', 'failed']] as const) {
      const refused = inspectRun(dir, id, { event: typo });
      await expect(refused).rejects.toMatchObject({ code: 'E_EVENT', exitCode: 2 });
      await expect(inspectRun(dir, id, { event: typo })).rejects.toThrow(`--event ${typo} is an outcome run ${w.manifest.name} does not hold (did you mean "${meant}"?); it holds failed, passed; name one of those, or an event its spec declares.`);
    }
  });

  // A review (2026-12-07): inspect --event nosuch listed "episodes with outcome nosuch: 0" where diff
  // --event nosuch refuses (exit 2) naming the outcomes the runs hold; and a non-string event threw a raw
  // TypeError from inside (name.toLowerCase is not a function).
  it('refuses an --event that no row holds and the spec does not declare, as diff does, naming the outcomes the run holds', async () => {
    const { id, w } = await failedEveryThird();
    for (const absent of ['nosuch', 'truncated', 'timeout']) {
      await expect(inspectRun(dir, id, { event: absent })).rejects.toMatchObject({ code: 'E_EVENT', exitCode: 2 });
      await expect(inspectRun(dir, id, { event: absent })).rejects.toThrow(`--event ${absent} is an outcome run ${w.manifest.name} does not hold; it holds failed, passed; name one of those, or an event its spec declares.`);
    }
    await expect(inspectRun(dir, id, { event: 5 as never })).rejects.toThrow(new TypeError('inspectRun: event must be an outcome label (a string) or null, got 5'));
    await expect(inspectRun(dir, id, { event: ['failed'] as never })).rejects.toThrow(new TypeError('inspectRun: event must be an outcome label (a string) or null, got ["failed"]'));
    expect((await inspectRun(dir, id, { event: 'failed' })).matching).toBe(28);
  });

  // A review (2026-12-07): a limit given as a string read "got 2", hiding that it was the string "2".
  it('shows a bad limit as given, a string quoted', async () => {
    await expect(inspectRun(dir, '#1', { limit: '2' as never })).rejects.toThrow(new RangeError('inspectRun: limit must be an integer >= 0, got "2"'));
    await expect(inspectRun(dir, '#1', { limit: -1 })).rejects.toThrow(new RangeError('inspectRun: limit must be an integer >= 0, got -1'));
  });

  it('says a run none of whose episodes has an outcome holds none', async () => {
    const w = await createRun(dir, { spec, specText: SPEC40, target: 't', salt: 's', maxMde: 0.99 });
    const id = w.manifest.run_id;
    await w.append([0, 1].map((r) => row(id, r, 4, null)));
    await w.close('interrupted');
    await expect(inspectRun(dir, id, { event: 'failed' })).rejects.toThrow(`--event failed is an outcome run ${w.manifest.name} does not hold; it holds none (no episode has an outcome); name an event its spec declares, or inspect without --event for the episodes without an outcome.`);
  });

  it('lists 0 episodes for an event the spec declared, even one close to a label the run holds (it cannot be a misspelling)', async () => {
    const text = SPEC.replace('replicates = 8', 'replicates = 4\nevents = ["failed", "parsed"]');
    const declared = parseSweepSpec(text);
    const w = await createRun(dir, { spec: declared, specText: text, target: 't', salt: 's', maxMde: 0.99 });
    const id = w.manifest.run_id;
    await w.append([0, 1, 2, 3].map((r) => row(id, r, 4, 'passed')));
    await w.close('complete');
    expect((await inspectRun(dir, id, { event: 'parsed' })).matching).toBe(0);
    await expect(inspectRun(dir, id, { event: 'pased' })).rejects.toMatchObject({ code: 'E_EVENT' });
  });
});

// A review (third session of 2026-12-06): diff and export of a SIGKILLed run said "it is still being
// written, or its process died", where inspect knows which. They say which now.
// The first session of 2026-12-07: inspect counts from the condition, outcome and replicate columns
// decoded flat as each part is read (on the read thread too for a large run), where it read them through
// hyparquet as strings; a part the flat decoder does not read still goes through hyparquet. Both ways
// must give the same inspection: the run, and a copy whose run.json has no `parts` (a run written before
// checksums, read through hyparquet only).
describe('inspectRun, decoded flat or through hyparquet', () => {
  it('gives the same counts and episodes both ways, for every event and limit', async () => {
    const { cp, readFile, writeFile } = await import('node:fs/promises');
    const { join } = await import('node:path');
    const { manifestPath } = await import('./layout.js');
    const w = await createRun(dir, { spec, specText: SPEC40, target: 't', salt: 's', maxMde: 0.99, partRows: 11 });
    const id = w.manifest.run_id;
    const outcomes = ['passed', 'failed', null, 'truncated', 'failed'] as const;
    // Conditions interleaved within parts, nulls among the outcomes, replicates out of order.
    const rows = [4, 8].flatMap((slack) => Array.from({ length: 40 }, (_, k) => row(id, (k * 17) % 40, slack, outcomes[(k + slack) % 5] ?? null)));
    await w.append(rows.sort((a, b) => a.replicate_index - b.replicate_index || (a.slack as number) - (b.slack as number)));
    await w.close('complete');
    const old = await tempDir();
    await cp(dir, old, { recursive: true });
    const file = manifestPath(old, id);
    const m = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    delete m['parts'];
    await writeFile(file, `${JSON.stringify(m, null, 2)}\n`);
    let shown = 0;
    for (const event of [undefined, 'passed', 'failed', 'truncated']) {
      for (const limit of [0, 1, 7, 200]) {
        const opts = { ...(event !== undefined ? { event } : {}), limit };
        const flat = await inspectRun(dir, id, opts);
        const { manifest: _a, ...a } = flat;
        const { manifest: _b, ...b } = await inspectRun(old, id, opts);
        expect(a).toEqual(b);
        shown += flat.episodes.length;
        // And what the rows say: the episodes with the outcome (none: without one), the first `limit`
        // of them by condition (the manifest's order) then replicate.
        const want = rows.filter((r) => r.outcome === (event ?? null)).sort((x, y) => (x.slack as number) - (y.slack as number) || x.replicate_index - y.replicate_index);
        expect(flat.matching).toBe(want.length);
        expect(flat.episodes.map((e) => [e.condition, e.replicate_index, e.outcome])).toEqual(want.slice(0, limit).map((r) => [r.condition, r.replicate_index, r.outcome]));
      }
    }
    expect(shown).toBeGreaterThan(60);
    await removeDir(old);
    // The counts are the rows': 80 episodes, 16 without an outcome.
    const all = await inspectRun(dir, id);
    expect(all.conditions.reduce((n, c) => n + c.rows, 0)).toBe(80);
    expect(all.conditions.reduce((n, c) => n + c.rows_without_outcome, 0)).toBe(16);
    expect(all.matching).toBe(16);
  });
});

describe('diff and export of a run whose status is running', () => {
  it('say whether its writer is alive or gone', async () => {
    const { runCli } = await import('../cli/run-cli.js');
    const { memoryIo } = await import('../__fixtures__/helpers.js');
    const { readManifest, writeManifest } = await import('./manifest.js');
    const w = await createRun(dir, { spec, specText: SPEC40, target: 't', salt: 's', maxMde: 0.99, partRows: 8 });
    const id = w.manifest.run_id;
    await w.append(Array.from({ length: 8 }, (_, r) => row(id, r, 4, 'passed')));
    await w.flush();
    const said = async (args: string[]): Promise<string> => {
      const io = memoryIo({ cwd: dir });
      expect(await runCli(['--store', dir, ...args], io)).toBe(2);
      return io.err();
    };
    expect(await said(['export', id])).toContain('its writer is alive (still sweeping): wait for it to end');
    const other = await createRun(dir, { spec, specText: SPEC40, target: 't', salt: 's', maxMde: 0.99 });
    const otherId = (await other.close('interrupted')).run_id;
    expect(await said(['diff', id, otherId])).toContain('its writer is alive (still sweeping): wait for it to end');
    await w.close('complete');
    await writeManifest(dir, { ...(await readManifest(dir, id)), status: 'running' }); // as a SIGKILL leaves it
    expect(await said(['export', id])).toContain(`no live writer: its process was killed or crashed; poisson-prove --store ${dir} resume ${id} finishes it`);
    expect(await said(['diff', id, otherId])).toContain('no live writer: its process was killed or crashed');
  });
});

// A review (evening of 2026-12-06): with .lock deleted under a live sweep, inspect said "no live writer:
// its process was killed or crashed; ... resume finishes it", and resume said "still running in process
// N". inspect reads the writer its manifest records too, as resume does.
describe('inspectRun of a running run whose lock is gone and whose recorded writer runs', () => {
  it('calls its writer alive, as resume refuses it; gone once that process ends', async () => {
    const { spawn } = await import('node:child_process');
    const { once } = await import('node:events');
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000); process.stdout.write("up")'], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      await once(child.stdout, 'data'); // the writer runs before the run begins (a later process would reuse its pid)
      const w = await createRun(dir, { spec, specText: SPEC40, target: 't', salt: 's', maxMde: 0.99, partRows: 8 });
      const id = w.manifest.run_id;
      await w.append(Array.from({ length: 8 }, (_, r) => row(id, r, 4, 'passed')));
      await w.close('complete');
      const { readManifest, writeManifest } = await import('./manifest.js');
      const m = await readManifest(dir, id);
      await writeManifest(dir, { ...m, status: 'running', provenance: { ...m.provenance, pid: child.pid as number } });
      expect((await inspectRun(dir, id)).writer).toBe('alive');
      const { resume } = await import('../executor/resume.js');
      await expect(resume({ store: dir, ref: id, target: () => ({ outcome: 'passed', t: 1 }) })).rejects.toThrow(`is still running in process ${child.pid}`);
      child.kill('SIGKILL');
      await once(child, 'exit');
      expect((await inspectRun(dir, id)).writer).toBe('gone');
    } finally {
      child.kill('SIGKILL');
    }
  });
});

