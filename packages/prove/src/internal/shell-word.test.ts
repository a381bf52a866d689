import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { shellRef } from './shell-word.js';

/** What an interactive bash (history expansion on) prints for `printf '<%s>' WORD`, the word quoted by shellRef. */
function echoed(word: string): string {
  const r = spawnSync('bash', ['--norc', '--noprofile', '-i'], { input: `printf '<%s>\\n' ${shellRef(word)}\n`, encoding: 'utf8', env: { PATH: process.env['PATH'] ?? '', HOME: '/nonexistent', PS1: '' } });
  return (r.stdout.match(/<[\s\S]*>/) ?? ['(no output) ' + r.stderr])[0];
}

// A review (evening of 2026-12-06): a word holding `!` (an outcome label) was put in double quotes, and an
// interactive bash, into which the heatmap note's command is pasted, refused it: "!x: event not found".
describe('shellRef', () => {
  it('gives back every word as is through an interactive bash: `!`, quotes, $, backquotes, spaces', () => {
    for (const w of ["a'$(touch /tmp/x)'`id`!x", 'a!x', "it's", 'two words', '$HOME', 'back\\slash', 'plain-word_1.0', '#first']) {
      expect(echoed(w)).toBe(`<${w}>`);
    }
  });
  it('leaves safe words bare', () => {
    expect(shellRef('slack:4,model=m@v1')).toBe('slack:4,model=m@v1');
  });
});
