// runWorker's timer options (a review, fifth session of 2026-12-07): lockDurationMs and stalledIntervalMs go
// to BullMQ's timers, and Node fires a timer whose delay passes 2^31 - 1 ms after 1 ms (with a
// TimeoutOverflowWarning): a lock that long would expire at once and every job would stall. They are refused
// before Redis is asked, as sweep's timeoutMs and bullmqBackend's pollMs are.
import { describe, expect, it } from 'vitest';
import { runWorker } from './bullmq-worker.js';

describe('runWorker refuses a timer option no timer can wait', () => {
  for (const name of ['lockDurationMs', 'stalledIntervalMs'] as const) {
    it(`${name} above 2147483647 ms`, async () => {
      await expect(runWorker({ redis: 'redis://127.0.0.1:1', [name]: 2 ** 31 })).rejects.toThrow(new RangeError(`runWorker: ${name} must be at most 2147483647 (about 24.8 days, the longest a timer waits), got 2147483648`));
    });
  }
});
