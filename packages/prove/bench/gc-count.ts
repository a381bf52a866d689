// The main thread's garbage collections, counted for the executor's benchmarks from node:perf_hooks
// 'gc' entries (delivered a tick or two after each collection: read them with gcSoFar, which waits for them).
import { constants, PerformanceObserver } from 'node:perf_hooks';

/** Scavenges (minor) and mark-compacts (major): their count and their pause time in ms. */
export type GcCount = { minor: number; minorMs: number; major: number; majorMs: number };

const total: GcCount = { minor: 0, minorMs: 0, major: 0, majorMs: 0 };
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    const kind = (e as { detail?: { kind?: number } }).detail?.kind;
    if (kind === constants.NODE_PERFORMANCE_GC_MINOR) {
      total.minor++;
      total.minorMs += e.duration;
    } else if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) {
      total.major++;
      total.majorMs += e.duration;
    }
  }
}).observe({ entryTypes: ['gc'] });

/** The collections since this module was loaded, after the ones already done have been delivered. */
export async function gcSoFar(): Promise<GcCount> {
  await new Promise((r) => setImmediate(r));
  await new Promise((r) => setImmediate(r));
  return { ...total };
}

/** The collections between two {@link gcSoFar} readings. */
export function gcBetween(a: GcCount, b: GcCount): GcCount {
  return { minor: b.minor - a.minor, minorMs: b.minorMs - a.minorMs, major: b.major - a.major, majorMs: b.majorMs - a.majorMs };
}
