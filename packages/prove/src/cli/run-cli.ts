import { isAbsolute, resolve } from 'node:path';
import { ProveError } from '../errors.js';
import { didYouMean } from '../internal/did-you-mean.js';
import { commands } from './commands/index.js';
import { GLOBAL_OPTIONS, type CliIo, type CommandContext } from './define.js';
import { continuedRuns, withStore, withTrustStoreFor } from './format.js';
import { mainHelp, verbHelp } from './help.js';
import { parseVerbArgs, UsageError } from './parse.js';

export type { CliIo } from './define.js';

function splitVerb(raw: readonly string[]): { before: string[]; verb: string | undefined; rest: string[] } {
  const before: string[] = [];
  let i = 0;
  while (i < raw.length) {
    const a = raw[i] ?? '';
    if (!a.startsWith('-') || a === '-') break;
    before.push(a);
    const name = a.replace(/^--?/, '');
    const def = GLOBAL_OPTIONS[name];
    if (def?.type === 'string' && !a.includes('=') && i + 1 < raw.length) before.push(raw[++i] ?? '');
    i++;
  }
  return { before, verb: raw[i], rest: raw.slice(i + 1) };
}

/** The verb of a command line (the first argument that is not a global option or its value), if any. */
export function verbOf(rawArgs: readonly string[]): string | undefined {
  return splitVerb(rawArgs).verb;
}

function defaultConfirm(io: CliIo): (question: string) => Promise<boolean> {
  return async (question) => {
    if (!io.stdin) return false;
    // Loaded only when a command asks (most runs pass --yes or are not asked).
    const { createInterface } = await import('node:readline');
    const stdin = io.stdin;
    return new Promise((resolveAnswer) => {
      const rl = createInterface({ input: stdin, output: io.stderr as NodeJS.WritableStream, terminal: false });
      io.stderr.write(question);
      let answered = false;
      rl.once('line', (line) => {
        answered = true;
        rl.close();
        resolveAnswer(/^\s*y(es)?\s*$/i.test(line));
      });
      rl.once('close', () => {
        if (!answered) resolveAnswer(false);
      });
    });
  };
}

/** What the file system says of a write the process may not make (EACCES, EPERM, EROFS), as a sentence, or null. */
function permissionDenied(err: unknown): string | null {
  if (!(err instanceof Error)) return null;
  const { code, syscall, path } = err as NodeJS.ErrnoException;
  const what: Record<string, string> = { EACCES: 'permission denied', EPERM: 'operation not permitted', EROFS: 'read-only file system' };
  if (code === undefined || !(code in what) || typeof path !== 'string') return null;
  return `cannot ${syscall ?? 'write'} ${path}: ${what[code]} (${code}): run as a user who may write there, or pass --store with a directory you can write.`;
}

/**
 * Prints an error as one line per problem (a stack trace only with --debug) and returns its exit code: a
 * {@link ProveError}'s own (2 bad input, 1 a failure found); a file the process may not write (EACCES, EPERM,
 * EROFS) exit 2, naming the path and the fix; any other error is internal: exit 1, with
 * `internal error: ...` and how to get the stack.
 */
export function reportError(err: unknown, io: CliIo, debug: boolean, store?: string, trusted: ReadonlySet<string> = new Set()): number {
  if (err instanceof ProveError) {
    for (const p of err.problems) io.stderr.write(`error: ${withTrustStoreFor(store === undefined ? p : withStore(p, store), trusted)}\n`);
    if (debug && err.stack) io.stderr.write(`${err.stack}\n`);
    return err.exitCode;
  }
  // A file the process may not write (a store of another user, a read-only mount): the environment, whose
  // fix is the user's (until the sixth session of 2026-12-06 an internal error, exit 1, "please report it").
  const denied = permissionDenied(err);
  if (denied !== null) {
    io.stderr.write(`error: ${denied}\n`);
    if (debug && err instanceof Error && err.stack) io.stderr.write(`${err.stack}\n`);
    return 2;
  }
  // A file system with no room left (a run's own failure names the run and resume: executor/execute.ts).
  const code = err instanceof Error ? (err as NodeJS.ErrnoException).code : undefined;
  if (code === 'ENOSPC' || code === 'EDQUOT') {
    const path = (err as NodeJS.ErrnoException).path;
    io.stderr.write(`error: ${code === 'ENOSPC' ? 'no space left on the device' : 'the disk quota is exceeded'} (${code})${typeof path === 'string' ? ` writing ${path}` : ''}: free space on that file system, or pass --store with a directory on another one.\n`);
    if (debug && err instanceof Error && err.stack) io.stderr.write(`${err.stack}\n`);
    return 1;
  }
  // Anything else is not a problem of the input (the CLI checks its input and reports it as a
  // ProveError): an internal error, or one of the environment the message names.
  const e = err instanceof Error ? err : new Error(String(err));
  const first = `${e.message}`.split('\n')[0];
  io.stderr.write(`internal error: ${e.name && e.name !== 'Error' ? `${e.name}: ` : ''}${first}${debug ? '' : ' (run with --debug for the stack; please report it)'}\n`);
  if (debug && e.stack) io.stderr.write(`${e.stack}\n`);
  return 1;
}

