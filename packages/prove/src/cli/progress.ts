import { createRequire } from 'node:module';
import type { SweepProgress } from '../executor/execute.js';
import type { CliIo } from './define.js';

/** A progress bar on stderr (done/total, rate, ETA), only when stderr is a terminal and not --json. */
export function progressBar(io: CliIo, enabled: boolean): { update(p: SweepProgress): void; stop(): void } {
  const tty = io.stderr.isTTY ?? io.isTTY;
  if (!enabled || !tty) return { update() {}, stop() {} };
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
