// Vitest's global setup: every test file, its workers and the processes they start make their temporary
// files under one directory of this run (TMPDIR), removed when the run ends, so that `npm test` leaves
// nothing in the machine's temporary directory (it left some hundreds of stores a run before).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup() {
  const dir = mkdtempSync(join(tmpdir(), 'poisson-test-'));
  process.env['TMPDIR'] = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