/**
 * The CLI without the process: parses `rawArgs` (the arguments after `poisson-prove`), runs the verb
 * with the given I/O, and returns the exit code (0 ok, 1 a failure found, 2 bad input). Only
 * src/cli/main.ts calls process.exit.
 *
 * @param rawArgs - e.g. `['--store', 'store', 'runs', '--json']`.
 * @param io - {@link CliIo}: streams, TTY flag, environment, working directory, abort signal.
 * @returns the exit code.
 * @example
 * ```ts
 * const code = await runCli(['runs'], { stdout, stderr, isTTY: false, env: {}, cwd: '/tmp' });
 * ```
 */
export async function runCli(rawArgs: readonly string[], io: CliIo): Promise<number> {
  const debug = rawArgs.includes('--debug');
  let given: string | undefined;
  let storeDir: string | undefined;
  try {
    const { before, verb, rest } = splitVerb(rawArgs);
    const globalsOnly = { name: '', summary: '', positionals: [], options: {}, run: async () => 0 };
    const g = parseVerbArgs({ ...globalsOnly, name: 'poisson-prove' }, before, GLOBAL_OPTIONS);
    if (verb === undefined || g.options['help']) {
      if (verb === undefined && !g.options['help']) {
        io.stderr.write(mainHelp(commands));
        return 2;
      }
      if (verb === undefined) {
        io.stdout.write(mainHelp(commands));
        return 0;
      }
    }
    const cmd = commands.find((c) => c.name === verb);
    if (!cmd) {
      throw new UsageError([`unknown verb "${verb}"${didYouMean(verb, commands.map((c) => c.name))}; the verbs are ${commands.map((c) => c.name).join(', ')} (poisson-prove --help).`]);
    }
    const parsed = parseVerbArgs(cmd, rest, GLOBAL_OPTIONS);
    if (parsed.options['help'] || g.options['help']) {
      io.stdout.write(verbHelp(cmd));
      return 0;
    }
    // An empty --store (a `--store "$DIR"` whose variable is unset) named the default ./store, where the runs
    // then went or were looked for without a word (a review, 2026-12-07); refused as an empty --salt is.
    // An empty POISSON_STORE still reads as unset, as environment variables conventionally do.
    if (parsed.options['store'] === '' || g.options['store'] === '') {
      throw new UsageError(['--store is empty; pass the store directory, or leave --store out for $POISSON_STORE, else ./store.']);
    }
    const storeOpt = (parsed.options['store'] as string | undefined) ?? (g.options['store'] as string | undefined) ?? io.env['POISSON_STORE'];
    const storeRaw = storeOpt && storeOpt !== '' ? storeOpt : 'store';
    // The store as given (--store or POISSON_STORE), for the commands an error names; the default needs none.
    if (storeOpt && storeOpt !== '') given = storeRaw;
    const store = isAbsolute(storeRaw) ? storeRaw : resolve(io.cwd, storeRaw);
    storeDir = store;
    const flag = (parsed.options['store'] as string | undefined) ?? (g.options['store'] as string | undefined);
    const ctx: CommandContext = {
      positionals: parsed.positionals,
      options: parsed.options,
      store,
      ...(flag !== undefined && flag !== '' ? { storeFlag: resolve(io.cwd, flag) } : {}),
      debug,
      io: io.confirm ? io : { ...io, confirm: defaultConfirm(io) },
      argv: rawArgs,
    };
    return await cmd.run(ctx);
  } catch (err) {
    return reportError(err, io, debug, given, storeDir === undefined ? new Set() : await runsNeedingTrust(err, storeDir, io.cwd));
  }
}

/**
 * The runs whose resume or extend an error names and that need `--trust-store` from `cwd` (their recorded
 * target module lies outside the working tree, and the run was written on this machine: trustStoreHinted),
 * so that the command it prints works as printed.
 */
async function runsNeedingTrust(err: unknown, store: string, cwd: string): Promise<Set<string>> {
  const out = new Set<string>();
  if (!(err instanceof ProveError)) return out;
  const ids = new Set(err.problems.flatMap(continuedRuns));
  if (ids.size === 0) return out;
  const [{ readManifest }, { trustStoreHinted }] = await Promise.all([import('../store/manifest.js'), import('../store/resume-command.js')]);
  for (const id of ids) {
    const m = await readManifest(store, id).catch(() => null);
    if (m !== null && (await trustStoreHinted(m, cwd))) out.add(id);
  }
  return out;
}
