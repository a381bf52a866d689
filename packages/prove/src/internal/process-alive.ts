// Whether a process of this host is alive, by signal 0 (nothing is sent). Used by the run lock (a holder
// whose process is gone is stale) and by resume (a run still marked running in a live process).

/** Whether process `pid` exists on this host: signal 0 succeeds, or fails with EPERM (alive, not ours). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
