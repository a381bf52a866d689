import { pairedLimits, type LimitContext, type LimitMemo, type Limits } from './limits.js';
import { mcnemarP, pairedSequence, tango, type TestMethod } from './stats.js';
import { tableSize, type PairedTable, type Table } from './tables.js';
import { unpairedInterval, unpairedLimits, unpairedP } from './unpaired.js';

/** The p-value of one table: McNemar (the given method) when paired, Fisher's exact test when not. */
export function pValueOf(t: Table, method: TestMethod): number {
  if (t.kind === 'paired') return tableSize(t) === 0 ? 1 : mcnemarP(t, method);
  return unpairedP(t);
}

/** The limits of one table: at the observed discordance when paired, from Fisher's exact power when not. */
export function limitsOf(t: Table, ctx: LimitContext, memo?: LimitMemo): Limits {
  return t.kind === 'paired' ? pairedLimits(t, ctx, memo) : unpairedLimits(t, ctx, memo);
}

/** The interval on one table's change: Tango's score interval when paired, Newcombe's hybrid score when not. */
export function intervalOf(t: Table, level: number): { lower: number; upper: number; level: number; method: 'tango' | 'newcombe' } {
  if (t.kind === 'paired') {
    if (tableSize(t) === 0) return { lower: -1, upper: 1, level, method: 'tango' };
    const i = tango(t, level);
    return { lower: i.lower, upper: i.upper, level, method: 'tango' };
  }
  const i = unpairedInterval(t, level);
  return { lower: i.lower, upper: i.upper, level, method: 'newcombe' };
}

/**
 * The interval on one paired table's change under `--sequential`: the betting confidence sequence at
 * `level` (poisson-stats `pairedChangeConfidenceSequence`), which a reader may read after every pair and
 * stop at the first time it lies inside the threshold, and keep its level; [-1, 1] with no pairs.
 */
export function sequenceOf(t: PairedTable, level: number): { lower: number; upper: number; level: number; method: 'confidence sequence' } {
  if (tableSize(t) === 0) return { lower: -1, upper: 1, level, method: 'confidence sequence' };
  const i = pairedSequence(t, level);
  return { lower: i.lower, upper: i.upper, level, method: 'confidence sequence' };
}
