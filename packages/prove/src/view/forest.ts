import { goodness, riseIsGood } from '../diff/direction.js';
import { shownBidi } from '../internal/bidi.js';
import { distinctAbbreviations } from '../diff/distinct-abbreviations.js';
import { textWidth } from '../diff/svg.js';
import { fmtChange, fmtInterval, printDecimals } from '../diff/text-table.js';
import type { DiffReport, DiffRow } from '../diff/types.js';
import { escapeHtml } from './escape.js';

/** The forest plot's colours: ColorBrewer RdBu's ends (better blue, worse red) and a grey for no change. */
export const FOREST_COLOURS = Object.freeze({ better: '#2166ac', worse: '#b2182b', none: '#555555', band: '#eef0f3', limit: '#8a5a00' });

/** The colour of a row's change: better, worse or none, by the event's direction (direction.ts), not the sign. */
export function changeColour(row: Pick<DiffRow, 'event' | 'change'>): string {
  const g = goodness(row.event, row.change);
  return g > 0 ? FOREST_COLOURS.better : g < 0 ? FOREST_COLOURS.worse : FOREST_COLOURS.none;
}

/** A condition label shown whole up to 64 characters, else its first 60 and an ellipsis (the full label is the tooltip). */
function shortLabel(s: string): string {
  if (s.length <= 64) return s;
  // Cut between code points: a surrogate pair cut in two showed as a replacement character.
  const cut = /[\uD800-\uDBFF]/.test(s[59] ?? '') ? 59 : 60;
  return `${s.slice(0, cut)}\u2026`;
}

/** The most characters of one part (`axis value`) of a label when labels cut at 60 would read alike. */
const PART_MAX = 40;

/**
 * The labels as shown: {@link shortLabel}'s when they tell the labels apart; else each part (`axis
 * value`) longer than 40 characters is cut where the values of its axis differ
 * (`distinctAbbreviations`), so that long prompt-like values differing only at their end, and the other
 * axes after them, stay readable.
 */
export function shortLabels(labels: readonly string[]): string[] {
  const usual = labels.map(shortLabel);
  if (new Set(usual).size === new Set(labels).size) return usual;
  const split = labels.map((l) => l.split(' · '));
  const axisOf = (part: string): string => part.split(' ')[0] as string;
  const values = new Map<string, string[]>();
  for (const part of split.flat()) values.set(axisOf(part), [...(values.get(axisOf(part)) ?? []), part]);
  const shown = new Map<string, string>();
  for (const parts of values.values()) {
    const distinct = [...new Set(parts)];
    distinctAbbreviations(distinct, PART_MAX).forEach((a, i) => shown.set(distinct[i] as string, a));
  }
  return split.map((parts) => parts.map((p) => shown.get(p) ?? p).join(' · '));
}

/**
 * Condition labels without the parts (`axis value`) every label shares, so that a label shows what
 * tells it apart; a label left empty (one condition) keeps all its parts.
 */
export function distinctParts(labels: readonly string[]): string[] {
  const split = labels.map((l) => l.split(' · '));
  const common = new Set((split[0] ?? []).filter((p) => labels.length > 1 && split.every((s) => s.includes(p))));
  return split.map((parts, i) => {
    const kept = parts.filter((p) => !common.has(p));
    return kept.length > 0 ? kept.join(' · ') : (labels[i] as string);
  });
}

/**
 * The forest plot of a diff: one line per condition x event, its change (after - before) as a dot on
 * its simultaneous interval, over a shaded band of ±threshold (the change the runs were designed to be
 * able to show), with the row's limits as ticks (the rise limit at +limit, the fall limit at -limit).
 * A dot is blue when the change is for the better, red for the worse (by the event's direction:
 * `passed` rising is better, a failure event rising is worse), grey at 0; filled when it counts toward
 * the verdict (Holm), hollow otherwise. Every row is a `<g class="forest-row" data-row="i">` so the
 * page can select its condition.
 *
 * @param report - the diff.
 * @returns an SVG element (for inline use in the page).
 */
