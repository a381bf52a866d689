import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { processAlive } from './process-alive.js';

describe('processAlive', () => {
  it('is true for this process and false for a child that has exited', () => {
    expect(processAlive(process.pid)).toBe(true);
    const child = spawnSync(process.execPath, ['-e', '0']);
    expect(child.status).toBe(0);
    expect(typeof child.pid).toBe('number');
    expect(processAlive(child.pid as number)).toBe(false);
  });
});
