import { createHash } from 'node:crypto';

/** seed(salt, r) = uint32_be(sha256(utf8(`${salt}:${r}`))[0..4]) — the formula of poisson-prove (PROVE.md). */
export function episodeSeed(salt: string, r: number): number {
  return createHash('sha256').update(`${salt}:${r}`, 'utf8').digest().readUInt32BE(0);
}

/** The canonical condition label: axes in name order, `name value` joined by ` · ` (as poisson-prove). */
export function conditionLabel(values: Readonly<Record<string, string | number>>): string {
  return Object.keys(values)
    .sort()
    .map((k) => `${k} ${String(values[k])}`)
    .join(' · ');
}