export function renderForestSvg(report: DiffReport): string {
  const rows = report.rows;
  const decimals = printDecimals(report.threshold);
  const shown = distinctParts(rows.map((r) => r.condition));
  const short = shortLabels(shown);
  const labels = rows.map((r, i) => `${short[i] as string} (${r.event})`);
  // Sized as shown: a bidirectional control is drawn as its code point, 8 characters (internal/bidi.ts).
  const labelW = Math.max(120, ...labels.map((l) => textWidth(shownBidi(l), 12)));
  const plotW = 420;
  const pad = 12;
  const rowH = 22;
  const top = 46;
  const left = pad + labelW + 12;
  const limits = rows.flatMap((r) => [r.limit_rise, r.limit_fall]).filter((x): x is number => typeof x === 'number');
  const span = Math.min(1, Math.max(0.1, report.threshold, ...limits, ...rows.flatMap((r) => [Math.abs(r.interval.lower), Math.abs(r.interval.upper)]).filter(Number.isFinite)));
  const end = Math.min(1, Math.ceil(span * 10 - 1e-9) / 10);
  const xOf = (v: number): number => left + ((Math.max(-end, Math.min(end, v)) + end) / (2 * end)) * plotW;
  const events = [...new Set(rows.map((r) => r.event))];
  const words = events.map((e) => `${e} ${riseIsGood(e) ? 'rising is better' : 'rising is worse'}`).join('; ');
  const legend = `blue: better, red: worse (${words}); filled: counts toward the verdict; band: ±${report.threshold} (threshold); ▼: the limits`;
  const height = top + rows.length * rowH + 56;
  const width = Math.max(left + plotW + 150, 2 * pad + textWidth(legend, 11));
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" class="forest" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Helvetica, Arial, sans-serif" font-size="12" role="group" aria-label="forest plot of each condition's change">`);
  // The ±threshold band and the zero line.
  const t = Math.min(report.threshold, end);
  out.push(`<rect x="${xOf(-t)}" y="${top - 6}" width="${xOf(t) - xOf(-t)}" height="${rows.length * rowH + 6}" fill="${FOREST_COLOURS.band}"/>`);
  out.push(`<line x1="${xOf(0)}" y1="${top - 8}" x2="${xOf(0)}" y2="${top + rows.length * rowH}" stroke="#999" stroke-dasharray="3 3"/>`);
  out.push(`<text x="${left}" y="16" font-weight="bold">change (after - before) with its simultaneous ${report.method.interval === 'newcombe' ? 'Newcombe interval' : report.method.interval === 'confidence sequence' ? 'confidence sequence' : 'Tango interval'}</text>`);
  out.push(`<text x="${left + plotW + 10}" y="34" fill="#555">change, verdict</text>`);
  rows.forEach((r, i) => {
    const y = top + i * rowH + rowH / 2;
    const colour = changeColour(r);
    // A button each (the svg is a group, not an img, whose children a screen reader would not meet), named by
    // its condition, event, change and verdict; the page's script acts on Enter and Space.
    // (Runs that are not paired have no discordant pairs: the name does not promise them; a review.) The change
    // at the threshold's decimals, as the line's text writes it (it was rounded to 3: "0.000" beside "0.00000").
    const name = `${r.condition}, ${r.event}: change ${Number.isFinite(r.change) ? fmtChange(r.change, decimals) : 'none (no pairs)'}, ${r.verdict}${report.method.paired ? '; shows its discordant pairs' : ''}`;
    out.push(`<g class="forest-row" data-row="${i}" tabindex="0" role="button" aria-label="${escapeHtml(name)}">`);
    out.push(`<rect class="hit" x="0" y="${y - rowH / 2}" width="${width}" height="${rowH}" fill="transparent"/>`);
    out.push(`<text x="${left - 8}" y="${y + 4}" text-anchor="end"><title>${escapeHtml(r.condition)}</title>${escapeHtml(labels[i])}</text>`);
    for (const [lim, sign] of [[r.limit_rise, 1], [r.limit_fall, -1]] as const) {
      if (typeof lim !== 'number') continue;
      const lx = xOf(sign * lim);
      out.push(`<path d="M${lx} ${y - 7} l-4 -5 h8 z" fill="${FOREST_COLOURS.limit}"><title>${escapeHtml(`${sign > 0 ? 'rise' : 'fall'} limit ${lim}`)}</title></path>`);
    }
    if (![r.change, r.interval.lower, r.interval.upper].every(Number.isFinite)) {
      out.push(`<text x="${xOf(0)}" y="${y + 4}" text-anchor="middle" fill="#666">no pairs to compare</text>`);
      out.push(`<text x="${left + plotW + 10}" y="${y + 4}" fill="#666">${escapeHtml(`- ${r.verdict}`)}</text>`);
      out.push('</g>');
      return;
    }
    const lo = xOf(r.interval.lower);
    const hi = xOf(r.interval.upper);
    out.push(`<line x1="${lo}" y1="${y}" x2="${hi}" y2="${y}" stroke="${colour}" stroke-width="2"/>`);
    out.push(`<line x1="${lo}" y1="${y - 4}" x2="${lo}" y2="${y + 4}" stroke="${colour}" stroke-width="2"/><line x1="${hi}" y1="${y - 4}" x2="${hi}" y2="${y + 4}" stroke="${colour}" stroke-width="2"/>`);
    const cx = xOf(r.change);
    out.push(`<circle cx="${cx}" cy="${y}" r="5" fill="${r.counts_toward_verdict ? colour : '#ffffff'}" stroke="${colour}" stroke-width="2"><title>${escapeHtml(`${fmtChange(r.change, decimals)} ${fmtInterval(r.interval, decimals)}`)}</title></circle>`);
    out.push(`<text x="${left + plotW + 10}" y="${y + 4}" fill="${colour}">${escapeHtml(`${fmtChange(r.change, decimals)} ${r.verdict}`)}</text>`);
    out.push('</g>');
  });
  // The axis.
  const ay = top + rows.length * rowH + 6;
  out.push(`<line x1="${left}" y1="${ay}" x2="${left + plotW}" y2="${ay}" stroke="#333"/>`);
  for (const v of [-end, -end / 2, 0, end / 2, end]) {
    out.push(`<line x1="${xOf(v)}" y1="${ay}" x2="${xOf(v)}" y2="${ay + 5}" stroke="#333"/><text x="${xOf(v)}" y="${ay + 18}" text-anchor="middle" font-size="11">${fmtChange(v)}</text>`);
  }
  out.push(`<text x="${pad}" y="${ay + 40}" font-size="11" fill="#333">${escapeHtml(legend)}</text>`);
  out.push('</svg>');
  return out.join('\n');
}
