import type { DiscordantGroup, DiscordantPair, DiscordantPairs, PairSide } from './pairs.js';
import { textTable } from './text-table.js';
import { requireArgument } from 'poisson-core';

function tText(t: number | null): string {
  return t === null ? '-' : String(t);
}

/** The pair's replicate index; for two imports whose sample B holds at another index, `A/B`. */
function replicateText(p: DiscordantPair): string {
  const b = p.after.replicate_index;
  return b === undefined || b === p.replicate_index ? String(p.replicate_index) : `${p.replicate_index}/${b}`;
}

/** A settled listing's pairs left for a later read (pairs.ts `waiting`), as words after the counts; '' when none. */
export function waitingText(g: DiscordantGroup): string {
  const w = g.waiting;
  if (w === undefined || w.rise + w.fall === 0) return '';
  return `; ${w.rise} rise, ${w.fall} fall written after the first replicate a run lacks wait for a later read (--sequential)`;
}

function metaLine(s: PairSide): string {
  return s.meta === null || s.meta === undefined ? '-' : JSON.stringify(s.meta);
}

/**
 * The discordant pairs as text (`diff --show pairs`): per condition x event, the counts, then one line
 * per listed pair (replicate, seed, outcome and t in A and in B, error) and each side's meta as compact
 * JSON on the lines below it (two imports pair by sample identity: the replicate reads `A/B` when run B
 * holds the sample at another index, and each meta names the sample); the cached answers only when they were read (`--private`).
 * A settled listing (`diff --sequential` of a run still being written) says after each group's counts how
 * many discordant pairs wait for a later read.
 *
 * @param pairs - from `readDiscordantPairs`.
 * @returns the text, ending in a newline.
 */
export function formatPairsText(pairs: DiscordantPairs): string {
  requireArgument('formatPairsText', 'pairs', pairs, 'object', 'what discordantPairs returns');
  const out: string[] = [];
  const head = `discordant pairs  the seeds whose event happened in one run only (rise: after, not before; fall: before, not after); at most ${pairs.limit} listed per condition x event${pairs.private ? '; cached answers included (--private)' : ''}`;
  out.push(head);
  if (pairs.changed_since_diff === true) {
    // The page's command reads as this listing did: its events, and --sequential for a settled listing
    // (a review: without it the note sent a --sequential reader to a fixed-n look).
    const events = [...new Set(pairs.groups.map((g) => g.event))].flatMap((e) => ['--event', JSON.stringify(e)]);
    const view = ['poisson-prove view', JSON.stringify(pairs.before.name), JSON.stringify(pairs.after.name), '--partial', ...events, ...(pairs.settled === true ? ['--sequential'] : [])].join(' ');
    const counts = pairs.settled === true ? '' : ", and its counts may be this read's, not the rows'";
    out.push(`note: a run changed between the diff's read and this listing's (it is still being written): the listing holds only the rows' conditions${counts}; ${view} lists the pairs from its report's own read`);
  }
  if (!pairs.paired) {
    out.push(`none: the runs are not paired (${pairs.unpaired_reason ?? 'they do not share seeds'})`);
    return `${out.join('\n')}\n`;
  }
  for (const g of pairs.groups) {
    out.push('');
    out.push(`${g.condition}  ${g.event}: ${g.rise} rise, ${g.fall} fall${g.truncated ? ` (first ${g.pairs.length} listed)` : ''}${waitingText(g)}`);
    if (g.pairs.length === 0) continue;
    const rows: string[][] = [['', 'replicate', 'seed', 'A', 'B', 't A', 't B', 'error A', 'error B']];
    for (const p of g.pairs) {
      rows.push([p.direction, replicateText(p), p.seed, p.before.outcome, p.after.outcome, tText(p.before.t), tText(p.after.t), p.before.error ?? '-', p.after.error ?? '-']);
    }
    const lines = textTable(rows);
    out.push(`  ${lines[0] ?? ''}`);
    g.pairs.forEach((p, i) => {
      out.push(`  ${lines[i + 1] ?? ''}`);
      out.push(`      meta A  ${metaLine(p.before)}`);
      out.push(`      meta B  ${metaLine(p.after)}`);
      if (pairs.private) {
        out.push(`      answer A  ${p.before.answer == null ? '-' : JSON.stringify(p.before.answer)}`);
        out.push(`      answer B  ${p.after.answer == null ? '-' : JSON.stringify(p.after.answer)}`);
      }
    });
  }
  return `${out.join('\n')}\n`;
}
