import type { Writable, Readable } from 'node:stream';

/** An option of a verb: `--name VALUE` (string) or `--name` (boolean). Definitions are data: the parser, `--help` and docs/cli.md all read them. */
export type OptionDef = {
  readonly type: 'string' | 'boolean';
  readonly description: string;
  /** The value's placeholder in usage lines (string options), e.g. `FILE:NAME`. */
  readonly valueName?: string;
  readonly required?: boolean;
  /** May be given several times (string options); the value is then an array. */
  readonly multiple?: boolean;
  readonly short?: string;
  /** Shown in the docs; applied by the command itself. */
  readonly default?: string;
  /** The value is a number in this range (checked by the parser, which hands the command a number). */
  readonly number?: { readonly above?: number; readonly min?: number; readonly max?: number; readonly below?: number; readonly integer?: boolean };
  /** The value is one of these words (checked by the parser). */
  readonly choices?: readonly string[];
};

/** A positional argument of a verb. */
export type PositionalDef = {
  readonly name: string;
  readonly description: string;
  readonly required?: boolean;
  /** Takes all remaining positionals (last one only). */
  readonly variadic?: boolean;
};

/** Where a command reads and writes: injected so commands run in-process in tests. */
export type CliIo = {
  readonly stdout: Pick<Writable, 'write'>;
  readonly stderr: Pick<Writable, 'write'> & { isTTY?: boolean; columns?: number };
  readonly stdin?: Readable;
  /** True when a person is at a terminal (stdin and stderr are TTYs): progress bars and confirmation. */
  readonly isTTY: boolean;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /** Aborted on SIGINT/SIGTERM (main.ts wires it). */
  readonly signal?: AbortSignal;
  /** A clock in milliseconds for progress status lines (default `performance.now`); tests inject one. */
  readonly now?: () => number;
  /** Asks a yes/no question (default: a line read from stdin). */
  readonly confirm?: (question: string) => Promise<boolean>;
};

/** A parsed option's value. */
export type OptionValue = string | number | boolean | readonly string[] | undefined;

/** What a command's `run` receives. */
export type CommandContext = {
  /** Positionals by name (a variadic one is an array). */
  readonly positionals: Readonly<Record<string, string | readonly string[] | undefined>>;
  /** Options by name: strings, numbers (options with `number`), booleans, or arrays for `multiple`. */
  readonly options: Readonly<Record<string, OptionValue>>;
  /** The store directory (absolute): --store, else $POISSON_STORE, else ./store. */
  readonly store: string;
  /** The store the `--store` flag names (absolute), when it was given (not $POISSON_STORE nor the default). */
  readonly storeFlag?: string;
  readonly debug: boolean;
  readonly io: CliIo;
  /** The raw arguments, for the manifest's provenance. */
  readonly argv: readonly string[];
};

/**
 * A verb of the CLI. To add one: write `src/cli/commands/<verb>.ts` exporting
 * `export const <verb>Command = defineCommand({ name, summary, positionals, options, run })` and add it to
 * the list in `src/cli/commands/index.ts`; then `npm run -w packages/prove docs:cli` rewrites docs/cli.md.
 * `run` returns the exit code (0 ok, 1 a failure found, 2 bad input) or throws a ProveError.
 */
export type CommandDef = {
  readonly name: string;
  readonly summary: string;
  /** Paragraphs for --help and the docs. */
  readonly description?: string;
  readonly positionals: readonly PositionalDef[];
  readonly options: Readonly<Record<string, OptionDef>>;
  /** Example command lines for the docs. */
  readonly examples?: readonly string[];
  run(ctx: CommandContext): Promise<number>;
};

/** Declares a verb (identity, for types). */
export function defineCommand(def: CommandDef): CommandDef {
  return def;
}

/** The options every verb takes (before or after the verb). */
export const GLOBAL_OPTIONS: Readonly<Record<string, OptionDef>> = Object.freeze({
  store: { type: 'string', valueName: 'DIR', description: 'The store directory.', default: '$POISSON_STORE, else ./store' },
  debug: { type: 'boolean', description: 'Print stack traces with errors.' },
  help: { type: 'boolean', short: 'h', description: 'Show help for the verb (or the verbs).' },
});
