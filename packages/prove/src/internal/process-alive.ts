import { readFileSync } from 'node:fs';

// Whether a process of this host is alive, by signal 0 (nothing is sent). Used by the run lock (a holder
// whose process is gone is stale) and by resume (a run still marked running in a live process).

/**
 * How much later than the time given a process may seem to have started and still be the one meant: the
 * boot time /proc gives is whole seconds, and the wall clock may have been stepped since. Generous, since
 * a live writer judged gone would have its lock taken over.
 */
const START_SLACK_MS = 60_000;

/** Clock ticks per second of /proc/PID/stat (USER_HZ, 100 on Linux's common architectures). */
const USER_HZ = 100;

/**
 * Whether process `pid` exists on this host: signal 0 succeeds, or fails with EPERM (alive, not ours).
 * With `runningAt` (a time the process meant was already running, e.g. when it took a lock), a live
 * process that started more than a minute after it is another one that reuses the pid (the one meant
 * died), and the answer is false; where the start time cannot be read (no /proc) the pid alone answers.
 *
 * @param pid - the process id.
 * @param runningAt - ISO 8601 time (or ms since the epoch) at which the process meant was running.
 */
export function processAlive(pid: number, runningAt?: string | number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM' && !reused(pid, runningAt);
  }
  return !reused(pid, runningAt);
}

/** Whether the live process `pid` started after `runningAt` (so it is not the process meant). */
function reused(pid: number, runningAt: string | number | undefined): boolean {
  if (runningAt === undefined) return false;
  const at = typeof runningAt === 'number' ? runningAt : Date.parse(runningAt);
  const start = processStartMs(pid);
  return Number.isFinite(at) && start !== null && start > at + START_SLACK_MS;
}

let bootSecondsCache: number | null | undefined;

/**
 * When process `pid` started (ms since the epoch, to the second or so), from /proc (Linux): its stat's
 * field 22 (clock ticks after boot) and the boot time of /proc/stat. Null where /proc cannot say.
 *
 * @param pid - the process id.
 */
export function processStartMs(pid: number): number | null {
  if (bootSecondsCache === undefined) {
    try {
      const m = /^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'));
      bootSecondsCache = m?.[1] ? Number(m[1]) : null;
    } catch {
      bootSecondsCache = null;
    }
  }
  if (bootSecondsCache === null) return null;
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // Field 2, the command in parentheses, may hold spaces and ')': the fields after the last ')' are 3, 4, ...
  const ticks = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[22 - 3]);
  return Number.isFinite(ticks) ? (bootSecondsCache + ticks / USER_HZ) * 1000 : null;
}
