import { WORDS } from './relay-data.js';

/** A word of the relay's list other than `right`, chosen by `pick` in [0, WORDS.length - 1) (the noisy policies' wrong token). */
export function wrongWord(right: string, pick: number): string {
  const others = WORDS.filter((w) => w !== right);
  return others[pick % others.length] as string;
}
