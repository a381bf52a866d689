import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { processAlive, processStartMs } from './process-alive.js';

describe('processAlive', () => {
  it('is true for this process and false for a child that has exited', () => {
    expect(processAlive(process.pid)).toBe(true);
    const child = spawnSync(process.execPath, ['-e', '0']);
    expect(child.status).toBe(0);
    expect(typeof child.pid).toBe('number');
    expect(processAlive(child.pid as number)).toBe(false);
  });

  // A review (fifth session of 2026-12-05): a killed writer's pid, reused by an unrelated live process,
  // blocked resume for good (it advised stopping that process). On Linux the process's start time tells.
  it.runIf(existsSync('/proc/self/stat'))('is false for a live process that started after the time given (a reused pid), true for one that started before', async () => {
    const child = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      await new Promise((r) => child.once('spawn', r));
      const pid = child.pid as number;
      const start = processStartMs(pid) as number;
      expect(Math.abs(start - Date.now())).toBeLessThan(5_000);
      expect(processAlive(pid)).toBe(true);
      expect(processAlive(pid, new Date(Date.now() - 3_600_000).toISOString())).toBe(false);
      expect(processAlive(pid, new Date().toISOString())).toBe(true);
      // The time given cannot be read: the old answer.
      expect(processAlive(pid, 'not a time')).toBe(true);
    } finally {
      child.kill();
    }
  });
});
