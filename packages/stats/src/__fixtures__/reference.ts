// Typed access to the committed reference fixtures (written by gen.R and gen.py beside this file).
import { readFileSync } from 'node:fs';

/** JSON cannot hold infinities; gen.R writes them as strings and missing values (R's NA) as null. */
export type JsonNumber = number | 'Infinity' | '-Infinity' | null;

export function num(value: JsonNumber): number {
  if (value === 'Infinity') return Infinity;
  if (value === '-Infinity') return -Infinity;
  if (value === null) return NaN;
  return value;
}

export type Table = { both: number; fall: number; rise: number; neither: number };

export type RReference = {
  rVersion: string;
  mcnemar: Array<Table & {
    exact: number; midp: number;
    asymptotic: JsonNumber; asymptoticStatistic: JsonNumber;
    asymptoticCc: JsonNumber; asymptoticCcStatistic: JsonNumber;
  }>;
  tango: Array<Table & { level: number; estimate: number; lower: number; upper: number }>;
  padjust: Array<{ p: number[]; holm: number[]; BH: number[]; bonferroni: number[] }>;
  critical: Array<{ method: 'exact' | 'midp' | 'asymptotic' | 'asymptotic-cc'; alpha: number; kStar: number }>;
  power: Array<{ n: number; alpha: number; change: number; method: 'exact' | 'midp' | 'asymptotic' | 'asymptotic-cc'; power: number }>;
  mde: Array<{ n: number; alpha: number; power: number; method: 'exact' | 'midp'; mde: JsonNumber }>;
  fisher: Array<{ a: number; b: number; c: number; d: number; pValue: number }>;
  newcombe: Array<{ x1: number; n1: number; x2: number; n2: number; level: number; estimate: number; lower: number; upper: number }>;
  wilson: Array<{ x: number; n: number; level: number; estimate: number; lower: number; upper: number }>;
  unpairedPower: Array<{ n1: number; n2: number; p1: number; p2: number; alpha: number; power: number; source: string }>;
  unpairedMde: Array<{ n1: number; n2: number; p1: number; alpha: number; power: number; direction: 'rise' | 'fall'; mde: JsonNumber }>;
  normal: { p: number[]; qnorm: number[]; x: number[]; chisqUpper: number[] };
};

export type StatsmodelsReference = {
  statsmodels: string;
  mcnemar: Array<Table & {
    exact: number; exactStatistic: number;
    asymptotic?: number; asymptoticStatistic?: number; asymptoticCc?: number; asymptoticCcStatistic?: number;
  }>;
  multipletests: Array<{ p: number[]; holm: number[]; BH: number[]; bonferroni: number[] }>;
};

/** discordant-power.json, written by discordant-power.gen.R. */
export type DiscordantReference = {
  rVersion: string;
  power: Array<{ n: number; change: number; discordance: number; alpha: number; method: 'exact' | 'midp' | 'asymptotic' | 'asymptotic-cc'; power: number }>;
  mde: Array<{ n: number; discordance: number; alpha: number; power: number; method: 'exact' | 'midp' | 'asymptotic' | 'asymptotic-cc'; mde: JsonNumber }>;
  /** The limit when the discordance moves with the change: psi(d) = min(1, max(psi^, d, base + slope d)). */
  mdeSlope: Array<{ n: number; discordance: number; base: number; slope: number; alpha: number; power: number; method: 'exact' | 'midp' | 'asymptotic' | 'asymptotic-cc'; mde: JsonNumber }>;
  fisherPower: Array<{ n1: number; n2: number; p1: number; p2: number; alpha: number; power: number }>;
};

function load<T>(name: string): T {
  return JSON.parse(readFileSync(new URL(`./${name}`, import.meta.url), 'utf8')) as T;
}

export const R: RReference = load<RReference>('r-reference.json');
export const STATSMODELS: StatsmodelsReference = load<StatsmodelsReference>('statsmodels-reference.json');
export const R_DISCORDANT: DiscordantReference = load<DiscordantReference>('discordant-power.json');
