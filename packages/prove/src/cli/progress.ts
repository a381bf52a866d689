import { createRequire } from 'node:module';
import type { SweepProgress } from '../executor/execute.js';
import type { CliIo, OptionDef } from './define.js';

/** How often, at most, a status line is written when stderr is not a terminal. */
export const STATUS_INTERVAL_MS = 10_000;

/** The `--quiet` option of sweep, resume and extend. */
export const QUIET_OPTION: OptionDef = Object.freeze({
  type: 'boolean',
  description: 'No progress on stderr: neither the bar (on a terminal) nor the status lines (elsewhere: one at most every 10 s and one at the end). --json implies it.',
});

/** What sweep, resume and extend report progress to. */
export type ProgressReporter = { update(p: SweepProgress): void; stop(): void };

/** `42 s`, `4 min 12 s`, `1 h 02 min`. */
export function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
  return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')} min`;
}

/**
 * One status line: `sweep: 120/400 episodes, 12.3 episodes/s, ETA 23 s, 2 without an outcome, 5400 tokens billed`;
 * the last one (`final`) gives the time taken instead of the ETA.
 */
export function statusLine(verb: string, p: SweepProgress, final: boolean): string {
  const parts = [`${verb}: ${p.done}/${p.total} episodes${final ? ` in ${duration(p.elapsed_ms)}` : ''}`, `${p.rate.toFixed(1)} episodes/s`];
  if (!final && Number.isFinite(p.eta_ms)) parts.push(`ETA ${duration(p.eta_ms)}`);
  parts.push(`${p.rows_without_outcome} without an outcome`);
  if (p.billed_tokens !== null) parts.push(`${p.billed_tokens} tokens billed`);
  return `${parts.join(', ')}\n`;
}

/**
 * Progress on stderr for sweep, resume and extend. On a terminal: a bar (done/total, rate, ETA, rows
 * without an outcome), redrawn in place and cleared at the end. Elsewhere (a log file, CI): a
 * {@link statusLine} at most every {@link STATUS_INTERVAL_MS} (timed by `io.now`, so tests inject a
 * clock), and one at the end. Nothing when `enabled` is false (--quiet, or --json on a terminal).
 *
 * @param io - where to write; `io.now` is the clock (default `performance.now`).
 * @param verb - the verb the lines name.
 * @param enabled - whether to report at all.
 */
export function progressReporter(io: CliIo, verb: string, enabled: boolean): ProgressReporter {
  if (!enabled) return { update() {}, stop() {} };
  const tty = io.stderr.isTTY ?? io.isTTY;
  return tty ? progressBar(io) : statusLines(io, verb);
}

function statusLines(io: CliIo, verb: string): ProgressReporter {
  const now = io.now ?? (() => performance.now());
  let last = now();
  let latest: SweepProgress | null = null;
  return {
    update(p) {
      latest = p;
      const t = now();
      if (t - last >= STATUS_INTERVAL_MS && p.done < p.total) {
        last = t;
        io.stderr.write(statusLine(verb, p, false));
      }
    },
    stop() {
      if (latest !== null) io.stderr.write(statusLine(verb, latest, true));
    },
  };
}

function progressBar(io: CliIo): ProgressReporter {
  // Loaded only here, on a terminal: a piped or --json run never loads the bar.
  const cliProgress = createRequire(import.meta.url)('cli-progress') as typeof import('cli-progress');
  const bar = new cliProgress.SingleBar(
    {
      stream: io.stderr as NodeJS.WritableStream,
      format: '{bar} {value}/{total} episodes | {rate}/s | ETA {eta_formatted} | {failed} without an outcome',
      hideCursor: true,
      clearOnComplete: true,
      etaBuffer: 50,
      fps: 5,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update(p) {
      const payload = { rate: p.rate.toFixed(1), failed: p.rows_without_outcome };
      if (!started) {
        bar.start(p.total, p.done, payload);
        started = true;
      } else bar.update(p.done, payload);
    },
    stop() {
      if (started) bar.stop();
    },
  };
}
