// Every function a barrel exports, called without its arguments or with null in place of the first,
// names what is missing: a review (2026-12-07) found some fifty that stopped with the engine's own
// TypeError ("Cannot read properties of undefined (reading 'x')", "Cannot destructure property 'p' of
// 'options'", "xs is not iterable"), which names neither the argument nor the fix. What is thrown (or
// rejected) must be an Error the package made: a domain error with its stable code, or a TypeError /
// RangeError (STYLE.md) whose message names a parameter or the function (`name: ...`); never one of the
// engine's. Run from the sources (test/vitest.config.ts).
import { describe, expect, it } from 'vitest';
import * as core from 'poisson-core';
import * as models from 'poisson-models';
import * as prove from 'poisson-prove';
import * as stats from 'poisson-stats';
import * as adapter from 'poisson-tasks/adapter';
import * as tasks from 'poisson-tasks';

const BARRELS: Record<string, Record<string, unknown>> = { core, stats, tasks, 'tasks/adapter': adapter, prove, models };

/** Calls that may return: no argument is what the function takes, or null reads as "no options". */
const VALID: Record<string, string> = {
  'core.shown()': 'renders any value, undefined included',
  'core.shown(null)': 'renders any value',
  'core.canonicalJson(null)': 'null is JSON',
  'prove.canonicalJson(null)': 'null is JSON',
  'tasks.isKnobName()': 'a type guard over unknown',
  'tasks.isKnobName(null)': 'a type guard over unknown',
  'tasks.relayTools()': 'takes no argument',
  'tasks.relayTools(null)': 'takes no argument',
  'prove.randomSalt()': 'takes no argument',
  'prove.randomSalt(null)': 'takes no argument',
  'prove.localBackend()': 'takes no argument',
  'prove.localBackend(null)': 'takes no argument',
  'prove.workerBackend()': 'its options are optional',
  'prove.redactRedisUrl()': 'renders whatever it is given inside an error message, so never throws',
  'prove.redactRedisUrl(null)': 'renders whatever it is given inside an error message, so never throws',
  'models.retryAfterMs()': 'a response without headers has no Retry-After',
  'models.retryAfterMs(null)': 'a response without headers has no Retry-After',
};

/** The engine's own messages for a property read, a destructuring, a call or a loop over a missing value. */
const ENGINE = /Cannot read properties of|Cannot destructure|is not a function|is not iterable|Cannot convert undefined or null|Invalid value used as weak map key|is not a constructor|^The "\w+" argument must be/;

const isClass = (f: unknown): boolean => typeof f === 'function' && /^class[\s{]/.test(Function.prototype.toString.call(f));

/** The names of the parameters, read from the function's source (a destructured one reads as `options`). */
function parameters(f: (...args: unknown[]) => unknown): string[] {
  const source = Function.prototype.toString.call(f);
  const open = source.indexOf('(');
  const names: string[] = [];
  let depth = 0;
  let start = open + 1;
  for (let i = open + 1; i < source.length; i++) {
    const c = source[i];
    if (c === '(' || c === '{' || c === '[') depth++;
    else if ((c === ')' || c === '}' || c === ']') && depth > 0) depth--;
    else if ((c === ',' || c === ')') && depth === 0) {
      const p = source.slice(start, i).trim();
      if (p !== '') names.push(/^[{[]/.test(p) ? 'options' : (/^(?:\.\.\.)?([\w$]+)/.exec(p)?.[1] ?? p));
      if (c === ')') break;
      start = i + 1;
    }
  }
  return names;
}

/** What a call does: returns, or throws / rejects with the error; an async generator is stepped once. */
async function outcome(f: (...args: unknown[]) => unknown, args: unknown[]): Promise<{ returned: true } | { returned: false; error: unknown }> {
  try {
    const value = f(...args);
    if (value !== null && typeof value === 'object' && Symbol.asyncIterator in value && typeof (value as AsyncGenerator).next === 'function') {
      await (value as AsyncGenerator).next();
    } else {
      await value;
    }
    return { returned: true };
  } catch (error) {
    return { returned: false, error };
  }
}

async function problems(): Promise<Record<string, string>> {
  const found: Record<string, string> = {};
  for (const [pkg, barrel] of Object.entries(BARRELS)) {
    for (const [name, f] of Object.entries(barrel)) {
      if (typeof f !== 'function' || isClass(f)) continue;
      const params = parameters(f as (...args: unknown[]) => unknown);
      for (const args of [[], [null]]) {
        const call = `${pkg}.${name}(${args.length === 0 ? '' : 'null'})`;
        const r = await outcome(f as (...args: unknown[]) => unknown, args);
        if (r.returned) {
          if (VALID[call] === undefined) found[call] = 'returned instead of naming the missing argument';
          continue;
        }
        const e = r.error;
        const message = e instanceof Error ? e.message : String(e);
        if (!(e instanceof Error)) found[call] = `threw a non-Error: ${message}`;
        else if (ENGINE.test(message)) found[call] = `the engine's ${e.constructor.name}: ${message}`;
        else if (typeof (e as { code?: unknown }).code === 'string') continue; // a domain error: its code and message are its own
        else if (!message.includes(`${name}:`) && !params.some((p) => p.length > 1 && new RegExp(`\\b${p.replace('$', '\\$')}\\b`).test(message))) {
          found[call] = `names neither ${name} nor a parameter (${params.join(', ')}): ${message}`;
        }
      }
    }
  }
  return found;
}

describe('every exported function names a missing argument', () => {
  it('called with no arguments or with null, throws its own error naming the argument', async () => {
    expect(await problems()).toEqual({});
  }, 60_000);

  it('walks the barrels (the check above has functions to call)', () => {
    const functions = Object.values(BARRELS).flatMap((b) => Object.values(b).filter((f) => typeof f === 'function' && !isClass(f)));
    expect(functions.length).toBeGreaterThan(150);
    expect(parameters(tasks.generate as never)).toEqual(['arm', 'seed']);
  });
});
